"""Random elements: parameters, ports, state (scalars, arrays, structs,
tables, queues, merged and shared fields), and every kind of body (init,
handler, signal, timer, read and write handlers)."""
from . import literal as L
from .expr import Ctx
from .scope import Array, Scope, Table, Var
from .stmt import Body

MERGE_OPS = ["sum", "or", "max", "min"]
# Timer periods: a trace spans seconds, and the interpreter (the oracle)
# runs a timer's body some hundred times slower than the C target, so
# periods under a millisecond are for --explore only.
DURATIONS = ["1ms", "5ms", "100ms", "1s", "3ms", "2_000us"]
SHORT_DURATIONS = ["250us", "10us", "1us"]
CLASSIFIER = ["12/0800", "12/0806", "12/86dd", "12/8100", "23/06", "23/11",
              "12/0800 23/01", "14/45", "0/ffffffffffff", "12/08??",
              "30/0a%ff", "-", "26/12 27/1a"]
IPCLASSIFIER = ["tcp", "udp", "icmp", "tcp dst port 80", "udp port 53",
                "src net 10.0.0.0/8", "dst host 18.26.4.24", "ip ttl < 2",
                "not icmp", "tcp and not dst port 22", "-", "ip proto 47"]


class Port:
    def __init__(self, name, type="pkt", size=None, size_fn=None):
        self.name = name
        self.type = type
        self.size = size
        # A size computed at compile time by a function of the element's
        # variadic struct parameter: (function name, its Python twin).
        self.size_fn = size_fn

    def refs(self, nargs=0):
        """How a connection names each port of this declaration, for an
        instance with `nargs` variadic arguments."""
        size = self.size_fn[1](nargs) if self.size_fn else self.size
        if size is None:
            return [self.name]
        return ["%s[%d]" % (self.name, k) for k in range(size)]

    def decl_size(self, el):
        if self.size_fn:
            return "[%s(%s)]" % (self.size_fn[0], el.structargs)
        return "[%s]" % self.size if self.size is not None else ""


class Element:
    def __init__(self, name):
        self.name = name
        self.params = []  # (name, type, default text or None)
        self.inputs = []
        self.outputs = []
        self.scalars = []
        self.arrays = []
        self.tables = []
        self.queues = []
        self.patterns = None
        self.ippatterns = None
        self.strparam = None
        self.reads = []
        self.signal = None
        self.write = None  # (handler name, [param types])
        self.load_param = None
        self.lines = []
        self.is_source = False
        self.polled = ()  # inputs read with try_recv
        self.structparam = None  # a Struct, the type of a variadic
        self.structargs = None  # its parameter's name

    @property
    def pkt_outputs(self):
        return [p for p in self.outputs if p.type == "pkt"]

    @property
    def int_outputs(self):
        return [p for p in self.outputs if p.type != "pkt"]

    def text(self):
        return "\n".join(self.lines)


class ElementGen:
    def __init__(self, rng, prog, exprs, stmts, names, explore=False):
        self.rng = rng
        self.prog = prog
        self.ex = exprs
        self.st = stmts
        self.names = names
        self.explore = explore
        # The type of a select element's second input when the graph has
        # an int output to feed it (else it takes packets).
        self.jtype = None

    def note(self, what):
        self.ex.note(what)

    def make(self, shape):
        """shape: 'proc', 'select', 'merge', 'poll' or 'source'."""
        rng = self.rng
        el = Element(self.names.fresh("E"))
        self.note("element " + shape)
        scope = Scope()
        for c in self.prog.consts:
            scope.add(c)
        self.params(el, scope)
        self.ports(el, shape)
        state_lines = self.state(el, scope)
        shared_lines = self.shared(el, scope)
        head = "element %s(%s) {" % (el.name, ", ".join(self.param_decl(el)))
        lines = [head]
        for p in el.inputs + el.outputs:
            size = p.decl_size(el)
            lines.append("  %s %s%s: %s;" % (
                "in" if p in el.inputs else "out", p.name, size, p.type))
        if state_lines:
            lines.append("  state {")
            lines += ["    " + l for l in state_lines]
            lines.append("  }")
        if shared_lines:
            lines.append("  shared {")
            lines += ["    " + l for l in shared_lines]
            lines.append("  }")
        ctx = Ctx(self.prog, scope, el)
        if rng.random() < 0.4 or el.tables or el.load_param:
            lines += self.init(el, ctx)
        lines += self.indent(self.handler(el, ctx, shape))
        if rng.random() < 0.2:
            lines += self.indent(self.signal(el, ctx))
        if rng.random() < 0.15 and shape != "source":
            lines += self.indent(self.timer(el, ctx))
        lines += self.indent(self.handlers(el, ctx))
        lines.append("}")
        el.lines = lines
        return el

    def indent(self, lines):
        return ["  " + l for l in lines]

    # -- declarations ---------------------------------------------------
    def params(self, el, scope):
        rng = self.rng
        for _ in range(rng.randint(0, 3)):
            t = "bool" if rng.random() < 0.15 else self.ex.any_int_type()
            name = self.names.fresh("a")
            default = L.literal(rng, t) if rng.random() < 0.8 else None
            el.params.append((name, t, default))
            scope.add(Var(name, t, False, "param"))
        if rng.random() < 0.2:
            el.strparam = self.names.fresh("s")
            el.params.append((el.strparam, "str", '"%s"' % rng.choice(
                ["npsmith", "", "x" * rng.randint(1, 40)])))
        # A variadic parameter comes last.
        r = rng.random()
        if r < 0.2:
            el.patterns = self.names.fresh("pats")
            el.params.append((el.patterns, "str...", None))
        elif r < 0.3:
            el.ippatterns = self.names.fresh("ipats")
            el.params.append((el.ippatterns, "str...", None))
        elif r < 0.4 and self.prog.structs:
            el.structparam = rng.choice(self.prog.structs)
            el.structargs = self.names.fresh("rs")
            el.params.append((el.structargs, el.structparam.name + "...",
                              None))
            self.note("param struct variadic")

    def param_decl(self, el):
        out = []
        for name, t, default in el.params:
            if t.endswith("..."):
                out.append("%s: %s" % (name, t))
            elif default is None:
                out.append("%s: %s" % (name, t))
            else:
                out.append("%s: %s = %s" % (name, t, default))
        # Parameters without a default cannot follow one with a default
        # in a call that leaves them out, so the generator always passes
        # every parameter up to the last it gives.
        return out

    def ports(self, el, shape):
        rng = self.rng
        if shape == "proc" or shape == "poll":
            el.inputs.append(Port("i"))
            if shape == "poll":
                el.inputs.append(Port("j"))
                el.polled = ("j",)
        elif shape == "select":
            el.inputs.append(Port("i"))
            el.inputs.append(Port("j", self.jtype or "pkt"))
        elif shape == "merge":
            el.inputs.append(Port("i", "pkt", rng.randint(2, 3)))
        elif shape == "source":
            el.is_source = True
        n = rng.choices([1, 2, 3], [6, 3, 1])[0]
        if el.structparam and self.prog.ct_fns.get(el.structparam.name) \
                and rng.random() < 0.6:
            el.outputs.append(Port("o", "pkt", None,
                                   self.prog.ct_fns[el.structparam.name]))
            self.note("port array sized by compile-time fn")
        elif rng.random() < 0.4:
            size = rng.randint(1, 4) if not self.explore else rng.choice(
                [1, 2, 4, 64])
            el.outputs.append(Port("o", "pkt", size))
        else:
            el.outputs.append(Port("o"))
            for k in range(n - 1):
                el.outputs.append(Port("o%d" % (k + 2)))
        if rng.random() < 0.12 and shape != "source":
            el.outputs.append(Port("v", rng.choice(
                ["u32", self.ex.any_int_type()])))

    def state(self, el, scope):
        rng = self.rng
        lines = []
        if el.is_source:
            el.counter = self.names.fresh("sent")
            lines.append("%s: u32;" % el.counter)
            el.scalars.append(Var(el.counter, "u32", False, "state"))
        for _ in range(rng.randint(0, 4)):
            kind = rng.choices(["scalar", "array", "struct", "table",
                                "queue", "merged"], [6, 3, 1, 2, 1, 2])[0]
            name = self.names.fresh("s")
            if kind == "scalar":
                r = rng.random()
                t = "bool" if r < 0.1 else "prefix" if r < 0.18 else \
                    self.ex.any_int_type()
                init = " = %s" % (L.prefix(rng) if t == "prefix" else
                                  L.literal(rng, t)) \
                    if rng.random() < 0.5 else ""
                lines.append("%s: %s%s;" % (name, t, init))
                el.scalars.append(scope.add(Var(name, t, True, "state")))
            elif kind == "merged":
                op = rng.choice(MERGE_OPS)
                t = self.ex.any_int_type() if op != "or" or \
                    rng.random() < 0.8 else "bool"
                if rng.random() < 0.5:
                    n = rng.randint(1, 16)
                    lines.append("%s: [%s; %d] merge %s;" % (name, t, n, op))
                    el.arrays.append(Array(name, t, n, True, "state", op))
                else:
                    lines.append("%s: %s merge %s;" % (name, t, op))
                    v = Var(name, t, True, "state", op)
                    el.scalars.append(v)
                    self.note("state merged")
            elif kind == "array":
                t = "bool" if rng.random() < 0.1 else self.ex.any_int_type()
                n = rng.choice([1, 2, 4, 7, 16, 64, 256])
                lines.append("%s: [%s; %d];" % (name, t, n))
                el.arrays.append(Array(name, t, n, True, "state"))
            elif kind == "struct" and self.prog.structs:
                s = rng.choice(self.prog.structs)
                lines.append("%s: %s;" % (name, s.name))
                for f, t in s.fields:
                    el.scalars.append(scope.add(
                        Var("%s.%s" % (name, f), t, True, "state")))
                self.note("state struct")
            elif kind == "table":
                lines.append(self.table(el, name))
            elif kind == "queue":
                cap = rng.choice([1, 2, 4, 64])
                lines.append("%s: queue<pkt, %d>;" % (name, cap))
                el.queues.append(name)
        return lines

    def table(self, el, name):
        rng = self.rng
        v = self.ex.any_int_type()
        cap = rng.choice([1, 4, 16, 1024])
        if rng.random() < 0.5:
            k = self.ex.any_int_type()
            el.tables.append(Table(name, "hash", k, v, cap))
            self.note("table hash")
            return "%s: hash<%s, %s, %d>;" % (name, k, v, cap)
        el.tables.append(Table(name, "lpm", "u32", v, cap))
        self.note("table lpm")
        return "%s: lpm<%s, %d>;" % (name, v, cap)

    def shared(self, el, scope):
        if self.rng.random() > 0.15:
            return []
        name = self.names.fresh("sh")
        t = self.ex.any_int_type()
        el.scalars.append(scope.add(Var(name, t, True, "shared")))
        self.note("state shared")
        return ["%s: %s = %s;" % (name, t, L.literal(self.rng, t))]

    # -- bodies ------------------------------------------------------------
    def init(self, el, ctx):
        body = Body("init", el, budget=6)
        lines = self.st.block(ctx, body, self.rng.randint(0, 3))
        for t in el.tables:
            if self.rng.random() < 0.5:
                lines += self.st.s_table(ctx, body)
        if el.tables and self.rng.random() < 0.5:
            el.load_param = "load"
            lines.append('load("%s.routes", wload);' % el.name)
            self.note("builtin load")
        self.note("init")
        return self.indent(self.st.braced("init", lines))

    def handler(self, el, ctx, shape):
        rng = self.rng
        st = self.st
        p = "p"
        budget = rng.randint(3, 14) if not self.explore else 40
        if shape == "source":
            n = el.counter
            limit = rng.randint(0, 12)
            size = rng.choice([14, 60, 64, 128, 1514, 9000])
            body = Body("handler", el, ["r"], budget)
            inner = Ctx(self.prog, ctx.scope.child(), el, ["r"])
            lines = ["if %s >= %d {" % (n, limit), "  finish();", "}",
                     "%s += 1;" % n, "let r = new_pkt(%d);" % size,
                     "r[12] = 0x08;", "r[23] = (%s as u8);" % n]
            lines += st.block(inner, body)
            lines += st.dispose(inner, body, "r")
            self.note("builtin finish")
            return st.braced("handler", lines)
        inner = Ctx(self.prog, ctx.scope.child(), el, [p])
        body = Body("handler", el, [p], budget)
        if shape == "select":
            j = el.inputs[1]
            if j.type == "pkt":
                body2 = Body("handler", el, ["q"], budget // 2)
                inner2 = Ctx(self.prog, ctx.scope.child(), el, ["q"])
                case2 = st.block(inner2, body2) + st.dispose(inner2, body2,
                                                             "q")
                head2 = "case q = recv(j)"
            else:
                inner2 = Ctx(self.prog, ctx.scope.child(), el, [])
                inner2.scope.add(Var("x", j.type, False, "local"))
                body2 = Body("handler", el, [], budget // 2)
                case2 = st.block(inner2, body2)
                head2 = "case x = recv(j)"
            case1 = st.block(inner, body) + st.dispose(inner, body, p)
            self.note("stmt select")
            return st.braced("handler", st.braced("select", st.braced(
                "case p = recv(i)", case1) + st.braced(head2, case2)))
        if shape == "merge" and rng.random() < 0.4:
            cases = []
            for k in range(el.inputs[0].size):
                q = "p%d" % k
                bk = Body("handler", el, [q], budget // 2)
                ck = Ctx(self.prog, ctx.scope.child(), el, [q])
                cases += st.braced("case %s = recv(i[%d])" % (q, k),
                                   st.block(ck, bk) + st.dispose(ck, bk, q))
            self.note("stmt select port array")
            return st.braced("handler", st.braced("select", cases))
        if shape == "merge":
            head = "let p = recv_any(i);"
            self.note("builtin recv_any")
        else:
            head = "let p = recv(i);"
            self.note("builtin recv")
        lines = [head]
        if shape == "poll":
            self.note("builtin try_recv")
            b2 = Body("handler", el, [p, "q"], budget // 2)
            in2 = Ctx(self.prog, ctx.scope.child(), el, [p, "q"])
            poll = st.braced("if let q = try_recv(j)",
                             st.block(in2, b2) + st.dispose(in2, b2, "q"))
            if rng.random() < 0.5:
                poll[-1] = "} else {"
                poll += ["  " + l for l in st.block(inner, body.nested())]
                poll += ["}"]
            lines += poll
        lines += st.block(inner, body, rng.randint(1, 6))
        lines += st.dispose(inner, body, p)
        return st.braced("handler", lines)

    def signal(self, el, ctx):
        t = self.ex.any_int_type()
        el.signal = t
        inner = ctx.with_scope(ctx.scope.child())
        inner.scope.add(Var("sv", t, False, "local"))
        body = Body("signal", el, budget=4)
        self.note("signal")
        return self.st.braced("signal (sv: %s)" % t,
                              self.st.block(inner, body, self.rng.randint(1, 3)))

    def timer(self, el, ctx):
        period = self.rng.choice(DURATIONS + (SHORT_DURATIONS if self.explore
                                              else []))
        body = Body("timer", el, budget=5)
        self.note("timer")
        return self.st.braced("timer every %s" % period,
                              self.st.block(ctx, body, self.rng.randint(1, 3)))

    def handlers(self, el, ctx):
        rng = self.rng
        lines = []
        for v in el.scalars:
            if rng.random() < 0.8:
                name = self.names.fresh("r")
                lines += ["read %s -> %s { return %s; }" % (name, v.type,
                                                             v.name)]
                el.reads.append(name)
        for a in el.arrays:
            name = self.names.fresh("r")
            acc = "(%s[k] as u64)" % a.name if a.elem != "bool" else \
                "(%s[k] ? 1 : 0)" % a.name
            lines += self.st.braced("read %s -> u64" % name, [
                "var acc: u64 = 0;",
                "for k in 0..%d { acc = acc * 31 + %s; }" % (a.size, acc),
                "return acc;"])
            el.reads.append(name)
        for t in el.tables:
            name = self.names.fresh("r")
            lines.append("read %s -> u32 { return len(%s); }" % (name, t.name))
            el.reads.append(name)
        for q in el.queues:
            name = self.names.fresh("r")
            lines.append("read %s -> u32 { return len(%s); }" % (name, q))
            el.reads.append(name)
        if el.load_param:
            t = el.tables[0]
            keyp = "prefix" if t.kind == "lpm" else t.key
            el.write = ("wload", [keyp, t.value])
            lines += self.st.braced(
                "write wload(k: %s, val: %s = %s)" % (
                    keyp, t.value, L.literal(rng, t.value)),
                ["insert(%s, k, val);" % t.name])
            self.note("write handler load")
        elif rng.random() < 0.2:
            vs = [v for v in el.scalars if v.merge is None and v.mutable]
            if vs:
                v = rng.choice(vs)
                lines += ["write w%s(val: %s) { %s = val; }" % (
                    el.name, v.type, v.name)]
                self.note("write handler")
        return lines
