"""`--explore`: programs near the limits docs/language.md documents
(nesting, port arrays, compile-time steps, string and channel sizes, table
capacities, graph depth, annotations, packet size). Each program takes a
few of them, in elements and instances spliced into its top graph."""

from .graph import Readable
FEATURES = ["deep_expr", "deep_blocks", "wide_ports", "ct_steps",
            "long_string", "deep_channel", "big_table", "deep_graphs",
            "big_packet"]


class Explorer:
    def __init__(self, gen):
        self.gen = gen
        self.rng = gen.rng

    def splice(self, b):
        """Adds one to three limit features to builder b (the top graph)."""
        for f in self.rng.sample(FEATURES, self.rng.randint(1, 3)):
            self.gen.note("explore " + f)
            getattr(self, f)(b)

    def element(self, body, state="", extra=""):
        """A pass-through element whose handler runs `body` on packet p."""
        name = self.gen.names.fresh("X")
        lines = ["element %s() {" % name, "  in i: pkt;", "  out o: pkt;"]
        if state:
            lines.append("  state { %s }" % state)
        lines += ["  handler {", "    let p = recv(i);"]
        lines += ["    " + l for l in body]
        lines += ["    send(o, p);", "  }"]
        if extra:
            lines.append("  " + extra)
        lines.append("}")
        self.gen.text.append("\n".join(lines))
        return name

    def through(self, b, name, args=""):
        inst = b.add(name, args, [("i", "pkt")], [("o", "pkt")])
        return inst

    def deep_expr(self, b):
        """An expression nested close to the 256 levels of the limit (a
        parenthesised operation is two levels: 124 of them is the most)."""
        depth = self.rng.randint(100, 124)
        e = "(len(p) as u16)"
        for k in range(depth):
            e = "(%s %s %d)" % (e, self.rng.choice(["+", "^", "*", "-"]),
                                self.rng.randint(1, 9))
        self.through(b, self.element(["p[0] = (%s) as u8;" % e]))

    def deep_blocks(self, b):
        depth = self.rng.randint(200, 254)
        body = ["var d: u32 = 0;"]
        body += ["{"] * depth + ["d += len(p);"] + ["}"] * depth
        body.append("p[1] = d as u8;")
        self.through(b, self.element(body))

    def wide_ports(self, b):
        """A Tee and a Merge of hundreds of ports, each port connected."""
        n = self.rng.choice([200, 300, 500, 1000])
        tee = b.add("Tee", str(n), [("i", "pkt")],
                    [("o[%d]" % k, "pkt") for k in range(n)])
        b.dangling = [d for d in b.dangling
                      if not d[0].startswith(tee.name + ".")]
        m = self.gen.names.fresh("n")
        b.decls.append("%s = Merge(%d);" % (m, n))
        for k in range(n):
            b.connect("%s.o[%d]" % (tee.name, k), "%s.i[%d]" % (m, k))
        b.dangling.append(("%s.o" % m, "pkt"))

    def ct_steps(self, b):
        """A compile-time function that runs most of its 1,048,576 steps."""
        fn = self.gen.names.fresh("steps")
        k = self.gen.names.fresh("KS")
        outer = self.rng.randint(200, 340)
        self.gen.text.append("\n".join([
            "fn %s(xs: [u32]) -> u32 {" % fn,
            "  var m: u32 = 0;",
            "  for k in 0..%d {" % outer,
            "    for j in 0..1000 { m += xs[0]; }",
            "  }",
            "  return m;", "}",
            "const %s: u32 = %s([3]);" % (k, fn)]))
        name = self.element(["p[2] = (%s & 0xff) as u8;" % k])
        self.through(b, name)

    def long_string(self, b):
        n = self.rng.choice([1000, 4000, 4096])
        s = "".join(self.rng.choice("abcdefgh0123") for _ in range(n))
        self.through(b, self.element(['pkt_write(p, 0, "%s");' % s]))

    def deep_channel(self, b):
        name = self.element(["p[3] = 1;"])
        src = b.take("pkt")
        inst = b.add(name, "", [], [("o", "pkt")])
        depth = self.rng.choice([1 << 20, 1 << 22, 1 << 24])
        b.conns.append("%s -> %s.i [depth = %d];" % (src, inst.name, depth))

    def big_table(self, b):
        cap = self.rng.choice([1 << 16, 1 << 20])
        state = "t: hash<u32, u64, %d>; l: lpm<u32, %d>;" % (cap, cap)
        body = ["insert(t, len(p), p.ts);",
                "insert(l, prefix(header<IPv4>(p, 14).src, 24), len(p));",
                "if let v = lookup(l, header<IPv4>(p, 14).dst) "
                "{ p[4] = v as u8; }"]
        name = self.element(body, state,
                            "read size -> u32 { return len(t) + len(l); }")
        inst = self.through(b, name)
        b.gen_insts.append((inst.name, Readable(["size"])))

    def deep_graphs(self, b):
        """Compounds nested close to the 64 levels of the limit."""
        depth = self.rng.randint(40, 62)
        names = [self.gen.names.fresh("G") for _ in range(depth)]
        for k, n in enumerate(names):
            inner = "Null()" if k == depth - 1 else "%s()" % names[k + 1]
            self.gen.text.append(
                "graph %s() { in i: pkt; out o: pkt; x = %s; i -> x -> o; }"
                % (n, inner))
        self.through(b, names[0])

    def big_packet(self, b):
        n = self.rng.choice([1 << 20, (1 << 24) - 1, 1 << 24, (1 << 24) + 1])
        body = ["let big = new_pkt(%d);" % n,
                "big[%d] = 7;" % (n - 1),
                "p[5] = big[%d];" % (n - 1),
                "drop(big);"]
        self.through(b, self.element(body))
