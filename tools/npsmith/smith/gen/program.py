"""A whole program: headers, structs, annotations, constants, functions,
elements, compound graphs and the top graph, with the manifest that says
how to run it."""
import collections
import random

from . import literal as L
from . import types as T
from .element import CLASSIFIER, ElementGen
from .expr import Ctx, ExprGen
from .graph import GraphGen
from .scope import Array, Names, Scope, Var
from .stmt import Body, StmtGen


class Header:
    def __init__(self, name, fields):
        self.name = name
        self.fields = fields  # [(name, width)]


class Struct:
    def __init__(self, name, fields, defaults=0):
        self.name = name
        self.fields = fields  # [(name, type)]
        self.defaults = defaults  # how many trailing fields have defaults


class Fn:
    def __init__(self, name, params, result, takes_pkt):
        self.name = name
        self.params = params
        self.result = result
        self.takes_pkt = takes_pkt


class Compound:
    def __init__(self, name, nout, gen_insts):
        self.name = name
        self.nout = nout
        self.gen_insts = gen_insts


class Program:
    """The declarations bodies may use (read by ExprGen and StmtGen)."""

    def __init__(self):
        self.headers = []
        self.structs = []
        self.annotations = []  # (name, type)
        self.consts = []  # Var
        self.const_arrays = []  # Array
        self.const_structs = []  # (name, Struct, length)
        self.fns = []
        # Struct name -> (compile-time function, its Python twin) counting
        # the outputs an element with a variadic of that struct declares.
        self.ct_fns = {}


class Gen:
    def __init__(self, seed, explore=False):
        self.seed = seed
        self.rng = random.Random(seed)
        self.explore = explore
        self.cov = collections.Counter()
        # Half the programs have no lossy channel (nor what needs one: a
        # polled input, a feedback loop), so that several cores, whose
        # timing decides what a lossy channel drops, can be compared.
        self.lossy = self.rng.random() < 0.5
        self.names = Names()
        self.prog = Program()
        self.ex = ExprGen(self.rng, self.cov)
        self.st = StmtGen(self.rng, self.ex, self.names)
        self.elgen = ElementGen(self.rng, self.prog, self.ex, self.st,
                                self.names, explore)
        self.elements = []
        self.int_sinks = {}
        self.handlers = []
        self.signals = []
        self.hints = []
        self.files = {}
        self.defines = []
        self.text = []

    def note(self, what):
        self.cov[what] += 1

    # -- top-level declarations ----------------------------------------------
    def declarations(self):
        rng = self.rng
        out = []
        for _ in range(rng.randint(0, 2)):
            name = self.names.fresh("H")
            fields = [(self.names.fresh("f"), rng.choice(
                [1, 3, 4, 8, 8, 12, 16, 16, 32, 48, 64]))
                for _ in range(rng.randint(1, 5))]
            bits = sum(w for _, w in fields)
            if bits % 8:
                fields.append((self.names.fresh("f"), 8 - bits % 8))
            self.prog.headers.append(Header(name, fields))
            out.append("header %s { %s }" % (name, " ".join(
                "%s: u%d;" % f for f in fields)))
        for _ in range(rng.randint(0, 2)):
            out += self.struct()
        # lib/annotations.np declares 4 of the 16 a program may have.
        for _ in range(rng.randint(0, 3) if not self.explore else 12):
            name = self.names.fresh("an")
            t = self.ex.any_int_type()
            self.prog.annotations.append((name, t))
            out.append("annotation %s: %s;" % (name, t))
            self.note("annotation")
        for _ in range(rng.randint(0, 3)):
            name = self.names.fresh("K")
            t = self.ex.any_int_type()
            if rng.random() < 0.4:
                n = rng.randint(1, 6)
                vals = [L.literal(rng, t) for _ in range(n)]
                self.prog.const_arrays.append(
                    Array(name, t, n, False, "const"))
                out.append("const %s: [%s; %d] = [%s];" % (
                    name, t, n, ", ".join(vals)))
                self.note("const array")
            else:
                self.prog.consts.append(Var(name, t, False, "const"))
                out.append("const %s: %s = %s;" % (name, t,
                                                   L.literal(rng, t)))
                self.note("const")
        if rng.random() < 0.2:
            name = self.names.fresh("DK")
            t = self.ex.any_int_type()
            self.prog.consts.append(Var(name, t, False, "const"))
            out.append("const %s: %s = %s;" % (name, t, L.literal(rng, t)))
            self.defines.append("%s=%s" % (name, L.literal(rng, t)))
            self.note("define")
        for _ in range(rng.randint(0, 3)):
            out += self.function()
        if rng.random() < 0.1:
            out += self.match_program()
        return out

    def match_program(self):
        """A match program (the ucode target's; the C and HLS targets
        compile the graph beside it): two structs of whole 64-bit words,
        straight-line tests that `fail`, and `accept`."""
        rng = self.rng
        h, it = self.names.fresh("MH"), self.names.fresh("MI")
        out = ["struct %s { tag: u32; kind: u16; pad: u16; len: u64; }" % h,
               "struct %s { tag: u32; kind: u16; flags: u16; size: u64; }"
               % it]
        body = ["if it.tag != h.tag { fail; }"]
        if rng.random() < 0.5:
            body.append("if (it.kind & 0x%x) != h.kind { fail; }" %
                        rng.randint(0, 0xffff))
        body.append("var n: u64 = h.len;")
        op = rng.choice(["min(n, it.size)", "max(n, it.size)",
                         "n + (popcount(it.flags) as u64)",
                         "n - (clz(it.flags) as u64)", "bswap(n)"])
        body.append("if (it.flags & 1) != 0 { n = %s; }" % op)
        body.append("accept(%s, n);" % rng.choice(
            ["0", "(ctz(it.flags) as u64)", "it.size"]))
        self.note("builtin accept")
        for b in ("min", "max", "popcount", "clz", "bswap"):
            if b + "(" in op:
                self.note("builtin " + b)
        out += ["match %s(h: %s, it: %s) {" % (self.names.fresh("M"), h, it)]
        out += ["  " + l for l in body] + ["}"]
        self.note("match program")
        return out

    def struct(self):
        """A struct, with defaults on some trailing fields, and sometimes a
        constant array of it and a compile-time function over it."""
        rng = self.rng
        name = self.names.fresh("S")
        fields = [(self.names.fresh("g"), "bool" if rng.random() < 0.2
                   else self.ex.any_int_type())
                  for _ in range(rng.randint(1, 3))]
        ndef = rng.randint(0, len(fields) - 1) if rng.random() < 0.4 else 0
        st = Struct(name, fields, ndef)
        self.prog.structs.append(st)
        decl = []
        for k, (f, t) in enumerate(fields):
            d = " = %s" % L.literal(rng, t) if k >= len(fields) - ndef else ""
            decl.append("%s: %s%s;" % (f, t, d))
        out = ["struct %s { %s }" % (name, " ".join(decl))]
        self.note("struct")
        if rng.random() < 0.6:
            fn = self.names.fresh("count")
            cap = rng.randint(1, 3)
            self.prog.ct_fns[name] = (fn, lambda n, cap=cap: 1 + min(n, cap))
            out += ["fn %s(xs: [%s]) -> u32 {" % (fn, name),
                    "  var m: u32 = 1;",
                    "  for k in 0..min(len(xs), %d) { m += 1; }" % cap,
                    "  return m;", "}"]
            self.note("fn compile-time")
            if rng.random() < 0.5:
                cname = self.names.fresh("CS")
                n = rng.randint(1, 4)
                out.append("const %s: [%s; %d] = [%s];" % (
                    cname, name, n, ", ".join(
                        self.construct(st) for _ in range(n))))
                self.prog.const_structs.append((cname, st, n))
                k = self.names.fresh("KC")
                out.append("const %s: u32 = %s(%s);" % (k, fn, cname))
                self.prog.consts.append(Var(k, "u32", False, "const"))
                self.note("const struct array")
        return out

    def construct(self, st):
        """A constructor call; defaulted fields left out first ones first."""
        rng = self.rng
        drop = rng.randint(0, st.defaults)
        n = len(st.fields)
        keep = [f for k, f in enumerate(st.fields)
                if not (n - st.defaults <= k < n - st.defaults + drop)]
        return "%s(%s)" % (st.name, ", ".join(L.literal(rng, t)
                                              for _, t in keep))

    def function(self):
        rng = self.rng
        name = self.names.fresh("fn")
        takes_pkt = rng.random() < 0.5
        params = [("fp", "pkt")] if takes_pkt else []
        for _ in range(rng.randint(0 if takes_pkt else 1, 3)):
            params.append((self.names.fresh("q"), "bool" if rng.random() < 0.1
                           else self.ex.any_int_type()))
        result = None if takes_pkt and rng.random() < 0.4 else (
            "bool" if rng.random() < 0.15 else self.ex.any_int_type())
        scope = Scope()
        for c in self.prog.consts:
            scope.add(c)
        for n, t in params:
            if t != "pkt":
                scope.add(Var(n, t, False, "param"))
        ctx = Ctx(self.prog, scope, None, ["fp"] if takes_pkt else [],
                  in_fn=True)
        body = Body("fn", None, budget=6)
        lines = self.st.block(ctx, body, rng.randint(0, 4))
        if result is not None:
            if rng.random() < 0.3:
                lines += self.st.braced("if %s" % self.ex.bool_expr(ctx, 1), [
                    "return %s;" % self.st.value(ctx, result, 2)])
            lines.append("return %s;" % self.st.value(ctx, result))
        self.prog.fns.append(Fn(name, params, result, takes_pkt))
        self.note("fn")
        sig = ", ".join("%s: %s" % p for p in params)
        head = "fn %s(%s)%s" % (name, sig, " -> %s" % result if result else "")
        return self.st.braced(head, lines)

    # -- elements --------------------------------------------------------------
    def element_for(self, b):
        """A generated element whose inputs b can feed: a new one, or one
        already written (another instance, other arguments)."""
        rng = self.rng
        fits = [e for e in self.elements if not e.is_source and
                self.can_feed(b, e)]
        if fits and rng.random() < 0.3:
            el = rng.choice(fits)
            if rng.random() < 0.4:
                el = self.alias(el)
            return el
        shapes = ["proc"] * 6
        if b.has("pkt", 2):
            shapes += ["select", "merge"] + (["poll"] if self.lossy else [])
        ints = [t for _, t in b.dangling if t != "pkt"]
        for _ in range(3):
            shape = rng.choice(shapes)
            if shape == "select" and ints and rng.random() < 0.5:
                self.elgen.jtype = rng.choice(ints)
            el = self.elgen.make(shape)
            self.elgen.jtype = None
            if self.can_feed(b, el):
                self.add_element(el)
                return el
        return None

    def alias(self, el):
        """`element A = E [without r, ...];`: the same element under
        another name, some read handlers left out."""
        import copy
        a = copy.copy(el)
        a.name = self.names.fresh("Al")
        gone = [r for r in el.reads if self.rng.random() < 0.4]
        a.reads = [r for r in el.reads if r not in gone]
        self.text.append("element %s = %s%s;" % (
            a.name, el.name, " without " + ", ".join(gone) if gone else ""))
        self.note("element alias")
        if gone:
            self.note("element alias without")
        return a

    def can_feed(self, b, el):
        need = collections.Counter()
        for p in el.inputs:
            need[p.type] += p.size or 1
        return all(b.has(t, n) for t, n in need.items())

    def add_element(self, el):
        self.elements.append(el)
        self.text.append(el.text())
        if el.load_param:
            self.files["%s.routes" % el.name] = self.route_file(el)

    def route_file(self, el):
        rng = self.rng
        t = el.tables[0]
        lines = ["# routes for %s" % el.name]
        for _ in range(rng.randint(0, 6)):
            if t.kind == "lpm":
                key = "%d.%d.%d.%d/%d" % (rng.randint(0, 255), rng.randint(
                    0, 255), rng.randint(0, 255), 0, rng.choice([0, 8, 16, 24,
                                                                 32]))
            else:
                key = str(max(T.lo(t.key), min(T.hi(t.key),
                                                  rng.randint(0, 20))))
            val = "" if rng.random() < 0.3 else " " + str(
                min(T.hi(t.value), rng.randint(0, 100)))
            lines.append(key + val)
        return "\n".join(lines) + "\n"

    def source_element(self):
        el = self.elgen.make("source")
        self.add_element(el)
        return el

    def loop_element(self):
        if not hasattr(self, "loop_name"):
            self.loop_name = self.names.fresh("Loop")
            self.text.append("\n".join([
                "element %s(max: u32) {" % self.loop_name,
                "  in i: pkt;", "  in back: pkt;",
                "  out o: pkt;", "  out again: pkt;",
                "  handler {", "    select {",
                "      case p = recv(i) { p.paint = 0; send(again, p); }",
                "      case q = recv(back) {",
                "        if q.paint >= max { send(o, q); }",
                "        else { q.paint += 1; send(again, q); }",
                "      }", "    }", "  }", "}"]))
        return self.loop_name

    def timer_source(self):
        """A source driven by its timer alone: it sends `k` packets, one
        per period of virtual time, then finishes."""
        from .element import DURATIONS, Element
        name = self.names.fresh("TSrc")
        el = Element(name)
        el.reads = ["count"]
        el.outputs = []
        r = "r"
        scope = Scope()
        ctx = Ctx(self.prog, scope, None, [r])
        body = Body("timer", None, [r], budget=4)
        fill = self.st.block(ctx, body, self.rng.randint(0, 3))
        self.text.append("\n".join(
            ["element %s(k: u32) {" % name, "  out o: pkt;",
             "  state { n: u32; }",
             "  handler { if n >= k { finish(); } }",
             "  timer every %s {" % self.rng.choice(DURATIONS),
             "    if n < k {",
             "      let r = new_pkt(%d);" % self.rng.choice([14, 60, 1514]),
             "      r.ts = now();", "      r[0] = n as u8;"] +
            ["      " + l for l in fill] +
            ["      send(o, r);", "      n += 1;", "    }", "  }",
             "  read count -> u32 { return n; }", "}"]))
        self.timer_source_el = el
        self.note("element timer source")
        return name

    def device_element(self, out):
        """A generated device end: a source calling device_recv or a sink
        calling device_send, with random statements on the packet."""
        name = self.names.fresh("DevOut" if out else "DevIn")
        scope = Scope()
        for c in self.prog.consts:
            scope.add(c)
        scope.add(Var("dev", "u32", False, "param"))
        ctx = Ctx(self.prog, scope, None, ["p"])
        body = Body("init", None, ["p"], budget=4)
        fill = self.st.block(ctx, body, self.rng.randint(0, 3))
        if out:
            lines = ["element %s(dev: u32) {" % name, "  in i: pkt;",
                     "  handler {", "    let p = recv(i);"]
            lines += ["    " + l for l in fill]
            lines += ["    device_send(dev, p);", "  }", "}"]
        else:
            lines = ["element %s(dev: u32) {" % name, "  out o: pkt;",
                     "  handler {", "    let p = device_recv(dev);"]
            lines += ["    " + l for l in fill]
            lines += ["    send(o, p);", "  }", "}"]
        self.text.append("\n".join(lines))
        self.note("builtin device_send" if out else "builtin device_recv")
        return name

    def int_sink(self, t):
        if t not in self.int_sinks:
            name = self.names.fresh("ISink")
            self.int_sinks[t] = name
            self.text.append("\n".join([
                "element %s() {" % name,
                "  in i: %s;" % t,
                "  state { acc: %s; n: u32; }" % t,
                "  handler { let x = recv(i); acc = (acc + acc) ^ x; n += 1; }",
                "  read racc -> %s { return acc; }" % t,
                "  read rn -> u32 { return n; }",
                "}"]))
        return self.int_sinks[t]

    def args_for(self, el):
        """Arguments for an instance: every parameter up to a random cut
        among the defaulted tail, then the patterns of a variadic."""
        rng = self.rng
        args = []
        fixed = [p for p in el.params if not p[1].endswith("...")]
        last_required = max([k for k, p in enumerate(fixed) if p[2] is None],
                            default=-1)
        variadic = any(p[1].endswith("...") for p in el.params)
        cut = len(fixed) if variadic else rng.randint(last_required + 1,
                                                     len(fixed))
        for name, t, default in fixed[:cut]:
            if t == "str":
                args.append('"%s"' % rng.choice(["a", "", "npsmith-arg"]))
            else:
                args.append(L.literal(rng, t))
        if el.patterns:
            pats = [rng.choice(CLASSIFIER) for _ in range(rng.randint(0, 4))]
            self.hints_from_patterns(pats)
            args += ['"%s"' % p for p in pats]
        if el.ippatterns:
            from .element import IPCLASSIFIER
            args += ['"%s"' % rng.choice(IPCLASSIFIER)
                     for _ in range(rng.randint(0, 3))]
        nargs = 0
        if el.structparam:
            nargs = rng.randint(0, 4)
            args += [self.construct(el.structparam) for _ in range(nargs)]
        return ", ".join(args), nargs

    def import_line(self, graph_text):
        """`import "std.np";`, or only the library elements the graphs
        instantiate (the file's structs, headers and annotations come in
        anyway)."""
        if self.rng.random() < 0.7:
            return 'import "std.np";'
        import re
        mine = {e.name for e in self.elements} | set(self.int_sinks.values())
        used = set()
        for text in graph_text:
            used |= set(re.findall(r"= ([A-Z][A-Za-z0-9]*)\(", text))
        defined = "\n".join(self.text + list(graph_text))
        lib = sorted(n for n in used if n not in mine and
                     "element %s(" % n not in defined and
                     "graph %s(" % n not in defined and
                     "element %s =" % n not in defined)
        self.note("import list")
        return 'import "std.np" { %s };' % ", ".join(lib or ["Discard"])

    def hints_from_patterns(self, pats):
        """OFFSET/HEX clauses of Classifier patterns become traffic hints."""
        for pat in pats:
            for clause in pat.split():
                clause = clause.lstrip("!")
                if "/" not in clause:
                    continue
                off, val = clause.split("/", 1)
                val = val.split("%")[0].replace("?", "0")
                if off.isdigit() and len(val) % 2 == 0:
                    self.hints.append({"offset": int(off), "bytes": [val]})

    # -- the program -----------------------------------------------------------
    def generate(self):
        rng = self.rng
        decls = self.declarations()
        compounds = []
        ggen = GraphGen(self)
        comp_text = []
        for _ in range(rng.choice([0, 0, 1, 2])):
            name = self.names.fresh("C")
            lines, nout, insts = ggen.compound(name, compounds)
            compounds.append(Compound(name, nout, insts))
            comp_text.append("\n".join(lines))
            self.note("compound")
        ndev = rng.choice([1, 1, 1, 2])
        top, nout, insts = ggen.top("Main", ndev, compounds)
        for inst, el in insts:
            self.handlers += ["%s.%s" % (inst, r) for r in el.reads]
            if el.signal and rng.random() < 0.7:
                self.signals.append("%s=%d" % (inst, max(
                    0, min(T.hi(el.signal), rng.randint(0, 300)))))
        src = ["// npsmith seed %d%s" % (self.seed, " --explore"
                                         if self.explore else ""),
               self.import_line(top + comp_text + self.text), ""] + \
            decls + [""]
        src += self.text + comp_text + ["\n".join(top)]
        program = "\n".join(src) + "\n"
        manifest = {
            "version": 1, "seed": self.seed, "program": "prog.np",
            "explore": self.explore, "top": None, "defines": self.defines,
            "inputs": [{"device": d, "count": rng.choice([20, 60, 150]),
                        "linktype": 1, "hints": self.hints,
                        "min_len": 14, "max_len": 9000,
                        "truncate": rng.random() < 0.3,
                        "cut": rng.random() < 0.1} for d in range(ndev)],
            "outputs": nout, "handlers": self.handlers,
            "signals": self.signals, "hls": True,
        }
        return program, manifest
