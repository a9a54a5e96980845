"""Statements of element bodies and functions.

Packet ownership is kept right by construction: a block never consumes a
packet bound outside it, except on a path that leaves the handler
(`send(o, p); return;`); a packet a block binds (a clone, a new packet, a
dequeued one) is consumed before the block ends. `Body` carries what the
enclosing code allows: sending, returning, breaking, the owned packets."""
from . import types as T
from .expr import Ctx
from .scope import Var

ASSIGN_OPS = ["=", "+=", "-=", "*=", "&=", "|=", "^=", "<<=", ">>="]
MERGE_UPDATE = {"sum": "+=", "or": "|=", "max": "max", "min": "min"}
STRINGS = ["", "a", "npsmith", "\\\\", "0123456789abcdef" * 2,
           "\\n\\t\\\"quoted\\\""]


class Body:
    """The kind of body being written and what it may do."""

    def __init__(self, kind, element=None, owned=(), budget=12):
        self.kind = kind  # handler, timer, init, signal, rw, fn
        self.element = element
        self.owned = list(owned)
        self.loops = 0
        # Packets owned when the innermost loop began: one bound since
        # must be consumed before a `break` or `continue`.
        self.loop_floor = 0
        self.budget = budget
        self.depth = 0

    def nested(self, loop=False):
        b = Body(self.kind, self.element, self.owned, self.budget)
        b.depth = self.depth + 1
        b.loops = self.loops + (1 if loop else 0)
        b.loop_floor = len(self.owned) if loop else self.loop_floor
        b.parent = self
        return b

    def spend(self):
        """Budget is shared by a body and the blocks nested in it."""
        b = self
        while b is not None:
            b.budget -= 1
            b = getattr(b, "parent", None)

    @property
    def may_send(self):
        return self.kind in ("handler", "timer")

    @property
    def may_make_packets(self):
        return self.kind in ("handler", "timer")


class StmtGen:
    def __init__(self, rng, exprs, names):
        self.rng = rng
        self.ex = exprs
        self.names = names

    def note(self, what):
        self.ex.note(what)

    # -- blocks ------------------------------------------------------------
    def block(self, ctx, body, n=None):
        """Lines of a block's statements (without braces)."""
        rng = self.rng
        ctx = ctx.with_scope(ctx.scope.child())
        lines = []
        count = n if n is not None else rng.randint(0, 4)
        for _ in range(count):
            if body.budget <= 0:
                break
            body.spend()
            lines += self.stmt(ctx, body)
        return lines

    def braced(self, head, lines, tail="}"):
        return [head + " {"] + ["  " + l for l in lines] + [tail]

    def stmt(self, ctx, body):
        rng = self.rng
        el = body.element
        opts = {"let": 6, "var": 4, "assign": 8, "if": 5}
        if body.depth < 3:
            opts["loop"] = 3
        if ctx.pkts:
            opts["pktwrite"] = 7
            opts["pktop"] = 4 if body.kind != "fn" else 1
        if body.kind != "fn" and el is not None:
            opts["state"] = 8
            if el.arrays:
                opts["array"] = 4
            if el.tables:
                opts["table"] = 3
            if el.int_outputs and body.may_send:
                opts["sendint"] = 2
            if el.queues and body.may_send and ctx.pkts:
                opts["queue"] = 2
            # Often enough that a few hundred programs print packets
            # (np.print_pkt) as well as values.
            if rng.random() < 0.3:
                opts["print"] = 1
        if body.may_make_packets and ctx.pkts and body.depth < 3:
            opts["clone"] = 3
        if body.may_make_packets and body.depth < 3:
            opts["newpkt"] = 1
        if body.kind == "handler" and body.owned and rng.random() < 0.3:
            opts["return"] = 1
        if body.loops and len(body.owned) == body.loop_floor and \
                rng.random() < 0.4:
            opts["breakcont"] = 2
        if any(f.result is None for f in ctx.prog.fns) and ctx.pkts:
            opts["callstmt"] = 2
        if body.depth < 2:
            opts["blockstmt"] = 1
        kind = rng.choices(list(opts), list(opts.values()))[0]
        return getattr(self, "s_" + kind)(ctx, body)

    # -- locals --------------------------------------------------------------
    def s_let(self, ctx, body):
        t = self.local_type()
        name = self.names.fresh("x")
        e = self.value(ctx, t)
        ctx.scope.add(Var(name, t, False, "local"))
        self.note("stmt let")
        # An integer `let` names its type: a literal alone would be a u32.
        if t == "bool" and self.rng.random() < 0.5:
            return ["let %s = %s;" % (name, e)]
        return ["let %s: %s = %s;" % (name, t, e)]

    def s_var(self, ctx, body):
        t = self.local_type()
        name = self.names.fresh("v")
        e = self.value(ctx, t)
        ctx.scope.add(Var(name, t, True, "local"))
        self.note("stmt var")
        return ["var %s: %s = %s;" % (name, t, e)]

    def local_type(self):
        return "bool" if self.rng.random() < 0.12 else self.ex.any_int_type()

    def value(self, ctx, t, depth=3):
        if t == "bool":
            return self.ex.bool_expr(ctx, 2)
        return self.ex.int_expr(ctx, t, depth)

    def s_assign(self, ctx, body):
        vs = [v for v in ctx.scope.all_vars() if v.mutable and v.merge is None
              and (v.kind == "local" or body.kind != "fn")]
        if not vs:
            return self.s_var(ctx, body)
        v = self.rng.choice(vs)
        return [self.assign(ctx, v.name, v.type)]

    def assign(self, ctx, target, t):
        if t == "prefix":
            self.note("stmt assign prefix")
            return "%s = %s;" % (target, self.ex.prefix_expr(ctx, 2))
        if t == "bool":
            self.note("stmt assign")
            return "%s = %s;" % (target, self.ex.bool_expr(ctx, 2))
        op = self.rng.choice(ASSIGN_OPS)
        self.note("assign " + op)
        if op in ("<<=", ">>="):
            if self.rng.random() < 0.5:
                return "%s %s %d;" % (target, op, self.rng.randint(
                    0, max(0, min(T.width(t) + 2, T.hi(t)))))
            st = "u" + str(self.rng.randint(1, 64))
            return "%s %s %s;" % (target, op, self.ex.nonliteral(ctx, st, 1))
        return "%s %s %s;" % (target, op, self.ex.int_expr(ctx, t, 3))

    # -- state -------------------------------------------------------------
    def s_state(self, ctx, body):
        el = body.element
        vs = [v for v in el.scalars if v.mutable]
        if not vs:
            return self.s_assign(ctx, body)
        v = self.rng.choice(vs)
        if v.merge:
            return [self.merge_update(ctx, v.name, v.type, v.merge)]
        self.note("state " + v.kind)
        return [self.assign(ctx, v.name, v.type)]

    def merge_update(self, ctx, target, t, op):
        self.note("merge " + op)
        how = MERGE_UPDATE[op]
        if t == "bool":
            return "%s = %s || %s;" % (target, target,
                                       self.ex.bool_expr(ctx, 1)) \
                if op == "or" else "%s = %s;" % (
                    target, "%s(%s, %s)" % (how, target, "true"))
        e = self.ex.int_expr(ctx, t, 2)
        if how in ("max", "min"):
            return "%s = %s(%s, %s);" % (target, how, target, e)
        return "%s %s %s;" % (target, how, e)

    def s_array(self, ctx, body):
        a = self.rng.choice(body.element.arrays)
        idx = self.ex.index(ctx, a.size)
        target = "%s[%s]" % (a.name, idx)
        if a.merge:
            if a.elem == "bool":
                return ["%s = true;" % target] if a.merge == "or" else []
            return [self.merge_update(ctx, target, a.elem, a.merge)]
        self.note("array write")
        return [self.assign(ctx, target, a.elem)]

    # -- control flow ----------------------------------------------------------
    def s_if(self, ctx, body):
        self.note("stmt if")
        lines = self.braced("if %s" % self.ex.bool_expr(ctx, 2),
                            self.block(ctx, body.nested()))
        r = self.rng.random()
        if r < 0.3:
            self.note("stmt else if")
            lines[-1] = "} else if %s {" % self.ex.bool_expr(ctx, 2)
            lines += ["  " + l for l in self.block(ctx, body.nested())] + ["}"]
        if r < 0.6:
            self.note("stmt else")
            lines[-1] = "} else {"
            lines += ["  " + l for l in self.block(ctx, body.nested())] + ["}"]
        return lines

    def s_loop(self, ctx, body):
        rng = self.rng
        inner = ctx.with_scope(ctx.scope.child())
        kind = rng.choice(["for", "unroll", "while"])
        self.note("loop " + kind)
        if kind == "while":
            v = self.names.fresh("w")
            n = rng.randint(1, 40)
            var = "var %s: u32 = 0;" % v
            inner.scope.add(Var(v, "u32", False, "loop"))
            cond = "%s < %s" % (v, rng.choice([
                str(rng.randint(0, 30)), "len(%s)" % ctx.pkts[0]
                if ctx.pkts else "7"]))
            if rng.random() < 0.4:
                cond = "(%s) && %s" % (cond, self.ex.bool_expr(inner, 1))
            lines = self.block(inner, body.nested(loop=True))
            # The counter moves first so a `continue` cannot skip it.
            return [var] + self.braced("while %s bound %d" % (cond, n),
                                       ["%s += 1;" % v] + lines)
        k = self.names.fresh("k")
        inner.scope.add(Var(k, "u32", False, "loop"))
        lines = self.block(inner, body.nested(loop=True))
        if kind == "for":
            a = rng.randint(0, 3)
            b = a + rng.choice([0, 1, 2, 5, 17, 64])
            return self.braced("for %s in %d..%d" % (k, a, b), lines)
        bound = rng.choice([1, 4, 8, 16])
        hi = rng.choice(["len(%s)" % ctx.pkts[0] if ctx.pkts else "9",
                         str(rng.randint(0, 20)),
                         self.ex.nonliteral(ctx, "u32", 1)])
        return self.braced("unroll %s in %d..%s bound %d" % (
            k, rng.randint(0, 2), hi, bound), lines)

    def s_breakcont(self, ctx, body):
        word = self.rng.choice(["break", "continue"])
        self.note("stmt " + word)
        return self.braced("if %s" % self.ex.bool_expr(ctx, 1),
                           ["%s;" % word])

    def s_blockstmt(self, ctx, body):
        self.note("stmt block")
        return ["{"] + ["  " + l for l in self.block(ctx, body.nested())] + \
            ["}"]

    def s_return(self, ctx, body):
        """Leave the handler early: every owned packet is consumed first."""
        lines = []
        for p in body.owned:
            lines += self.dispose(ctx, body, p)
        self.note("stmt return")
        return self.braced("if %s" % self.ex.bool_expr(ctx, 1),
                           lines + ["return;"])

    # -- packets ---------------------------------------------------------------
    def s_pktwrite(self, ctx, body):
        rng = self.rng
        p = self.ex.pkt(ctx)
        ex = self.ex
        r = rng.random()
        if r < 0.4:
            self.note("pkt byte write")
            return [self.assign(ctx, "%s[%s]" % (p, ex.offset(ctx, p)), "u8")]
        if r < 0.65 and ctx.prog.headers:
            h = rng.choice(ctx.prog.headers)
            f, w = rng.choice(h.fields)
            self.note("header write")
            view = "header<%s>(%s, %s)" % (h.name, p, ex.offset(ctx, p))
            if rng.random() < 0.3:
                name = self.names.fresh("h")
                return ["let %s = %s;" % (name, view),
                        self.assign(ctx, "%s.%s" % (name, f), "u%d" % w)]
            return [self.assign(ctx, "%s.%s" % (view, f), "u%d" % w)]
        if r < 0.85:
            m = rng.choice(["paint", "in_port", "out_port", "anno", "ts"])
            self.note("meta write " + m)
            return [self.assign(ctx, "%s.%s" % (p, m),
                                "u64" if m in ("anno", "ts") else "u32")]
        if ctx.prog.annotations:
            name, at = rng.choice(ctx.prog.annotations)
            self.note("annotation write")
            return [self.assign(ctx, "%s.%s" % (p, name), at)]
        return [self.assign(ctx, "%s.paint" % p, "u32")]

    def s_pktop(self, ctx, body):
        rng = self.rng
        ex = self.ex
        p = ex.pkt(ctx)
        op = rng.choice(["strip", "unstrip", "pull", "push", "put", "take",
                         "truncate", "pkt_copy", "pkt_write"])
        self.note("builtin " + op)
        n = rng.choice([str(rng.choice([0, 1, 4, 14, 20, 40, 100, 3000])),
                        "(%s %% 64)" % ex.nonliteral(ctx, "u32", 1)])
        if op == "truncate":
            return ["truncate(%s, %s);" % (p, rng.choice([
                n, "len(%s) - %d" % (p, rng.randint(0, 8)),
                "max(len(%s), 64)" % p]))]
        if op == "pkt_copy":
            q = ex.pkt(ctx)
            return ["pkt_copy(%s, %s, %s, %s, %s);" % (
                p, ex.offset(ctx, p), q, ex.offset(ctx, q),
                ex.length(ctx, 1))]
        if op == "pkt_write":
            s = rng.choice(STRINGS + ["str"] * 2)
            if s == "str":
                s = body.element.strparam if body.element and \
                    body.element.strparam and body.kind != "fn" else '"x"'
            else:
                s = '"%s"' % s
            return ["pkt_write(%s, %s, %s);" % (p, ex.offset(ctx, p), s)]
        call = "%s(%s, %s)" % (op, p, n)
        if rng.random() < 0.5:
            return [call + ";"]
        lines = self.braced("if %s" % call, self.block(ctx, body.nested()))
        if rng.random() < 0.4:
            lines[-1] = "} else {"
            lines += ["  " + l for l in self.block(ctx, body.nested())] + ["}"]
        return lines

    def s_clone(self, ctx, body):
        q = self.names.fresh("c")
        src = self.ex.pkt(ctx)
        self.note("builtin clone")
        return self.owned_packet(ctx, body, q, "clone(%s)" % src)

    def s_newpkt(self, ctx, body):
        q = self.names.fresh("n")
        self.note("builtin new_pkt")
        size = self.rng.choice(["0", "14", "60", "64", "1514", "9000",
                                "(%s %% 2048)" % self.ex.nonliteral(
                                    ctx, "u32", 1)])
        return self.owned_packet(ctx, body, q, "new_pkt(%s)" % size)

    def owned_packet(self, ctx, body, q, make):
        inner = Ctx(ctx.prog, ctx.scope.child(), ctx.element,
                    ctx.pkts + [q], ctx.in_fn)
        b = body.nested()
        b.owned = body.owned + [q]
        lines = ["let %s = %s;" % (q, make)]
        lines += self.block(inner, b, self.rng.randint(0, 3))
        lines += self.dispose(inner, b, q)
        return ["{"] + ["  " + l for l in lines] + ["}"]

    def dispose(self, ctx, body, q):
        """Consume packet q: a send on a packet output, or a drop."""
        el = body.element
        rng = self.rng
        if not body.may_send or not el or not el.pkt_outputs or \
                rng.random() < 0.2:
            self.note("builtin drop")
            return ["drop(%s);" % q]
        port = rng.choice(el.pkt_outputs)
        self.note("builtin send")
        if port.size is None and not port.size_fn:
            return ["send(%s, %s);" % (port.name, q)]
        # A size computed per instance is at least 1.
        size = port.size or 2
        if rng.random() < 0.75:
            return ["send(%s[%d], %s);" % (
                port.name, rng.randint(0, port.size - 1) if port.size else 0,
                q)]
        self.note("send dynamic index")
        # A packet byte keeps the index dynamic: a constant one out of
        # range is an error at compile time.
        k = "((%s[%d] as u32) + %s)" % (q, rng.randint(0, 40),
                                        self.ex.nonliteral(ctx, "u32", 1))
        if rng.random() < 0.7:
            k = "(%s %% %d)" % (k, size)
        return ["send(%s[%s], %s);" % (port.name, k, q)]

    def s_queue(self, ctx, body):
        qn = self.rng.choice(body.element.queues)
        src = self.ex.pkt(ctx)
        if self.rng.random() < 0.5:
            self.note("builtin enqueue")
            return ["enqueue(%s, clone(%s));" % (qn, src)]
        self.note("builtin dequeue")
        r = self.names.fresh("d")
        inner = Ctx(ctx.prog, ctx.scope.child(), ctx.element,
                    ctx.pkts + [r], ctx.in_fn)
        b = body.nested()
        b.owned = body.owned + [r]
        lines = self.block(inner, b, self.rng.randint(0, 2))
        lines += self.dispose(inner, b, r)
        out = self.braced("if let %s = dequeue(%s)" % (r, qn), lines)
        if self.rng.random() < 0.5:
            out[-1] = "} else {"
            out += ["  " + l for l in self.block(ctx, body.nested())] + ["}"]
        return out

    def s_sendint(self, ctx, body):
        port = self.rng.choice(body.element.int_outputs)
        self.note("send int")
        return ["send(%s, %s);" % (port.name,
                                   self.ex.int_expr(ctx, port.type, 2))]

    # -- tables ------------------------------------------------------------
    def s_table(self, ctx, body):
        rng = self.rng
        t = rng.choice(body.element.tables)
        ex = self.ex
        op = rng.choice(["insert", "insert", "remove", "lookup", "lookup",
                         "clear"])
        self.note("builtin " + op)
        if op == "clear":
            return ["clear(%s);" % t.name] if rng.random() < 0.3 else []
        key = self.table_key(ctx, t, op)
        if op == "insert":
            call = "insert(%s, %s, %s)" % (t.name, key,
                                           ex.int_expr(ctx, t.value, 2))
        elif op == "remove":
            call = "remove(%s, %s)" % (t.name, key)
        else:
            v = self.names.fresh("f")
            inner = ctx.with_scope(ctx.scope.child())
            inner.scope.add(Var(v, t.value, False, "local"))
            lines = self.braced("if let %s = lookup(%s, %s)" % (
                v, t.name, key), self.block(inner, body.nested()))
            if rng.random() < 0.25:
                self.note("stmt if let else if")
                lines[-1] = "} else if %s {" % self.ex.bool_expr(ctx, 1)
                lines += ["  " + l for l in self.block(ctx, body.nested())]
                lines += ["}"]
            if rng.random() < 0.5:
                lines[-1] = "} else {"
                lines += ["  " + l for l in self.block(ctx, body.nested())]
                lines += ["}"]
            return lines
        if rng.random() < 0.5:
            return [call + ";"]
        return self.braced("if %s" % call, self.block(ctx, body.nested()))

    def table_key(self, ctx, t, op):
        ex = self.ex
        if t.kind == "hash":
            if self.rng.random() < 0.5 and T.hi(t.key) >= 2:
                return "(%s %% %d)" % (ex.nonliteral(ctx, t.key, 1),
                                       min(16, T.hi(t.key)))
            return ex.int_expr(ctx, t.key, 2)
        if op == "lookup":
            return ex.int_expr(ctx, "u32", 2)
        # A constant length above 32 is an error; a computed one is clamped.
        n = str(self.rng.choice([0, 8, 16, 24, 32])) if \
            self.rng.random() < 0.5 else ex.nonliteral(ctx, "u8", 1)
        return "prefix(%s, %s)" % (ex.int_expr(ctx, "u32", 2), n)

    # -- calls, prints -------------------------------------------------------
    def s_callstmt(self, ctx, body):
        fns = [f for f in ctx.prog.fns if f.result is None]
        fn = self.rng.choice(fns)
        return [self.ex.call(ctx, fn, 1) + ";"]

    def s_print(self, ctx, body):
        self.note("builtin print")
        if ctx.pkts and self.rng.random() < 0.5:
            p = self.ex.pkt(ctx)
            if self.rng.random() < 0.5:
                return ["print(%s);" % p]
            return ['print(%s, "%s", %d);' % (p, self.names.fresh("lbl"),
                                              self.rng.choice([-1, 0, 8, 24]))]
        t = self.ex.any_int_type()
        return ['print("%s", %s);' % (self.names.fresh("val"),
                                      self.ex.nonliteral(ctx, t, 2))]
