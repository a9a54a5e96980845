"""Typed expressions. Every expression is written fully parenthesised, so
precedence never decides what a program means; pure-literal operations
are avoided (a literal takes the type of its context, and an operation on
two literals would be folded before the context is known)."""
from . import literal as L
from . import types as T

INT_OPS = ["+", "-", "*", "/", "%", "&", "|", "^"]
CMP_OPS = ["==", "!=", "<", "<=", ">", ">="]
META_U32 = ["paint", "in_port", "out_port"]
META_U64 = ["anno", "ts"]


class Ctx:
    """What the expression may read besides the scope: the program's
    declarations, the element's arrays and tables, the readable packets."""

    def __init__(self, prog, scope, element=None, pkts=(), in_fn=False):
        self.prog = prog
        self.scope = scope
        self.element = element
        self.pkts = list(pkts)
        self.in_fn = in_fn

    def with_scope(self, scope):
        c = Ctx(self.prog, scope, self.element, self.pkts, self.in_fn)
        return c


class ExprGen:
    def __init__(self, rng, cov):
        self.rng = rng
        self.cov = cov  # a Counter of constructs written, for the tests

    # -- helpers -----------------------------------------------------------
    def lit(self, t):
        return L.literal(self.rng, t)

    def any_int_type(self):
        return T.random_int_type(self.rng)

    def unsigned_type(self):
        t = self.any_int_type()
        return "u" + t[1:]

    def note(self, what):
        self.cov[what] += 1

    def pkt(self, ctx):
        return self.rng.choice(ctx.pkts) if ctx.pkts else None

    # -- integer expressions ----------------------------------------------
    def int_expr(self, ctx, t, depth=3):
        return self._int(ctx, t, depth)[0]

    def _int(self, ctx, t, depth):
        """(text, pure literal?) of an expression of type t."""
        rng = self.rng
        if depth <= 0 or rng.random() < 0.25:
            return self.atom(ctx, t)
        choice = rng.choices(
            ["bin", "shift", "unary", "cond", "minmax", "cast", "builtin",
             "call", "atom"],
            [30, 8, 6, 6, 5, 10, 12, 4, 15])[0]
        if choice == "bin":
            op = rng.choice(INT_OPS)
            a, pa = self._int(ctx, t, depth - 1)
            b, pb = self._int(ctx, t, depth - 1)
            if pa and pb:
                b = self.nonliteral(ctx, t)
            self.note("op " + op)
            return "(%s %s %s)" % (a, op, b), False
        if choice == "shift":
            a = self.nonliteral(ctx, t, depth - 1)
            # A literal amount takes the shifted value's type.
            if rng.random() < 0.5:
                s = str(rng.randint(0, max(0, min(T.width(t) + 2, T.hi(t)))))
            else:
                s = self.nonliteral(ctx, self.unsigned_type(), depth - 1)
            op = rng.choice(["<<", ">>"])
            self.note("op " + op)
            return "(%s %s %s)" % (a, op, s), False
        if choice == "unary":
            op = rng.choice(["-", "~"])
            a = self.nonliteral(ctx, t, depth - 1)
            self.note("op unary" + op)
            return "(%s%s)" % (op, a), False
        if choice == "cond":
            c = self.bool_expr(ctx, depth - 1)
            a, pa = self._int(ctx, t, depth - 1)
            b, pb = self._int(ctx, t, depth - 1)
            self.note("op ?:")
            return "(%s ? %s : %s)" % (c, a, b), pa and pb
        if choice == "minmax":
            f = rng.choice(["min", "max"])
            a = self.nonliteral(ctx, t, depth - 1)
            b, _ = self._int(ctx, t, depth - 1)
            self.note("builtin " + f)
            return "%s(%s, %s)" % (f, a, b), False
        if choice == "cast":
            s = self.any_int_type()
            a = self.nonliteral(ctx, s, depth - 1)
            self.note("op as")
            return "(%s as %s)" % (a, t), False
        if choice == "builtin":
            text, rt = self.builtin(ctx, depth - 1)
            if rt != t:
                text = "(%s as %s)" % (text, t)
            return text, False
        if choice == "call":
            fn = self.pick_fn(ctx, t)
            if fn:
                return self.call(ctx, fn, depth - 1), False
        return self.atom(ctx, t)

    def nonliteral(self, ctx, t, depth=1):
        """An expression of type t that is not a pure literal."""
        for _ in range(4):
            text, pure = self._int(ctx, t, depth)
            if not pure:
                return text
        v = ctx.scope.of_type(t)
        if v:
            return self.rng.choice(v).name
        # A cast of a variable or of a packet byte always has a type.
        src = self.readable_int(ctx)
        # A literal cast takes the cast's type: cast it to u32 first.
        return "(%s as %s)" % (src, t) if src else "((%s as u32) as %s)" % (
            L.spell(self.rng, "u32", self.rng.randint(0, 1 << 16)), t)

    def readable_int(self, ctx):
        ints = ctx.scope.int_vars()
        opts = [v.name for v in ints]
        p = self.pkt(ctx)
        if p:
            opts += ["len(%s)" % p, "%s[%d]" % (p, self.rng.randint(0, 60))]
        return self.rng.choice(opts) if opts else None

    def atom(self, ctx, t):
        rng = self.rng
        opts = [("lit", 3)]
        vs = ctx.scope.of_type(t)
        if vs:
            opts.append(("var", 8))
        arrs = self.arrays(ctx, t)
        if arrs:
            opts.append(("arr", 4))
        if ctx.pkts:
            opts.append(("pkt", 6))
        pfx = ctx.scope.of_type("prefix")
        if pfx and t in ("u32", "u8"):
            opts.append(("prefix", 3))
        if ctx.element and ctx.element.structparam and not ctx.in_fn:
            sp = ctx.element.structparam
            if any(ft == t for _, ft in sp.fields):
                opts.append(("structparam", 3))
        cs = [(n, st, k) for n, st, k in ctx.prog.const_structs
              if any(ft == t for _, ft in st.fields)]
        if cs:
            opts.append(("conststruct", 2))
        kind = rng.choices([o for o, _ in opts], [w for _, w in opts])[0]
        if kind == "conststruct":
            n, st, k = rng.choice(cs)
            f = rng.choice([f for f, ft in st.fields if ft == t])
            self.note("const struct read")
            return "%s[%s].%s" % (n, self.index(ctx, k), f), False
        if kind == "prefix":
            v = rng.choice(pfx)
            self.note("prefix field")
            f = "len" if t == "u8" else rng.choice(["addr", "mask"])
            return "%s.%s" % (v.name, f), False
        if kind == "structparam":
            sp = ctx.element.structparam
            f = rng.choice([n for n, ft in sp.fields if ft == t])
            self.note("struct param field")
            return "%s[%s].%s" % (ctx.element.structargs,
                                  self.index(ctx, 4), f), False
        if kind == "var":
            v = rng.choice(vs)
            return v.name, False
        if kind == "arr":
            a = rng.choice(arrs)
            self.note("array read")
            return "%s[%s]" % (a.name, self.index(ctx, a.size)), False
        if kind == "pkt":
            text, rt = self.pkt_read(ctx)
            if rt != t:
                text = "(%s as %s)" % (text, t)
            return text, False
        return self.lit(t), True

    def arrays(self, ctx, t):
        out = [a for a in ctx.prog.const_arrays if a.elem == t]
        if ctx.element and not ctx.in_fn:
            out += [a for a in ctx.element.arrays if a.elem == t and
                    a.merge is None]
        return out

    def index(self, ctx, size):
        """An index for an array of `size` elements: mostly in range, some
        out of range (reads 0, writes are ignored)."""
        r = self.rng.random()
        if r < 0.4:
            return str(self.rng.randint(0, size - 1))
        if r < 0.5:
            return str(self.rng.randint(size, size + 3))
        t = self.any_int_type()
        e = self.nonliteral(ctx, t, 1)
        if r < 0.85:
            self.note("index masked")
            if T.signed(t) or size > T.hi(t):
                e = "(%s as u32)" % e
            return "(%s %% %d)" % (e, max(1, size))
        return e

    def offset(self, ctx, p, depth=1):
        """A u32 byte offset into packet p: in the headers, near the end,
        past the end, or computed."""
        r = self.rng.random()
        if r < 0.45:
            return str(self.rng.choice([0, 1, 6, 12, 13, 14, 20, 23, 26, 30,
                                        34, 36, 40, 54, 59, 60, 63]))
        if r < 0.6:
            return "(len(%s) - %d)" % (p, self.rng.randint(0, 20))
        if r < 0.65:
            return str(self.rng.choice([1499, 1513, 1514, 8999, 9000, 65535]))
        e = self.nonliteral(ctx, "u32", depth)
        return "(%s %% %d)" % (e, self.rng.choice([64, 128, 1600, 9100]))

    def pkt_read(self, ctx):
        """A read of packet data or metadata: (text, type)."""
        rng = self.rng
        p = self.pkt(ctx)
        kind = rng.choices(["byte", "len", "meta", "header", "anno"],
                           [10, 3, 3, 6, 2])[0]
        if kind == "byte":
            self.note("pkt byte read")
            return "%s[%s]" % (p, self.offset(ctx, p)), "u8"
        if kind == "len":
            return "len(%s)" % p, "u32"
        if kind == "meta":
            m = rng.choice(META_U32 + META_U64)
            self.note("meta " + m)
            return "%s.%s" % (p, m), "u32" if m in META_U32 else "u64"
        if kind == "header" and ctx.prog.headers:
            h = rng.choice(ctx.prog.headers)
            f, w = rng.choice(h.fields)
            self.note("header read")
            return "header<%s>(%s, %s).%s" % (h.name, p, self.offset(ctx, p),
                                               f), "u%d" % w
        if ctx.prog.annotations:
            name, at = rng.choice(ctx.prog.annotations)
            self.note("annotation read")
            return "%s.%s" % (p, name), at
        return "len(%s)" % p, "u32"

    # -- builtins -------------------------------------------------------
    def builtin(self, ctx, depth):
        """A call of a value builtin: (text, result type)."""
        rng = self.rng
        opts = ["clz", "ctz", "popcount", "bswap", "hash", "crc32x",
                "crc32cx", "csum_fold", "csum_update"]
        if not ctx.in_fn:
            opts += ["now"]
        if ctx.pkts:
            opts += ["csum", "csum_partial", "crc32", "crc32c", "len"] * 2
            if ctx.element and ctx.element.patterns and not ctx.in_fn:
                opts += ["classify"] * 2
            if ctx.element and ctx.element.ippatterns and not ctx.in_fn:
                opts += ["ipclassify"] * 2
        if ctx.element and not ctx.in_fn:
            if ctx.element.arrays:
                opts += ["lenarr"]
            if ctx.element.tables:
                opts += ["lentable"]
            if ctx.element.queues:
                opts += ["lenqueue"]
        b = rng.choice(opts)
        self.note("builtin " + b.rstrip("x"))
        if b in ("clz", "ctz", "popcount"):
            t = self.any_int_type()
            return "%s(%s)" % (b, self.nonliteral(ctx, t, depth)), "u32"
        if b == "bswap":
            t = rng.choice(["u16", "u32", "u64", "i16", "u24", "u48", "i8"])
            return "bswap(%s)" % self.nonliteral(ctx, t, depth), t
        if b == "hash":
            args = []
            for _ in range(rng.randint(1, 8)):
                if rng.random() < 0.15:
                    args.append(self.bool_expr(ctx, depth))
                else:
                    args.append(self.nonliteral(ctx, self.any_int_type(),
                                                depth))
            return "hash(%s)" % ", ".join(args), "u32"
        if b in ("crc32x", "crc32cx"):
            t = rng.choice(["u8", "u16", "u32", "u64", "i32", "u24", "u40"])
            return "%s(%s)" % (b[:-1], self.nonliteral(ctx, t, depth)), "u32"
        if b == "csum_fold":
            return "csum_fold(%s)" % self.int_expr(ctx, "u32", depth), "u16"
        if b == "csum_update":
            return "csum_update(%s, %s, %s)" % tuple(
                self.int_expr(ctx, "u16", depth) for _ in range(3)), "u16"
        if b == "now":
            return "now()", "u64"
        p = self.pkt(ctx)
        if b in ("csum", "crc32", "crc32c"):
            rt = "u16" if b == "csum" else "u32"
            return "%s(%s, %s, %s)" % (b, p, self.offset(ctx, p, depth),
                                       self.length(ctx, depth)), rt
        if b == "csum_partial":
            return "csum_partial(%s, %s, %s, %s)" % (
                p, self.offset(ctx, p, depth), self.length(ctx, depth),
                self.int_expr(ctx, "u32", depth)), "u32"
        if b == "classify":
            return "classify(%s, %s)" % (p, ctx.element.patterns), "u32"
        if b == "ipclassify":
            return "ipclassify(%s, %s)" % (p, ctx.element.ippatterns), "u32"
        if b == "lenarr":
            return "len(%s)" % rng.choice(ctx.element.arrays).name, "u32"
        if b == "lentable":
            return "len(%s)" % rng.choice(ctx.element.tables).name, "u32"
        if b == "lenqueue":
            return "len(%s)" % rng.choice(ctx.element.queues), "u32"
        return "len(%s)" % p, "u32"

    def length(self, ctx, depth):
        r = self.rng.random()
        if r < 0.5:
            return str(self.rng.choice([0, 1, 2, 8, 20, 21, 40, 64, 100]))
        if r < 0.7:
            return "len(%s)" % self.pkt(ctx)
        return "(%s %% 128)" % self.nonliteral(ctx, "u32", depth)

    # -- functions ---------------------------------------------------------
    def pick_fn(self, ctx, t):
        fns = [f for f in ctx.prog.fns if f.result == t and
               (ctx.pkts or not f.takes_pkt)]
        return self.rng.choice(fns) if fns else None

    def call(self, ctx, fn, depth):
        args = []
        for _, pt in fn.params:
            if pt == "pkt":
                args.append(self.pkt(ctx))
            elif pt == "bool":
                args.append(self.bool_expr(ctx, depth))
            else:
                args.append(self.int_expr(ctx, pt, depth))
        self.note("fn call")
        return "%s(%s)" % (fn.name, ", ".join(args))

    # -- bools ---------------------------------------------------------------
    def bool_expr(self, ctx, depth=2):
        rng = self.rng
        if depth <= 0:
            vs = ctx.scope.of_type("bool")
            if vs and rng.random() < 0.5:
                return rng.choice(vs).name
            return self.compare(ctx, 0)
        kind = rng.choices(["cmp", "not", "and", "or", "var", "lit", "eq",
                            "call"], [12, 2, 3, 3, 3, 1, 1, 1])[0]
        if kind == "not":
            self.note("op !")
            return "(!%s)" % self.bool_expr(ctx, depth - 1)
        if kind in ("and", "or"):
            op = "&&" if kind == "and" else "||"
            self.note("op " + op)
            return "(%s %s %s)" % (self.bool_expr(ctx, depth - 1), op,
                                   self.bool_expr(ctx, depth - 1))
        if kind == "var":
            vs = ctx.scope.of_type("bool")
            if vs:
                return rng.choice(vs).name
        if kind == "lit":
            return rng.choice(["true", "false"])
        if kind == "eq":
            vs = ctx.scope.of_type("bool")
            if vs:
                return "(%s %s %s)" % (rng.choice(vs).name,
                                       rng.choice(["==", "!="]),
                                       rng.choice(["true", "false"]))
        if kind == "call":
            fn = self.pick_fn(ctx, "bool")
            if fn:
                return self.call(ctx, fn, depth - 1)
        pfx = ctx.scope.of_type("prefix")
        if pfx and rng.random() < 0.2:
            self.note("prefix compare")
            return "(%s %s %s)" % (rng.choice(pfx).name,
                                   rng.choice(["==", "!="]),
                                   self.prefix_expr(ctx, depth - 1))
        return self.compare(ctx, depth - 1)

    def prefix_expr(self, ctx, depth):
        """A prefix: a literal, a variable, or one computed at run time
        (a computed length above 32 is clamped)."""
        rng = self.rng
        r = rng.random()
        pfx = ctx.scope.of_type("prefix")
        if r < 0.3 and pfx:
            return rng.choice(pfx).name
        if r < 0.65:
            return L.prefix(rng)
        self.note("builtin prefix")
        n = str(rng.randint(0, 32)) if rng.random() < 0.5 else \
            self.nonliteral(ctx, "u8", depth)
        return "prefix(%s, %s)" % (self.int_expr(ctx, "u32", depth), n)

    def compare(self, ctx, depth):
        t = self.any_int_type()
        a = self.nonliteral(ctx, t, depth)
        b, _ = self._int(ctx, t, depth)
        op = self.rng.choice(CMP_OPS)
        self.note("op " + op)
        return "(%s %s %s)" % (a, op, b)
