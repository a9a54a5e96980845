"""Prints the reducer's tree as NPL, one statement or item a line.

The layout is fixed (two-space indentation, one declaration item or
statement a line), so the size of a reduced program in lines means
something, and parentheses are added wherever an operand binds looser than
its place needs, so a transformation that replaces an operation by one of
its operands never changes how the rest parses.
"""

# Precedence of each expression kind: 0 for `?:`, 1..9 the binary levels
# from `||` to `*`, then cast, unary, postfix and primary.
_BINARY_PREC = {}
for _level, _ops in enumerate([("||",), ("&&",),
                               ("==", "!=", "<", "<=", ">", ">="), ("|",),
                               ("^",), ("&",), ("<<", ">>"), ("+", "-"),
                               ("*", "/", "%")], start=1):
    for _op in _ops:
        _BINARY_PREC[_op] = _level
_CAST, _UNARY, _POSTFIX, _PRIMARY = 10, 11, 12, 13


def _prec(e):
    if e.kind == "cond":
        return 0
    if e.kind == "binary":
        return _BINARY_PREC[e.op]
    return {"cast": _CAST, "unary": _UNARY, "field": _POSTFIX,
            "index": _POSTFIX}.get(e.kind, _PRIMARY)


def expr(e, need=0):
    """The text of expression `e`, parenthesised if it binds looser than
    `need`."""
    text = _expr(e)
    return f"({text})" if _prec(e) < need else text


def _expr(e):
    k = e.kind
    if k == "lit":
        return e.text
    if k == "name":
        return e.id
    if k == "call":
        return f"{e.fn}({_args(e.args)})"
    if k == "hview":
        return f"header<{e.hname}>({_args(e.args)})"
    if k == "field":
        return f"{expr(e.expr, _POSTFIX)}.{e.fname}"
    if k == "index":
        return f"{expr(e.expr, _POSTFIX)}[{expr(e.idx)}]"
    if k == "unary":
        return f"{e.op}{expr(e.expr, _UNARY)}"
    if k == "cast":
        return f"{expr(e.expr, _CAST)} as {type_(e.type)}"
    if k == "binary":
        p = _BINARY_PREC[e.op]
        return f"{expr(e.lhs, p)} {e.op} {expr(e.rhs, p + 1)}"
    if k == "cond":
        return f"{expr(e.cond, 1)} ? {expr(e.a)} : {expr(e.b)}"
    if k == "paren":
        return f"({expr(e.expr)})"
    if k == "array":
        return f"[{_args(e.elems)}]"
    raise ValueError(f"not an expression: {k}")


def _args(args):
    return ", ".join(expr(a) for a in args)


def type_(t):
    """The text of a type."""
    if t.kind == "type":
        return t.name
    if t.kind == "atype":
        return f"[{type_(t.elem)}; {expr(t.size)}]"
    if t.kind == "utype":
        return f"[{type_(t.elem)}]"
    inner = ", ".join(type_(a) for a in t.args)
    return f"{t.name}<{inner}, {expr(t.size, 4)}>"


class Printer:
    """Collects the lines of a program."""

    def __init__(self):
        self.lines = []

    def line(self, depth, text):
        self.lines.append("  " * depth + text)

    def file(self, root):
        for k, decl in enumerate(root.decls):
            if k and (decl.kind not in ("import", "const", "raw")
                      or root.decls[k - 1].kind not in ("import", "const",
                                                        "raw")):
                self.lines.append("")
            self.decl(decl)
        return "\n".join(self.lines) + "\n"

    def decl(self, d):
        k = d.kind
        if k == "import":
            names = " " + d.names if d.names else ""
            self.line(0, f"import {d.path}{names};")
        elif k == "const":
            self.line(0, f"const {d.name}: {type_(d.type)} = "
                         f"{expr(d.expr)};")
        elif k == "raw":
            self.line(0, d.text)
        elif k == "struct":
            fields = " ".join(_field(f) + ";" for f in d.members)
            self.line(0, f"struct {d.name} {{ {fields} }}")
        elif k == "element":
            self.line(0, f"element {d.name}({_params(d.params)}) {{")
            for item in d.items:
                self.item(1, item)
            self.line(0, "}")
        elif k == "graph":
            self.line(0, f"graph {d.name}({_params(d.params)}) {{")
            for item in d.items:
                self.graph_item(1, item)
            self.line(0, "}")
        elif k in ("fn", "match"):
            ret = f" -> {type_(d.ret)}" if d.ret is not None else ""
            self.block(0, f"{k} {d.name}({_params(d.params)}){ret} ",
                       d.block)

    def item(self, depth, it):
        k = it.kind
        if k == "port":
            self.line(depth, _port(it))
        elif k == "state":
            self.line(depth, f"{it.kw} {{")
            for v in it.vars:
                init = f" = {expr(v.init)}" if v.init is not None else ""
                merge = f" merge {v.merge}" if v.merge else ""
                self.line(depth + 1, f"{v.name}: {type_(v.type)}{init}"
                                     f"{merge};")
            self.line(depth, "}")
        elif k in ("init", "handler"):
            self.block(depth, k + " ", it.block)
        elif k == "signal":
            self.block(depth, f"signal ({it.name}: {type_(it.type)}) ",
                       it.block)
        elif k == "timer":
            self.block(depth, f"timer every {expr(it.period)} ", it.block)
        elif k == "read":
            self.block(depth, f"read {it.name} -> {type_(it.type)} ",
                       it.block)
        elif k == "write":
            self.block(depth, f"write {it.name}({_params(it.params)}) ",
                       it.block)

    def graph_item(self, depth, it):
        if it.kind == "port":
            self.line(depth, _port(it))
        elif it.kind == "instance":
            at = f" @{it.placement}" if it.placement else ""
            self.line(depth, f"{it.name} = {it.elem}({_args(it.args)}){at};")
        else:
            self.line(depth, connection(it))

    def block(self, depth, head, b, tail=""):
        """`head {`, the statements of block `b`, then `}` + tail."""
        self.line(depth, head + "{")
        for s in b.stmts:
            self.stmt(depth + 1, s)
        self.line(depth, "}" + tail)

    def stmt(self, depth, s):
        k = s.kind
        if k == "block":
            self.block(depth, "", s)
        elif k in ("let", "var"):
            ty = f": {type_(s.type)}" if s.type is not None else ""
            init = f" = {expr(s.expr)}" if s.expr is not None else ""
            self.line(depth, f"{k} {s.name}{ty}{init};")
        elif k in ("if", "iflet"):
            self.if_chain(depth, "", s)
        elif k == "for":
            self.block(depth, f"for {s.name} in {expr(s.lo)}..{expr(s.hi)} ",
                       s.body)
        elif k == "unroll":
            self.block(depth, f"unroll {s.name} in {expr(s.lo)}.."
                              f"{expr(s.hi)} bound {expr(s.bound)} ", s.body)
        elif k == "while":
            self.block(depth, f"while {expr(s.cond)} bound {expr(s.bound)} ",
                       s.body)
        elif k == "select":
            self.line(depth, "select {")
            for c in s.cases:
                idx = f"[{expr(c.index)}]" if c.index is not None else ""
                self.block(depth + 1, f"case {c.name} = recv({c.port}{idx}) ",
                           c.body)
            self.line(depth, "}")
        elif k == "return":
            value = f" {expr(s.expr)}" if s.expr is not None else ""
            self.line(depth, f"return{value};")
        elif k in ("break", "continue", "fail"):
            self.line(depth, k + ";")
        elif k == "assign":
            self.line(depth, f"{expr(s.lhs)} {s.op} {expr(s.rhs)};")
        else:
            self.line(depth, f"{expr(s.expr)};")

    def if_chain(self, depth, prefix, s):
        if s.kind == "iflet":
            head = f"{prefix}if let {s.name} = {expr(s.expr)} "
        else:
            head = f"{prefix}if {expr(s.cond)} "
        self.line(depth, head + "{")
        for st in s.then.stmts:
            self.stmt(depth + 1, st)
        if s.els is None:
            self.line(depth, "}")
        elif s.els.kind == "block":
            self.block(depth, "} else ", s.els)
        else:
            self.if_chain(depth, "} else ", s.els)


def _field(f):
    default = f" = {expr(f.default)}" if f.default is not None else ""
    return f"{f.name}: {type_(f.type)}{default}"


def _params(params):
    out = []
    for p in params:
        default = f" = {expr(p.default)}" if p.default is not None else ""
        out.append(f"{p.name}: {type_(p.type)}{p.variadic}{default}")
    return ", ".join(out)


def _port(p):
    size = f"[{expr(p.size)}]" if p.size is not None else ""
    return f"{p.dir} {p.name}{size}: {type_(p.type)};"


def endpoint(e):
    """The text of a connection endpoint."""
    port = f".{e.port}" if e.port else ""
    idx = f"[{expr(e.index)}]" if e.index is not None else ""
    return f"{e.inst}{port}{idx}"


def connection(c):
    """The text of a connection statement."""
    text = endpoint(c.ends[0])
    for op, end in zip(c.ops, c.ends[1:]):
        text += f" {op} {endpoint(end)}"
    if c.attrs:
        text += " [" + ", ".join(f"{a.name} = {expr(a.expr)}"
                                 for a in c.attrs) + "]"
    return text + ";"


def program(root):
    """The NPL text of the tree `root`."""
    return Printer().file(root)
