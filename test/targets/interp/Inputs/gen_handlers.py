#!/usr/bin/env python3
"""Writes random NPL programs whose handlers compute on packet bytes.

    gen_handlers.py --seed S --count N --dir DIR

Each program is one element between FromDevice(0) and ToDevice(0) (and
ToDevice(1) for the packets it diverts). Its handler reads packet bytes,
header fields, the length and metadata into integers of random widths
(u1..u64, i2..i64, the odd ones included), combines them with every
operator of the language (division and shifts by anything, casts both
ways, ?:, min/max), keeps some in state (scalars, arrays, structs) and in
bounded loops, and writes results back into the packet, its metadata and
the output choice. Running the programs on two targets and comparing the
output pcaps checks everything an integer can go through.
"""
import argparse
import os
import random

HEADER_FIELDS = [  # lib/headers.np: (view, offset, field, width)
    ("Ether", 0, "ethertype", 16),
    ("IPv4", 14, "ttl", 8),
    ("IPv4", 14, "ihl", 4),
    ("IPv4", 14, "tos", 8),
    ("IPv4", 14, "length", 16),
    ("IPv4", 14, "frag", 13),
    ("IPv4", 14, "src", 32),
    ("IPv4", 14, "flags", 3),
]
WIDTHS = [1, 2, 3, 5, 7, 8, 9, 12, 13, 16, 17, 24, 31, 32, 33, 48, 63, 64]
BINOPS = ["+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>"]
CMPS = ["==", "!=", "<", "<=", ">", ">="]
META = [("paint", 32), ("out_port", 32), ("anno", 64)]


class Gen:
    def __init__(self, rng):
        self.rng = rng
        self.vars = []  # (name, type, mutable)
        self.state = []  # (name, type)
        self.arrays = []  # (name, elem type, size)
        self.n = 0
        self.depth = 0
        self.size = (6, 16)  # statements of the handler
        self.fns = []  # (name, param types, result type)
        self.in_fn = False
        self.loop_depth = 0

    def ty(self):
        w = self.rng.choice(WIDTHS)
        if w > 1 and self.rng.random() < 0.3:
            return "i%d" % w
        return "u%d" % w

    def width(self, t):
        return int(t[1:])

    def literal(self, t):
        w = self.width(t)
        signed = t[0] == "i"
        r = self.rng.random()
        if r < 0.3:
            v = self.rng.choice([0, 1, 2, 3, 7, 8, 15, 16, 31, 32, 63, 64])
        elif r < 0.5:
            v = (1 << (w - 1)) - 1 if signed else (1 << w) - 1
        else:
            v = self.rng.getrandbits(w)
            if signed:
                v -= 1 << (w - 1)
                if v < 0 and self.rng.random() < 0.5:
                    v = -v - 1
        if signed:
            v = max(min(v, (1 << (w - 1)) - 1), -(1 << (w - 1)))
        else:
            v = v & ((1 << w) - 1)
        text = str(v) if v >= 0 else "(%d)" % v
        # Typed: a bare literal would take the type of its context.
        return "(%s as %s)" % (text, t)

    def leaf(self, t):
        r = self.rng.random()
        cands = [v for v in self.vars if v[1] == t]
        if cands and r < 0.35:
            return self.rng.choice(cands)[0]
        if self.in_fn:
            return self.rng.choice(cands)[0] if cands else self.literal(t)
        calls = [f for f in self.fns if f[2] == t]
        if calls and r < 0.45:
            name, params, _ = self.rng.choice(calls)
            return "%s(%s)" % (name, ", ".join(self.expr(pt, 3) for pt in params))
        if r < 0.5:
            return "(p[%d] as %s)" % (self.rng.randrange(0, 70), t)
        if r < 0.6:
            view, off, field, w = self.rng.choice(HEADER_FIELDS)
            return "(header<%s>(p, %d).%s as %s)" % (view, off, field, t)
        if r < 0.65:
            return "(len(p) as %s)" % t
        if r < 0.7:
            f, w = self.rng.choice(META)
            return "(p.%s as %s)" % (f, t)
        if r < 0.75 and self.state:
            name, st = self.rng.choice(self.state)
            return "(%s as %s)" % (name, t)
        if r < 0.8 and self.arrays:
            name, et, size = self.rng.choice(self.arrays)
            return "(%s[%s] as %s)" % (name, self.index(size), t)
        if cands:
            return self.rng.choice(cands)[0]
        return self.literal(t)

    def index(self, size):
        if self.rng.random() < 0.2:
            return "%d" % self.rng.randrange(0, size + 3)  # out of range too
        return "(%s as u32) %% %d" % (self.expr("u%d" % self.rng.choice(
            [8, 16, 32])), size + self.rng.randrange(0, 2))

    def expr(self, t, d=0):
        if d > 3 or self.rng.random() < 0.25:
            return self.leaf(t)
        r = self.rng.random()
        if r < 0.55:
            op = self.rng.choice(BINOPS)
            if op in ("<<", ">>"):
                st = self.ty()
                return "(%s %s %s)" % (self.expr(t, d + 1), op,
                                       self.expr(st, d + 1))
            return "(%s %s %s)" % (self.expr(t, d + 1), op, self.expr(t, d + 1))
        if r < 0.65:
            return "(%s%s)" % (self.rng.choice(["~", "-"]), self.expr(t, d + 1))
        if r < 0.8:
            return "(%s as %s)" % (self.expr(self.ty(), d + 1), t)
        if r < 0.9:
            return "(%s ? %s : %s)" % (self.cond(d + 1), self.expr(t, d + 1),
                                       self.expr(t, d + 1))
        if r < 0.95:
            return "%s(%s, %s)" % (self.rng.choice(["min", "max"]),
                                   self.expr(t, d + 1), self.expr(t, d + 1))
        # Built-ins that are arithmetic: counts are u32, bswap needs bytes.
        st = self.ty()
        f = self.rng.choice(["clz", "ctz", "popcount", "bswap", "hash",
                             "csum_update"])
        if f == "bswap":
            st = self.rng.choice(["u8", "u16", "u32", "u64", "i16", "i32"])
            return "(bswap(%s) as %s)" % (self.expr(st, d + 1), t)
        if f == "hash":
            return "(hash(%s, %s) as %s)" % (self.expr(st, d + 1),
                                             self.expr(self.ty(), d + 1), t)
        if f == "csum_update":
            return "(csum_update(%s, %s, %s) as %s)" % tuple(
                [self.expr("u16", d + 1) for _ in range(3)] + [t])
        return "(%s(%s) as %s)" % (f, self.expr(st, d + 1), t)

    def cond(self, d=0):
        r = self.rng.random()
        if r < 0.6 or d > 2:
            t = self.ty()
            return "(%s %s %s)" % (self.expr(t, d + 1), self.rng.choice(CMPS),
                                   self.expr(t, d + 1))
        if r < 0.8:
            return "(%s %s %s)" % (self.cond(d + 1), self.rng.choice(
                ["&&", "||"]), self.cond(d + 1))
        return "!%s" % self.cond(d + 1)

    def fresh(self):
        self.n += 1
        return "v%d" % self.n

    def stmt(self, ind):
        r = self.rng.random()
        pad = "  " * ind
        if self.loop_depth and r < 0.06:
            return ["%sif %s { %s; }" % (pad, self.cond(), self.rng.choice(
                ["break", "continue"]))]
        if self.in_fn:
            return self.fn_stmt(ind)
        muts = [v for v in self.vars if v[2]]
        if r < 0.25:
            t = self.ty()
            name = self.fresh()
            mut = self.rng.random() < 0.5
            line = "%s%s %s: %s = %s;" % (pad, "var" if mut else "let", name, t,
                                          self.expr(t))
            self.vars.append((name, t, mut))
            return [line]
        if r < 0.35 and muts:
            name, t, _ = self.rng.choice(muts)
            op = self.rng.choice(["=", "+=", "-=", "*=", "&=", "|=", "^=",
                                  "<<=", ">>="])
            rhs = self.expr(self.ty() if op in ("<<=", ">>=") else t)
            return ["%s%s %s %s;" % (pad, name, op, rhs)]
        if r < 0.5:
            return ["%sp[%d] = %s;" % (pad, self.rng.randrange(0, 64),
                                       self.expr("u8"))]
        if r < 0.55:
            view, off, field, w = self.rng.choice(HEADER_FIELDS)
            h = self.fresh()
            return ["%slet %s = header<%s>(p, %d);" % (pad, h, view, off),
                    "%s%s.%s = %s;" % (pad, h, field, self.expr("u%d" % w))]
        if r < 0.6:
            f, w = self.rng.choice(META)
            return ["%sp.%s = %s;" % (pad, f, self.expr("u%d" % w))]
        if r < 0.7 and self.state:
            name, t = self.rng.choice(self.state)
            op = self.rng.choice(["=", "+=", "^=", "-="])
            return ["%s%s %s %s;" % (pad, name, op, self.expr(t))]
        if r < 0.78 and self.arrays:
            name, et, size = self.rng.choice(self.arrays)
            return ["%s%s[%s] = %s;" % (pad, name, self.index(size),
                                        self.expr(et))]
        if r < 0.9 and self.depth < 3:
            self.depth += 1
            saved = list(self.vars)
            out = ["%sif %s {" % (pad, self.cond())]
            out += self.block(ind + 1)
            self.vars = list(saved)
            out.append("%s} else {" % pad)
            out += self.block(ind + 1)
            self.vars = saved
            out.append("%s}" % pad)
            self.depth -= 1
            return out
        if self.depth < 2:
            self.depth += 1
            saved = list(self.vars)
            k = self.fresh()
            if self.rng.random() < 0.5:
                out = ["%sfor %s in 0..%d {" % (pad, k, self.rng.randrange(1, 5))]
            else:
                # counts up to a data-dependent limit, within a bound
                out = ["%svar %s: u32 = 0;" % (pad, k),
                       "%swhile %s < (p[%d] as u32) %% 7 bound 5 {" % (
                           pad, k, self.rng.randrange(0, 60)),
                       "%s  %s += 1;" % (pad, k)]
            self.vars.append((k, "u32", False))
            self.loop_depth += 1
            out += self.block(ind + 1)
            self.loop_depth -= 1
            self.vars = saved
            out.append("%s}" % pad)
            self.depth -= 1
            return out
        return ["%sp[%d] = %s;" % (pad, self.rng.randrange(0, 64),
                                   self.expr("u8"))]

    def fn_stmt(self, ind):
        pad = "  " * ind
        r = self.rng.random()
        if r < 0.5:
            t = self.ty()
            name = self.fresh()
            line = "%svar %s: %s = %s;" % (pad, name, t, self.expr(t))
            self.vars.append((name, t, True))
            return [line]
        muts = [v for v in self.vars if v[2]]
        if r < 0.8 and muts:
            name, t, _ = self.rng.choice(muts)
            return ["%s%s = %s;" % (pad, name, self.expr(t))]
        return ["%sif %s { return %s; }" % (pad, self.cond(),
                                            self.expr(self.fn_result))]

    def function(self, k):
        params = [self.ty() for _ in range(self.rng.randrange(1, 4))]
        result = self.ty()
        name = "f%d" % k
        saved = self.vars
        self.vars = [("a%d" % j, t, False) for j, t in enumerate(params)]
        self.in_fn = True
        self.fn_result = result
        body = []
        for _ in range(self.rng.randrange(1, 5)):
            body += self.stmt(1)
        lines = ["fn %s(%s) -> %s {" % (name, ", ".join(
            "a%d: %s" % (j, t) for j, t in enumerate(params)), result)]
        lines += body
        lines += ["  return %s;" % self.expr(result), "}", ""]
        self.in_fn = False
        self.vars = saved
        self.fns.append((name, params, result))
        return lines

    def block(self, ind):
        out = []
        for _ in range(self.rng.randrange(1, 4)):
            out += self.stmt(ind)
        return out

    def program(self, seed):
        for k in range(self.rng.randrange(1, 4)):
            self.state.append(("s%d" % k, self.ty()))
        for k in range(self.rng.randrange(0, 3)):
            self.arrays.append(("a%d" % k, self.ty(), self.rng.randrange(1, 9)))
        fn_lines = []
        for k in range(self.rng.randrange(0, 3)):
            fn_lines += self.function(k)
        body = []
        for _ in range(self.rng.randrange(*self.size)):
            body += self.stmt(2)
        divert = self.cond()
        lines = ["// generated by gen_handlers.py, seed %d" % seed,
                 'import "std.np";', "",
                 "struct Pair { x: u16; y: i32; }", ""] + fn_lines + [
                 "element Gen() {", "  in i: pkt;", "  out o[2]: pkt;",
                 "  state {"]
        for name, t in self.state:
            lines.append("    %s: %s = %s;" % (name, t, self.literal(t)))
        for name, t, size in self.arrays:
            lines.append("    %s: [%s; %d];" % (name, t, size))
        lines += ["    pr: Pair;", "  }", "  handler {", "    let p = recv(i);"]
        lines += body
        lines += ["    pr.x += len(p) as u16;",
                  "    pr.y -= (p[20] as i32);",
                  "    p[0] = (pr.x as u8) ^ (pr.y as u8);",
                  "    if %s {" % divert, "      send(o[1], p);",
                  "    } else {", "      send(o[0], p);", "    }", "  }", "}",
                  "", "graph Main() {", "  src = FromDevice(0);",
                  "  g = Gen();", "  t0 = ToDevice(0);", "  t1 = ToDevice(1);",
                  "  src -> g;", "  g.o[0] -> t0;", "  g.o[1] -> t1;", "}", ""]
        return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--count", type=int, default=10)
    ap.add_argument("--dir", required=True)
    ap.add_argument("--statements", type=int, default=0,
                    help="exactly this many top-level statements")
    args = ap.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    for s in range(args.seed, args.seed + args.count):
        gen = Gen(random.Random(s))
        if args.statements:
            gen.size = (args.statements, args.statements + 1)
        text = gen.program(s)
        with open(os.path.join(args.dir, "gen%d.np" % s), "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
