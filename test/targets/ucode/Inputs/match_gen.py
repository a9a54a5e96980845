"""Grammar-driven generator of random well-typed NPL match programs.

Each program is drawn from a seed (random.Random(seed)), so a seed names a
program, its headers and its list for good. The generator builds the
program as a small typed AST and evaluates that AST by NPL semantics
(fixed-width two's complement, signed operations on iN, casts that
truncate, zero- or sign-extend, `fail` ends the function), independently
of npcc.

Coverage (docs/language.md, "Match programs"): fields of every width 1..64
(unsigned, signed, bool) at every position, packed from bit 0 of 64-bit
words without straddling, headers and items of 1..8 words; + - & | ^ ~ and
unary -, every comparison (signed and unsigned), && || !, masks that are
constants and masks that are fields, flag tests of one and several bits,
casts both ways (zero and sign extension, truncation, to and from bool),
min/max, ?:, let/var with updates under conditions, nested if/else, bools,
header-only conditions, fail on several paths and unconditionally,
statements after fail, dead code, always-true and always-false checks,
lists of 1..8 items with matches at any position.

With `calls` (match_diff.py --calls), programs also declare functions and
call them: parameters of any integer type or bool, integer and bool
results, early returns under conditions, calls of the functions declared
before (never recursion), used in expressions and conditions of the match
program and of other functions; and expressions use the bit built-ins
(popcount, clz, ctz on operands of any width, bswap on whole bytes).
Without it a seed draws the program it always drew.
"""
import random
import re

M64 = (1 << 64) - 1


def mask(w):
    return (1 << w) - 1


def to_signed(v, w):
    return v - (1 << w) if v >> (w - 1) & 1 else v


def lit_src(v, ty):
    """The literal for bit pattern `v` of type `ty`."""
    if ty.signed:
        s = to_signed(v, ty.w)
        return "(%d)" % s if s < 0 else "%d" % s
    return "%d" % v


class Ty:
    def __init__(self, kind, w=1):
        self.kind, self.w = kind, w  # kind: 'u', 'i', 'bool'

    def __eq__(self, o):
        return self.kind == o.kind and self.w == o.w

    def __hash__(self):
        return hash((self.kind, self.w))

    def name(self):
        return "bool" if self.kind == "bool" else "%s%d" % (self.kind, self.w)

    @property
    def signed(self):
        return self.kind == "i"


BOOL = Ty("bool")
U64 = Ty("u", 64)


class Fail(Exception):
    pass


class Return(Exception):
    def __init__(self, value):
        self.value = value


class Fn:
    def __init__(self, name, params, ret):
        self.name, self.params, self.ret = name, params, ret
        self.run = None  # run(args) -> value, set once the body is drawn


def bits_eval(op, v, w):
    """NPL's bit built-ins on the w-bit pattern v."""
    if op == "popcount":
        return bin(v).count("1")
    if op == "clz":
        return w - v.bit_length()
    if op == "ctz":
        return (v & -v).bit_length() - 1 if v else w
    return int.from_bytes(v.to_bytes(w // 8, "little"), "big")  # bswap


class Field:
    def __init__(self, name, ty, word, lsb):
        self.name, self.ty, self.word, self.lsb = name, ty, word, lsb

    def get(self, words):
        return (words[self.word] >> self.lsb) & mask(self.ty.w)


def make_layout(rng, nwords, prefix):
    """Fields packed from bit 0 of each word; every word is filled."""
    fields = []
    for word in range(nwords):
        bit = 0
        while bit < 64:
            left = 64 - bit
            roll = rng.random()
            if roll < 0.2:
                w = left
            elif roll < 0.35:
                w = rng.choice([x for x in (8, 16, 32) if x <= left] or [left])
            elif roll < 0.45:
                w = 1
            else:
                w = rng.randint(1, left)
            if w == 1 and rng.random() < 0.5:
                ty = BOOL
            elif w >= 2 and rng.random() < 0.25:
                ty = Ty("i", w)
            else:
                ty = Ty("u", w)
            fields.append(Field("%s%d" % (prefix, len(fields)), ty, word, bit))
            bit += w
    return fields


class Gen:
    """Expressions are (source, evaluate(env) -> value, type)."""

    def __init__(self, rng, calls=False):
        self.rng = rng
        self.calls = calls
        self.fns = []        # functions callable from here
        self.in_fn = False   # drawing a function body: no fields
        self.nwords = rng.randint(1, 8)
        self.layout = make_layout(rng, self.nwords, "f")
        # The header usually shares the item's layout (fields compared with
        # their counterpart sit at the same bit position); sometimes it has
        # its own, so that fields at different positions meet.
        if rng.random() < 0.25:
            self.hlayout = make_layout(rng, rng.randint(1, 8), "g")
            self.hstruct = "H"
        else:
            self.hlayout = self.layout
            self.hstruct = "W"
        self.scopes = [{}]
        self.nvars = 0
        self.consts = []  # interesting constants seen, for the data

    # -- helpers ---------------------------------------------------------
    def chance(self, p):
        return self.rng.random() < p

    def lookup_vars(self, ty=None, mutable=False):
        out = {}
        for s in self.scopes:
            for n, (t, mut) in s.items():
                out[n] = (t, mut)
        return [(n, t) for n, (t, mut) in out.items()
                if (ty is None or t == ty) and (mut or not mutable)]

    def fields_of(self, ty=None):
        if self.in_fn:
            return []
        res = []
        for f in self.layout:
            if ty is None or f.ty == ty:
                res.append(("it", f))
        for f in self.hlayout:
            if ty is None or f.ty == ty:
                res.append(("h", f))
        return res

    def literal(self, ty):
        w = ty.w
        roll = self.rng.random()
        if roll < 0.25:
            v = self.rng.randint(0, min(mask(w), 16))
        elif roll < 0.4:
            v = mask(w)
        else:
            v = self.rng.getrandbits(w)
        if ty.signed:
            s = to_signed(v, w)
            if w == 64 and s == -(1 << 63):
                s += 1
            v = s & mask(w)
            self.consts.append(v)
            src = "(%d)" % s if s < 0 else "%d" % s
            return src, (lambda env, v=v: v), ty
        self.consts.append(v)
        return "%d" % v, (lambda env, v=v: v), ty

    def rand_int_ty(self):
        choice = self.rng.random()
        if choice < 0.5:
            fs = [f for _, f in self.fields_of() if f.ty.kind != "bool"]
            if fs:
                return self.rng.choice(fs).ty
        w = self.rng.choice([8, 16, 32, 64, 64, self.rng.randint(1, 64)])
        return Ty("i" if self.chance(0.2) and w > 1 else "u", w)

    # -- expressions -----------------------------------------------------
    @staticmethod
    def is_lit(e):
        return re.match(r"^\(?-?\d+\)?$", e[0]) is not None

    def nonlit(self, ty):
        """An expression of type `ty` that reads a field or a variable, so
        that it has a type of its own (a literal takes its context's)."""
        fs = self.fields_of(ty)
        vs = self.lookup_vars(ty)
        if fs and (not vs or self.chance(0.7)):
            return self.field_ref(*self.rng.choice(fs))
        if vs:
            n, t = self.rng.choice(vs)
            return n, (lambda env, n=n: env[n]), t
        if self.in_fn:
            # A parameter of another type (every function has one).
            n, st = self.rng.choice(self.lookup_vars())
            src = (n, lambda env, n=n: env[n], st)
        else:
            base, f = self.rng.choice([x for x in self.fields_of()])
            src = self.field_ref(base, f)
            st = f.ty
        w = ty.w

        def fn(env, a=src[1]):
            v = a(env)
            if st.kind != "bool" and st.w < w and st.signed:
                return to_signed(v, st.w) & mask(w)
            return v & mask(w)
        return "(%s as %s)" % (src[0], ty.name()), fn, ty

    def typed(self, a, ty):
        return self.nonlit(ty) if self.is_lit(a) else a

    def expr(self, ty, depth):
        if ty.kind == "bool":
            return self.cond(depth)
        rng = self.rng
        leaves = []
        fs = self.fields_of(ty)
        vs = self.lookup_vars(ty)
        if depth <= 0 or self.chance(0.35):
            if fs and self.chance(0.7):
                return self.field_ref(*rng.choice(fs))
            if vs and self.chance(0.6):
                n, t = rng.choice(vs)
                return n, (lambda env, n=n: env[n]), t
            if fs:
                return self.field_ref(*rng.choice(fs))
            if self.chance(0.5):
                return self.cast_expr(ty, depth)
            return self.literal(ty)
        kinds = ["bin", "bin", "bin", "lit", "un", "cast", "cast", "minmax",
                 "cond", "var"]
        if self.calls:
            kinds += ["bits", "bits", "call", "call", "call", "call"]
        kind = rng.choice(kinds)
        w = ty.w
        if kind == "bits":
            return self.bits_expr(ty, depth)
        if kind == "call":
            call = self.call_expr(ty, depth)
            if call:
                return call
            kind = "bin"
        if kind == "bin":
            op = rng.choice(["+", "-", "&", "|", "^", "&", "+"])
            a = self.expr(ty, depth - 1)
            b = self.literal(ty) if self.chance(0.3) else self.expr(ty, depth - 1)
            if self.is_lit(a) and self.is_lit(b):
                b = self.nonlit(ty)
            fn = {"+": lambda x, y: (x + y) & mask(w),
                  "-": lambda x, y: (x - y) & mask(w),
                  "&": lambda x, y: x & y,
                  "|": lambda x, y: x | y,
                  "^": lambda x, y: x ^ y}[op]
            return ("(%s %s %s)" % (a[0], op, b[0]),
                    lambda env, a=a[1], b=b[1], fn=fn: fn(a(env), b(env)), ty)
        if kind == "un":
            op = rng.choice(["~", "-"])
            a = self.typed(self.expr(ty, depth - 1), ty)
            if op == "~":
                return ("(~%s)" % a[0],
                        lambda env, a=a[1]: a(env) ^ mask(w), ty)
            return ("(-%s)" % a[0],
                    lambda env, a=a[1]: (-a(env)) & mask(w), ty)
        if kind == "cast":
            return self.cast_expr(ty, depth)
        if kind == "minmax":
            isMin = self.chance(0.5)
            a = self.typed(self.expr(ty, depth - 1), ty)
            b = self.literal(ty) if self.chance(0.3) else self.expr(ty, depth - 1)

            def fn(env, a=a[1], b=b[1]):
                x, y = a(env), b(env)
                if ty.signed:
                    less = to_signed(x, w) < to_signed(y, w)
                else:
                    less = x < y
                return (x if less else y) if isMin else (y if less else x)
            return ("%s(%s, %s)" % ("min" if isMin else "max", a[0], b[0]),
                    fn, ty)
        if kind == "cond":
            c = self.cond(depth - 1)
            a = self.expr(ty, depth - 1)
            b = self.expr(ty, depth - 1)
            if self.is_lit(a) and self.is_lit(b):
                b = self.nonlit(ty)
            return ("(%s ? %s : %s)" % (c[0], a[0], b[0]),
                    lambda env, c=c[1], a=a[1], b=b[1]: a(env) if c(env) else b(env),
                    ty)
        if kind == "var" and vs:
            n, t = rng.choice(vs)
            return n, (lambda env, n=n: env[n]), t
        if fs:
            return self.field_ref(*rng.choice(fs))
        return self.literal(ty)

    def bits_expr(self, ty, depth):
        """popcount, clz or ctz (u32) of an operand of any width, cast to
        `ty`; or bswap of `ty` itself when it is whole bytes."""
        rng = self.rng
        if ty.kind != "bool" and ty.w % 8 == 0 and self.chance(0.3):
            a = self.typed(self.expr(ty, depth - 1), ty)
            return ("bswap(%s)" % a[0],
                    lambda env, a=a[1], w=ty.w: bits_eval("bswap", a(env), w), ty)
        op = rng.choice(["popcount", "clz", "ctz"])
        t = self.rand_int_ty()
        a = self.typed(self.expr(t, depth - 1), t)
        src = "%s(%s)" % (op, a[0])
        fn = (lambda env, a=a[1], op=op, w=t.w: bits_eval(op, a(env), w))
        return self.convert((src, fn, Ty("u", 32)), ty)

    def convert(self, e, ty):
        """`e` as type `ty`: itself or through a cast."""
        st = e[2]
        if st == ty:
            return e
        w = ty.w

        def fn(env, a=e[1]):
            v = a(env)
            if ty.kind == "bool":
                return int(v != 0)
            if st.kind == "bool":
                return v & mask(w)
            if st.w < w and st.signed:
                return to_signed(v, st.w) & mask(w)
            return v & mask(w)
        return "(%s as %s)" % (e[0], ty.name()), fn, ty

    def call_expr(self, ty, depth):
        """A call of a function declared before, its result cast to `ty`
        unless it has that type."""
        fns = [f for f in self.fns if f.ret == ty] if self.chance(0.6) else []
        if not fns:
            fns = [f for f in self.fns if f.ret.kind != "bool" or ty.kind == "bool"]
        if not fns:
            return None
        f = self.rng.choice(fns)
        args = [self.typed(self.expr(pt, max(depth - 1, 0)), pt)
                for _, pt in f.params]
        src = "%s(%s)" % (f.name, ", ".join(a[0] for a in args))

        def fn(env, f=f, args=[a[1] for a in args]):
            return f.run([a(env) for a in args])
        return self.convert((src, fn, f.ret), ty)

    def function(self, index):
        """Declares function `index`: its text and its evaluation."""
        rng = self.rng
        params = []
        for k in range(rng.randint(1, 3)):
            pt = BOOL if k and self.chance(0.2) else self.rand_int_ty()
            params.append(("a%d" % k, pt))
        ret = BOOL if self.chance(0.2) else self.rand_int_ty()
        f = Fn("fn%d" % index, params, ret)
        saved = (self.scopes, self.in_fn, self.ret)
        self.scopes = [{n: (t, False) for n, t in params}]
        self.in_fn, self.ret = True, ret
        lines, runs = [], []
        for _ in range(rng.randint(0, 4)):
            l, r = self.stmt(rng.randint(0, 2), 1)
            lines += l
            runs.append(r)
        e = self.expr(ret, rng.randint(0, 2))
        lines.append("  return %s;" % e[0])
        self.scopes, self.in_fn, self.ret = saved

        def run(args, runs=runs, e=e[1]):
            env = {n: v for (n, _), v in zip(params, args)}
            try:
                for r in runs:
                    r(env)
            except Return as r:
                return r.value
            return e(env)
        f.run = run
        head = "fn %s(%s) -> %s {" % (f.name, ", ".join(
            "%s: %s" % (n, t.name()) for n, t in params), ret.name())
        return [head] + lines + ["}"], f

    def field_ref(self, base, f):
        return ("%s.%s" % (base, f.name),
                (lambda env, base=base, f=f: f.get(env[base])), f.ty)

    def cast_expr(self, ty, depth):
        """An expression of another type cast to `ty`."""
        if self.chance(0.15):
            src = self.cond(depth - 1)
        else:
            t = self.rand_int_ty()
            src = self.typed(self.expr(t, depth - 1), t)
        st = src[2]
        w = ty.w

        def fn(env, a=src[1]):
            v = a(env)
            if st.kind == "bool":
                return v & mask(w)
            if st.w >= w:
                return v & mask(w)
            if st.signed:
                return to_signed(v, st.w) & mask(w)
            return v
        return "(%s as %s)" % (src[0], ty.name()), fn, ty

    def cond(self, depth):
        rng = self.rng
        kinds = ["cmp", "cmp", "cmp", "flag", "flag", "maskeq", "and", "or",
                 "not", "boolf", "always", "hdr", "boolcast"]
        if depth <= 0:
            kinds = ["cmp", "flag", "maskeq", "boolf", "always", "hdr"]
        if self.calls and depth > 0:
            kinds = kinds + ["call", "call"]
        kind = rng.choice(kinds)
        if kind == "call":
            call = self.call_expr(BOOL, depth)
            if call:
                return call
            kind = "cmp"
        if kind == "boolf" or kind == "boolcast":
            bs = self.fields_of(BOOL)
            vs = self.lookup_vars(BOOL)
            if kind == "boolf" and (bs or vs):
                if vs and (not bs or self.chance(0.3)):
                    n, _ = rng.choice(vs)
                    base = (n, lambda env, n=n: env[n], BOOL)
                else:
                    base = self.field_ref(*rng.choice(bs))
                form = rng.randrange(4)
                if form == 0:
                    return base
                if form == 1:
                    lit = self.chance(0.5)
                    op = rng.choice(["==", "!="])
                    want = lit if op == "==" else not lit
                    return ("(%s %s %s)" % (base[0], op, "true" if lit else "false"),
                            lambda env, b=base[1], want=want: int(bool(b(env)) == want),
                            BOOL)
                if form == 2:
                    return ("(!%s)" % base[0], lambda env, b=base[1]: 1 - b(env), BOOL)
                other = self.cond(depth - 1)
                op = rng.choice(["==", "!="])
                return ("(%s %s %s)" % (base[0], op, other[0]),
                        lambda env, a=base[1], b=other[1], op=op:
                        int((a(env) == b(env)) == (op == "==")), BOOL)
            ty = self.rand_int_ty()
            a = self.typed(self.expr(ty, depth - 1), ty)
            return ("(%s as bool)" % a[0], lambda env, a=a[1]: int(a(env) != 0),
                    BOOL)
        if kind == "and" or kind == "or":
            a = self.cond(depth - 1)
            b = self.cond(depth - 1)
            if kind == "and":
                return ("(%s && %s)" % (a[0], b[0]),
                        lambda env, a=a[1], b=b[1]: int(bool(a(env)) and bool(b(env))),
                        BOOL)
            return ("(%s || %s)" % (a[0], b[0]),
                    lambda env, a=a[1], b=b[1]: int(bool(a(env)) or bool(b(env))),
                    BOOL)
        if kind == "not":
            a = self.cond(depth - 1)
            return "(!%s)" % a[0], lambda env, a=a[1]: 1 - a(env), BOOL
        if kind == "always":
            fs = [x for x in self.fields_of() if x[1].ty.kind == "u"]
            if fs:
                f = self.field_ref(*rng.choice(fs))
                op = rng.choice(["<", ">="])
                return ("(%s %s 0)" % (f[0], op),
                        lambda env, op=op: int(op == ">="), BOOL)
        if kind == "flag":
            fs = [x for x in self.fields_of() if x[1].ty.kind != "bool"]
            if fs:
                base, f = rng.choice(fs)
                x = self.field_ref(base, f)
                w = f.ty.w
                nbits = rng.choice([1, 1, 2, 2, 3])
                k = 0
                for _ in range(nbits):
                    k |= 1 << rng.randrange(w)
                self.consts.append(k)
                ks = lit_src(k, f.ty)
                form = rng.randrange(3)
                if form == 0:
                    return ("((%s & %s) == 0)" % (x[0], ks),
                            lambda env, x=x[1], k=k: int(x(env) & k == 0), BOOL)
                if form == 1:
                    return ("((%s & %s) != 0)" % (x[0], ks),
                            lambda env, x=x[1], k=k: int(x(env) & k != 0), BOOL)
                return ("((%s & %s) == %s)" % (x[0], ks, ks),
                        lambda env, x=x[1], k=k: int(x(env) & k == k), BOOL)
        if kind == "maskeq":
            # ((a ^ b) & m) != 0 with m a field or a constant.
            fs = [x for x in self.fields_of() if x[1].ty.kind != "bool"]
            if fs:
                base, f = rng.choice(fs)
                a = self.field_ref(base, f)
                b = self.expr(f.ty, 0)
                ms = [x for x in self.fields_of(f.ty)]
                if ms and self.chance(0.6):
                    m = self.field_ref(*rng.choice(ms))
                else:
                    m = self.literal(f.ty)
                op = rng.choice(["==", "!="])
                return ("(((%s ^ %s) & %s) %s 0)" % (a[0], b[0], m[0], op),
                        lambda env, a=a[1], b=b[1], m=m[1], op=op:
                        int((((a(env) ^ b(env)) & m(env)) == 0) == (op == "==")),
                        BOOL)
        if kind == "hdr":
            fs = [x for x in self.fields_of() if x[0] == "h" and x[1].ty.kind != "bool"]
            if fs:
                x = self.field_ref(*rng.choice(fs))
                lit = self.literal(x[2])
                op = rng.choice(["==", "!="])
                return ("(%s %s %s)" % (x[0], op, lit[0]),
                        lambda env, x=x[1], v=lit[1], op=op:
                        int((x(env) == v(env)) == (op == "==")), BOOL)
        # comparison
        ty = self.rand_int_ty()
        a = self.expr(ty, depth - 1)
        roll = rng.random()
        if roll < 0.3:
            # The same field of the other side: same bit position.
            b = self.expr(ty, 0)
        elif roll < 0.55:
            b = self.literal(ty)
        else:
            b = self.expr(ty, depth - 1)
        if self.is_lit(a) and self.is_lit(b):
            b = self.nonlit(ty)
        op = rng.choice(["==", "!=", "<", "<=", ">", ">="])
        w = ty.w

        def fn(env, a=a[1], b=b[1]):
            x, y = a(env), b(env)
            if ty.signed:
                x, y = to_signed(x, w), to_signed(y, w)
            return int({"==": x == y, "!=": x != y, "<": x < y, "<=": x <= y,
                        ">": x > y, ">=": x >= y}[op])
        return "(%s %s %s)" % (a[0], op, b[0]), fn, BOOL

    # -- statements ------------------------------------------------------
    def block(self, depth, n, indent):
        """Returns (lines, run(env)) for n statements in a new scope."""
        self.scopes.append({})
        lines, runs = [], []
        for _ in range(n):
            l, r = self.stmt(depth, indent)
            lines += l
            runs.append(r)
        self.scopes.pop()

        def run(env):
            for r in runs:
                r(env)
        return lines, run

    def stmt(self, depth, indent):
        rng = self.rng
        pad = "  " * indent
        kinds = ["failif", "failif", "failif", "let", "var", "assign",
                 "assign", "if", "if", "ifelse"]
        if depth <= 0:
            kinds = ["failif", "failif", "let", "var", "assign"]
        if self.chance(0.02):
            kinds = ["fail"]
        kind = rng.choice(kinds)
        if self.in_fn and kind in ("fail", "failif"):
            # Functions cannot fail: a return under a condition instead.
            c = self.cond(rng.randint(0, 2))
            e = self.expr(self.ret, rng.randint(0, 2))

            def run(env, c=c[1], e=e[1]):
                if c(env):
                    raise Return(e(env))
            return [pad + "if %s { return %s; }" % (c[0], e[0])], run
        if kind == "fail":
            def run(env):
                raise Fail()
            return [pad + "fail;"], run
        if kind == "failif":
            c = self.cond(rng.randint(0, 2))

            def run(env, c=c[1]):
                if c(env):
                    raise Fail()
            return [pad + "if %s { fail; }" % c[0]], run
        if kind in ("let", "var"):
            ty = BOOL if self.chance(0.1) else self.rand_int_ty()
            e = self.expr(ty, rng.randint(0, 2))
            name = "v%d" % self.nvars
            self.nvars += 1
            self.scopes[-1][name] = (ty, kind == "var")
            if kind == "let" and self.chance(0.5):
                src = "let %s: %s = %s;" % (name, ty.name(), e[0])
                if re.match(r"^(it|h)\.\w+$", e[0]):
                    src = "let %s = %s;" % (name, e[0])
            else:
                src = "%s %s: %s = %s;" % (kind, name, ty.name(), e[0])

            def run(env, name=name, e=e[1]):
                env[name] = e(env)
            return [pad + src], run
        if kind == "assign":
            vs = self.lookup_vars(mutable=True)
            if not vs:
                if depth > 0:
                    return self.stmt(0, indent)
                if self.in_fn:
                    none = "false" if self.ret.kind == "bool" else "0"
                    return ([pad + "if false { return %s; }" % none],
                            lambda env: None)
                return [pad + "if %s { fail; }" % "false"], lambda env: None
            name, ty = rng.choice(vs)
            if ty.kind != "bool" and self.chance(0.3):
                op = rng.choice(["+=", "-=", "&=", "|=", "^="])
                e = self.expr(ty, rng.randint(0, 1))
                w = ty.w
                fn = {"+=": lambda x, y: (x + y) & mask(w),
                      "-=": lambda x, y: (x - y) & mask(w),
                      "&=": lambda x, y: x & y,
                      "|=": lambda x, y: x | y,
                      "^=": lambda x, y: x ^ y}[op]

                def run(env, name=name, e=e[1], fn=fn):
                    env[name] = fn(env[name], e(env))
                return [pad + "%s %s %s;" % (name, op, e[0])], run
            e = self.expr(ty, rng.randint(0, 2))

            def run(env, name=name, e=e[1]):
                env[name] = e(env)
            return [pad + "%s = %s;" % (name, e[0])], run
        # if / if-else
        c = self.cond(rng.randint(0, 2))
        body, brun = self.block(depth - 1, rng.randint(1, 3), indent + 1)
        lines = [pad + "if %s {" % c[0]] + body
        erun = None
        if kind == "ifelse":
            ebody, erun = self.block(depth - 1, rng.randint(1, 3), indent + 1)
            lines += [pad + "} else {"] + ebody
        lines.append(pad + "}")

        def run(env, c=c[1], brun=brun, erun=erun):
            # Variables declared in a block go out of scope with it; their
            # names are unique, so leaving them in env is harmless.
            if c(env):
                brun(env)
            elif erun:
                erun(env)
        return lines, run

    def program(self):
        rng = self.rng
        fn_lines = []
        self.ret = None
        if self.calls:
            for k in range(rng.randint(1, 3)):
                text, f = self.function(k)
                fn_lines += text + [""]
                self.fns.append(f)
        n = rng.randint(1, 7)
        lines, run = [], []
        self.scopes = [{}]
        for _ in range(n):
            l, r = self.stmt(rng.randint(0, 2), 1)
            lines += l
            run.append(r)
        # accept takes u64 values: narrower ones through a cast.
        off = (self.cast_expr(U64, rng.randint(0, 2)) if self.chance(0.4)
               else self.expr(U64, rng.randint(0, 2)))
        ln = (self.cast_expr(U64, rng.randint(0, 2)) if self.chance(0.4)
              else self.expr(U64, rng.randint(0, 2)))
        lines.append("  accept(%s, %s);" % (off[0], ln[0]))


        def evaluate(h, it):
            env = {"h": h, "it": it}
            try:
                for r in run:
                    r(env)
            except Fail:
                return None
            return off[1](env), ln[1](env)

        def struct(name, layout):
            return "struct %s { %s; }" % (name, "; ".join(
                "%s: %s" % (f.name, f.ty.name()) for f in layout))
        structs = [struct("W", self.layout)]
        if self.hstruct != "W":
            structs.append(struct("H", self.hlayout))
        text = "%s\n\n%smatch Random(h: %s, it: W) {\n%s\n}\n" % (
            "\n".join(structs), "".join(l + "\n" for l in fn_lines), self.hstruct,
            "\n".join(lines))
        return text, evaluate

    # -- data ------------------------------------------------------------
    def data(self, evaluate):
        rng = self.rng
        headers = []
        for _ in range(rng.randint(1, 6)):
            headers.append(self.random_words(self.hlayout, None))
        # A pool of candidate items, some derived from the headers, then a
        # list of 1..8 of them in which accepted items sit at any position.
        pool = []
        for _ in range(24):
            like = rng.choice(headers)
            pool.append(self.random_words(self.layout, like))
        accepted = [it for it in pool
                    if any(evaluate(h, it) is not None for h in headers)]
        rejected = [it for it in pool if it not in accepted]
        n = rng.randint(1, 8)
        items = []
        for _ in range(n):
            if accepted and (not rejected or rng.random() < 0.35):
                items.append(rng.choice(accepted))
            else:
                items.append(rng.choice(rejected))
        return headers, items

    def random_words(self, layout, like):
        rng = self.rng
        words = [rng.getrandbits(64) for _ in range(8)]
        if like is not None and rng.random() < 0.7:
            words = list(like)
        for f in layout:
            roll = rng.random()
            w = f.ty.w
            if like is not None and roll < 0.4:
                continue  # keep the header's bits (same position)
            if roll < 0.55:
                v = 0
            elif roll < 0.65:
                v = mask(w)
            elif roll < 0.75 and self.consts:
                v = rng.choice(self.consts) & mask(w)
            elif roll < 0.8:
                v = 1 << (w - 1)
            elif roll < 0.85 and like is not None:
                v = (f.get(like) + rng.choice([1, -1])) & mask(w)
            else:
                v = rng.getrandbits(w)
            words[f.word] = (words[f.word] & ~(mask(w) << f.lsb)) | (v << f.lsb)
        return words


def generate(seed, calls=False):
    """(NPL text, evaluate(h, it) -> None | (off, len), headers, items)."""
    rng = random.Random(seed)
    g = Gen(rng, calls)
    text, evaluate = g.program()
    headers, items = g.data(evaluate)
    return text, evaluate, headers, items


def expected(evaluate, headers, items):
    """Per header, musim's answer without cycles."""
    out = []
    for hi, h in enumerate(headers):
        want = "header %d: no match" % hi
        for ii, it in enumerate(items):
            r = evaluate(h, it)
            if r is not None:
                want = "header %d: match %d offset %d length %d" % (hi, ii, r[0], r[1])
                break
        out.append(want)
    return out


def write_words(path, rows):
    with open(path, "w") as f:
        f.write("# empty\n" if not rows else "")
        for row in rows:
            f.write(" ".join("%x" % w for w in row) + "\n")
