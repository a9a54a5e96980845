"""Random graphs: sources, chains, fan-out through switches and Tee,
fan-in through Merge and select, compounds, int channels, lossy and
lossless channels of random depths. Every port is connected exactly once
and the graph is acyclic, so it always drains."""
from . import library


class Readable:
    """An instance the manifest reads that is not a generated element (an
    int sink, an explore element): its read handlers, and no signal."""
    signal = None

    def __init__(self, reads):
        self.reads = reads


class Inst:
    def __init__(self, name, element, args, ins, outs):
        self.name = name
        self.element = element
        self.args = args
        self.ins = ins  # [(port ref, type)]
        self.outs = outs


class Builder:
    """Instances and connections of one graph body."""

    def __init__(self, gen, dangling=()):
        self.gen = gen
        self.rng = gen.rng
        self.decls = []
        self.conns = []
        self.dangling = list(dangling)  # [(source text, type)]
        self.insts = []
        # (instance path, Element) of the generated elements, compounds'
        # inner instances as `compound/inner` (their flattened names).
        self.gen_insts = []

    def connect(self, src, dst, lossy=False):
        rng = self.rng
        arrow = "=>" if lossy or (self.gen.lossy and rng.random() < 0.1) \
            else "->"
        attr = ""
        r = rng.random()
        if r < 0.25:
            attr = " [depth = %d]" % rng.choice(
                [0, 1, 2, 3, 8, 64, 1000] +
                ([1 << 16, 1 << 24] if self.gen.explore else []))
        if arrow == "=>":
            self.gen.note("channel lossy")
        if attr:
            self.gen.note("channel depth")
        self.conns.append("%s %s %s%s;" % (src, arrow, dst, attr))

    def take(self, t):
        cands = [k for k, (_, tt) in enumerate(self.dangling) if tt == t]
        if not cands:
            return None
        k = self.rng.choice(cands)
        return self.dangling.pop(k)[0]

    def has(self, t, n=1):
        return sum(1 for _, tt in self.dangling if tt == t) >= n

    def add(self, element, args, ins, outs, placement="", lossy=()):
        """An instance fed from dangling outputs; its outputs dangle.
        Inputs named in `lossy` are polled: a lossless channel into one
        could fill while the instance waits on its other input."""
        name = self.gen.names.fresh("n")
        self.decls.append("%s = %s(%s)%s;" % (name, element, args, placement))
        for ref, t in ins:
            src = self.take(t)
            self.connect(src, "%s.%s" % (name, ref), ref in lossy)
        for ref, t in outs:
            self.dangling.append(("%s.%s" % (name, ref), t))
        inst = Inst(name, element, args, ins, outs)
        self.insts.append(inst)
        return inst

    def lines(self):
        return self.decls + self.conns


class GraphGen:
    def __init__(self, gen):
        self.gen = gen
        self.rng = gen.rng

    def fill(self, b, steps, compounds):
        """Adds up to `steps` instances to builder b."""
        rng = self.rng
        gen = self.gen
        for _ in range(steps):
            if not b.dangling:
                return
            r = rng.random()
            if r < 0.45:
                el = gen.element_for(b)
                if el is None:
                    continue
                args, nargs = gen.args_for(el)
                ins = []
                for p in el.inputs:
                    ins += [(ref, p.type) for ref in p.refs(nargs)]
                outs = []
                for p in el.outputs:
                    outs += [(ref, p.type) for ref in p.refs(nargs)]
                b.add(el.name, args, ins, outs, self.placement(), el.polled)
                b.gen_insts.append((b.insts[-1].name, el))
            elif r < 0.75 and b.has("pkt"):
                name, args, n, pats = library.pick(rng)
                gen.hints_from_patterns(pats)
                outs = [("o", "pkt")] if n is None else [
                    ("o[%d]" % k, "pkt") for k in range(n)]
                b.add(name, args, [("i", "pkt")], outs, self.placement())
                gen.note("library " + name)
            elif r < 0.85 and b.has("pkt", 2):
                n = 2 if not b.has("pkt", 3) or rng.random() < 0.5 else 3
                b.add("Merge", str(n), [("i[%d]" % k, "pkt")
                                        for k in range(n)], [("o", "pkt")])
                gen.note("library Merge")
            elif r < 0.9 and b.has("pkt") and gen.lossy:
                self.loop(b)
            elif compounds and b.has("pkt"):
                c = rng.choice(compounds)
                outs = [("o", "pkt")] if c.nout is None else [
                    ("o[%d]" % k, "pkt") for k in range(c.nout)]
                b.add(c.name, str(rng.randint(0, 255)), [("i", "pkt")], outs,
                      self.placement())
                b.gen_insts += [("%s/%s" % (b.insts[-1].name, path), el)
                                for path, el in c.gen_insts]
                gen.note("compound instance")

    def loop(self, b):
        """A feedback loop: each packet goes round a ring `max` times (its
        paint counts the rounds) before it leaves; the back edge is lossy,
        so a full ring drops instead of waiting on the instance that feeds
        it."""
        gen = self.gen
        name = gen.loop_element()
        ring = self.rng.choice(["Counter", "Null", "EtherMirror"])
        lp = b.add(name, str(self.rng.randint(0, 4)), [("i", "pkt")],
                   [("o", "pkt")])
        r = gen.names.fresh("n")
        b.decls.append("%s = %s();" % (r, ring))
        b.connect("%s.again" % lp.name, "%s.i" % r)
        depth = self.rng.choice(["", " [depth = 1]", " [depth = 4]"])
        b.conns.append("%s.o => %s.back%s;" % (r, lp.name, depth))
        gen.note("graph feedback loop")

    def placement(self):
        r = self.rng.random()
        if r < 0.05:
            return " @host"
        if r < 0.1:
            return " @fpga"
        if r < 0.12:
            return " @npu"
        return ""

    def close_ints(self, b):
        """Int outputs end in a sink that folds what it receives."""
        for t in [d[1] for d in b.dangling if d[1] != "pkt"]:
            b.add(self.gen.int_sink(t), "", [("i", t)], [])
            # Through gen_insts, so that a sink inside a compound is read
            # by its flattened name (`n3/n7.racc`), as the runs name it.
            b.gen_insts.append((b.insts[-1].name, Readable(["racc", "rn"])))

    def drain(self, b, sink, keep=0):
        """Feeds sink with what dangles, leaving `keep` for later sinks:
        one output directly, several through a Merge."""
        k = min(len(b.dangling) - keep, self.rng.choice([1, 1, 2, 3]))
        if k <= 1:
            src = b.dangling.pop(self.rng.randrange(len(b.dangling)))[0]
            b.connect(src, sink)
            return
        m = b.add("Merge", str(k), [("i[%d]" % j, "pkt") for j in range(k)],
                  [])
        b.connect("%s.o" % m.name, sink)
        self.gen.note("library Merge")

    def compound(self, cname, compounds):
        """A graph with boundary ports `i` and `o` (sometimes an array)."""
        rng = self.rng
        b = Builder(self.gen, [("i", "pkt")])
        if rng.random() < 0.5:
            b.add("Paint", "c", [("i", "pkt")], [("o", "pkt")])
        self.fill(b, rng.randint(1, 3), compounds)
        self.close_ints(b)
        nout = None if len(b.dangling) < 2 or rng.random() < 0.6 else 2
        targets = ["o"] if nout is None else ["o[0]", "o[1]"]
        for k, t in enumerate(targets):
            self.drain(b, t, len(targets) - k - 1)
        for ref, _ in list(b.dangling):
            b.dangling.remove((ref, "pkt"))
            d = b.add("Discard", "", [], [])
            b.connect(ref, d.name)
        head = "graph %s(c: u8) {" % cname
        ports = ["  in i: pkt;", "  out o%s: pkt;" % (
            "" if nout is None else "[2]")]
        return [head] + ports + ["  " + l for l in b.lines()] + ["}"], nout, \
            b.gen_insts

    def top(self, name, ndev_in, compounds):
        rng = self.rng
        gen = self.gen
        b = Builder(gen)
        for d in range(ndev_in):
            src = gen.device_element(False) if rng.random() < 0.15 \
                else "FromDevice"
            b.add(src, str(d), [], [("o", "pkt")])
        if rng.random() < 0.15:
            src = gen.source_element()
            args, nargs = gen.args_for(src)
            b.add(src.name, args, [],
                  [(ref, "pkt") for p in src.outputs for ref in p.refs(nargs)])
            b.gen_insts.append((b.insts[-1].name, src))
        if rng.random() < 0.1:
            b.add(gen.timer_source(), str(rng.randint(0, 6)), [],
                  [("o", "pkt")])
            b.gen_insts.append((b.insts[-1].name, gen.timer_source_el))
        if rng.random() < 0.05:
            b.add("InfiniteSource", "%d, %d" % (rng.choice([14, 60, 1514]),
                                                 rng.randint(0, 5)),
                  [], [("o", "pkt")])
            gen.note("library InfiniteSource")
        if gen.explore:
            from .explore import Explorer
            Explorer(gen).splice(b)
        self.fill(b, rng.randint(1, 7 if not gen.explore else 20), compounds)
        self.close_ints(b)
        nout = 0
        for k in range(rng.randint(1, 3)):
            if not b.dangling:
                break
            sink = gen.device_element(True) if rng.random() < 0.15 \
                else "ToDevice"
            t = b.add(sink, str(k), [], [])
            self.drain(b, t.name)
            nout += 1
        while b.dangling:
            ref, _ = b.dangling.pop(0)
            d = b.add("Discard", "", [], [])
            b.connect(ref, d.name)
        lines = ["graph %s() {" % name] + ["  " + l for l in b.lines()] + ["}"]
        return lines, nout, b.gen_insts
