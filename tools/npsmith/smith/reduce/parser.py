"""A recursive-descent parser of NPL into the reducer's tree.

It follows compiler/frontend/NPL.g4 rule for rule, so it reads any program
npcc reads (not only generated ones). Declarations the reducer never looks
inside (annotations, headers, element aliases) are kept as their tokens.
"""

from .lexer import LITERALS, tokenize
from .tree import Node


class ParseError(Exception):
    """The program does not follow the grammar."""


# Binary operators from loosest to tightest (docs/language.md's table).
_BINARY_LEVELS = [
    ("||",), ("&&",), ("==", "!=", "<", "<=", ">", ">="), ("|",), ("^",),
    ("&",), ("<<", ">>"), ("+", "-"), ("*", "/", "%"),
]
_ASSIGN_OPS = ("=", "+=", "-=", "*=", "&=", "|=", "^=", "<<=", ">>=")
# The level whose operands may not contain a comparison: the capacity in
# `queue<pkt, 64>` ends at its `>`.
_NO_COMPARE = 4


class Parser:
    """Parses one file; `parse_file()` returns its `file` node."""

    def __init__(self, text):
        self.toks = tokenize(text)
        self.pos = 0

    # Token helpers.
    def peek(self, ahead=0):
        return self.toks[min(self.pos + ahead, len(self.toks) - 1)]

    def at(self, *kinds):
        return self.peek().kind in kinds

    def take(self, kind=None):
        tok = self.peek()
        if kind is not None and tok.kind != kind:
            raise ParseError(f"line {tok.line}: expected '{kind}', found "
                             f"'{tok.text or 'end of file'}'")
        self.pos += 1
        return tok

    def accept(self, kind):
        if self.at(kind):
            return self.take()
        return None

    def ident(self):
        return self.take("ID").text

    def raw_until(self, end):
        """The text of the tokens up to and including `end` at nesting
        depth 0 (for declarations kept verbatim)."""
        words, depth = [], 0
        while True:
            tok = self.take()
            if tok.kind == "EOF":
                raise ParseError(f"line {tok.line}: unexpected end of file")
            words.append(tok.text)
            if tok.kind in ("{", "(", "["):
                depth += 1
            elif tok.kind in ("}", ")", "]"):
                depth -= 1
                if depth == 0 and tok.kind == end:
                    return " ".join(words)
            elif tok.kind == end and depth == 0:
                return " ".join(words)

    # Declarations.
    def parse_file(self):
        decls = []
        while not self.at("EOF"):
            decls.append(self.top_decl())
        return Node("file", decls=decls)

    def top_decl(self):
        tok = self.peek()
        if tok.kind == "import":
            self.take()
            path = self.take("STRING").text
            names = self.raw_until(";")
            return Node("import", path=path, names=names[:-1].strip())
        if tok.kind == "const":
            self.take()
            name = self.ident()
            self.take(":")
            ty = self.type_()
            self.take("=")
            expr = self.expr()
            self.take(";")
            return Node("const", name=name, type=ty, expr=expr)
        if tok.kind == "struct":
            self.take()
            name = self.ident()
            self.take("{")
            fields = []
            while not self.accept("}"):
                fields.append(self.field_decl())
                self.take(";")
            return Node("struct", name=name, members=fields)
        if tok.kind in ("header", "annotation"):
            name = self.peek(1).text
            return Node("raw", name=name, text=self.raw_until(
                "}" if tok.kind == "header" else ";"))
        if tok.kind == "element":
            if self.peek(2).kind == "=":
                return Node("raw", name=self.peek(1).text,
                            text=self.raw_until(";"))
            return self.element()
        if tok.kind == "graph":
            return self.graph()
        if tok.kind in ("match", "fn"):
            self.take()
            name = self.ident()
            params = self.params()
            ret = None
            if tok.kind == "fn" and self.accept("->"):
                ret = self.type_()
            return Node(tok.kind, name=name, params=params, ret=ret,
                        block=self.block())
        raise ParseError(f"line {tok.line}: expected a declaration, found "
                         f"'{tok.text or 'end of file'}'")

    def field_decl(self):
        name = self.ident()
        self.take(":")
        ty = self.type_()
        default = self.expr() if self.accept("=") else None
        return Node("sfield", name=name, type=ty, default=default)

    def params(self):
        self.take("(")
        params = []
        while not self.accept(")"):
            if params:
                self.take(",")
            name = self.ident()
            self.take(":")
            ty = self.type_()
            variadic = "..." if self.accept("...") else ""
            default = self.expr() if self.accept("=") else None
            params.append(Node("param", name=name, type=ty,
                               variadic=variadic, default=default))
        return params

    def port(self):
        direction = self.take().text
        name = self.ident()
        size = None
        if self.accept("["):
            size = self.expr()
            self.take("]")
        self.take(":")
        ty = self.type_()
        self.take(";")
        return Node("port", dir=direction, name=name, size=size, type=ty)

    def element(self):
        self.take("element")
        name = self.ident()
        params = self.params()
        self.take("{")
        items = []
        while not self.accept("}"):
            items.append(self.element_item())
        return Node("element", name=name, params=params, items=items)

    def element_item(self):
        tok = self.peek()
        kind = tok.kind
        if kind in ("in", "out"):
            return self.port()
        self.take()
        if kind in ("state", "shared"):
            self.take("{")
            svars = []
            while not self.accept("}"):
                svars.append(self.state_var())
            return Node("state", kw=kind, vars=svars)
        if kind in ("init", "handler"):
            return Node(kind, block=self.block())
        if kind == "signal":
            self.take("(")
            name = self.ident()
            self.take(":")
            ty = self.type_()
            self.take(")")
            return Node("signal", name=name, type=ty, block=self.block())
        if kind == "timer":
            self.take("every")
            period = self.expr()
            return Node("timer", period=period, block=self.block())
        if kind == "read":
            name = self.ident()
            self.take("->")
            ty = self.type_()
            return Node("read", name=name, type=ty, block=self.block())
        if kind == "write":
            name = self.ident()
            return Node("write", name=name, params=self.params(),
                        block=self.block())
        raise ParseError(f"line {tok.line}: unexpected '{tok.text}' in an "
                         f"element")

    def state_var(self):
        name = self.ident()
        self.take(":")
        if self.at("ID") and self.peek(1).kind == "<":
            gname = self.ident()
            self.take("<")
            args = [self.type_()]
            self.take(",")
            if self.at("[") or (self.at("ID") and self.peek(1).kind == ","):
                # `hash<K, V, N>`: a second type before the capacity.
                args.append(self.type_())
                self.take(",")
            size = self.expr(_NO_COMPARE)
            self.take(">")
            ty = Node("gtype", name=gname, args=args, size=size)
        else:
            ty = self.type_()
        init = self.expr() if self.accept("=") else None
        merge = None
        if self.at("ID") and self.peek().text == "merge":
            self.take()
            merge = self.ident()
        self.take(";")
        return Node("svar", name=name, type=ty, init=init, merge=merge)

    def graph(self):
        self.take("graph")
        name = self.ident()
        params = self.params()
        self.take("{")
        items = []
        while not self.accept("}"):
            if self.at("in", "out"):
                items.append(self.port())
            elif self.at("ID") and self.peek(1).kind == "=":
                items.append(self.instance())
            else:
                items.append(self.connection())
        return Node("graph", name=name, params=params, items=items)

    def instance(self):
        name = self.ident()
        self.take("=")
        elem = self.ident()
        self.take("(")
        args = self.args(")")
        placement = self.ident() if self.accept("@") else None
        self.take(";")
        return Node("instance", name=name, elem=elem, args=args,
                    placement=placement)

    def connection(self):
        ends, ops = [self.endpoint()], []
        while self.at("->", "=>"):
            ops.append(self.take().text)
            ends.append(self.endpoint())
        attrs = []
        if self.accept("["):
            while True:
                name = self.ident()
                self.take("=")
                attrs.append(Node("attr", name=name, expr=self.expr()))
                if not self.accept(","):
                    break
            self.take("]")
        self.take(";")
        return Node("conn", ends=ends, ops=ops, attrs=attrs)

    def endpoint(self):
        inst = self.ident()
        port = self.ident() if self.accept(".") else None
        index = None
        # `a -> b [depth = 0]`: an attribute list, not an index.
        if self.at("[") and not (self.peek(1).kind == "ID"
                                 and self.peek(2).kind == "="):
            self.take("[")
            index = self.expr()
            self.take("]")
        return Node("endpoint", inst=inst, port=port, index=index)

    # Types.
    def type_(self):
        if self.accept("["):
            elem = self.type_()
            if self.accept(";"):
                size = self.expr()
                self.take("]")
                return Node("atype", elem=elem, size=size)
            self.take("]")
            return Node("utype", elem=elem)
        return Node("type", name=self.ident())

    # Statements.
    def block(self):
        self.take("{")
        stmts = []
        while not self.accept("}"):
            stmts.append(self.stmt())
        return Node("block", stmts=stmts)

    def stmt(self):
        kind = self.peek().kind
        if kind == "{":
            return self.block()
        if kind in ("let", "var"):
            self.take()
            name = self.ident()
            ty = self.type_() if self.accept(":") else None
            expr = None
            if kind == "let" or self.at("="):
                self.take("=")
                expr = self.expr()
            self.take(";")
            return Node(kind, name=name, type=ty, expr=expr)
        if kind == "if":
            return self.if_stmt()
        if kind in ("for", "unroll"):
            self.take()
            name = self.ident()
            self.take("in")
            lo = self.expr()
            self.take("..")
            hi = self.expr()
            bound = None
            if kind == "unroll":
                self.take("bound")
                bound = self.expr()
            return Node(kind, name=name, lo=lo, hi=hi, bound=bound,
                        body=self.block())
        if kind == "while":
            self.take()
            cond = self.expr()
            self.take("bound")
            bound = self.expr()
            return Node("while", cond=cond, bound=bound, body=self.block())
        if kind == "select":
            self.take()
            self.take("{")
            cases = []
            while not self.accept("}"):
                self.take("case")
                name = self.ident()
                self.take("=")
                self.take("recv")
                self.take("(")
                port = self.ident()
                index = None
                if self.accept("["):
                    index = self.expr()
                    self.take("]")
                self.take(")")
                cases.append(Node("case", name=name, port=port, index=index,
                                  body=self.block()))
            return Node("select", cases=cases)
        if kind == "return":
            self.take()
            expr = None if self.at(";") else self.expr()
            self.take(";")
            return Node("return", expr=expr)
        if kind in ("break", "continue", "fail"):
            self.take()
            self.take(";")
            return Node(kind)
        expr = self.expr()
        if self.at(*_ASSIGN_OPS):
            op = self.take().text
            rhs = self.expr()
            self.take(";")
            return Node("assign", lhs=expr, op=op, rhs=rhs)
        self.take(";")
        return Node("exprstmt", expr=expr)

    def if_stmt(self):
        self.take("if")
        if self.accept("let"):
            name = self.ident()
            self.take("=")
            expr = self.expr()
            then = self.block()
            return Node("iflet", name=name, expr=expr, then=then,
                        els=self.else_part())
        cond = self.expr()
        then = self.block()
        return Node("if", cond=cond, then=then, els=self.else_part())

    def else_part(self):
        if not self.accept("else"):
            return None
        return self.if_stmt() if self.at("if") else self.block()

    # Expressions.
    def expr(self, level=0):
        if level == 0:
            cond = self.expr(1)
            if self.accept("?"):
                a = self.expr()
                self.take(":")
                b = self.expr()
                return Node("cond", cond=cond, a=a, b=b)
            return cond
        if level <= len(_BINARY_LEVELS):
            ops = _BINARY_LEVELS[level - 1]
            lhs = self.expr(level + 1)
            while self.at(*ops):
                op = self.take().text
                lhs = Node("binary", op=op, lhs=lhs, rhs=self.expr(level + 1))
            return lhs
        return self.cast()

    def cast(self):
        expr = self.unary()
        while self.accept("as"):
            expr = Node("cast", expr=expr, type=self.type_())
        return expr

    def unary(self):
        if self.at("-", "!", "~"):
            op = self.take().text
            return Node("unary", op=op, expr=self.unary())
        return self.postfix()

    def postfix(self):
        expr = self.primary()
        while True:
            if self.accept("."):
                expr = Node("field", expr=expr, fname=self.ident())
            elif self.accept("["):
                idx = self.expr()
                self.take("]")
                expr = Node("index", expr=expr, idx=idx)
            else:
                return expr

    def args(self, end):
        args = []
        while not self.accept(end):
            if args:
                self.take(",")
            args.append(self.expr())
        return args

    def primary(self):
        tok = self.peek()
        if tok.kind in LITERALS or tok.kind in ("true", "false"):
            self.take()
            return Node("lit", text=tok.text)
        if tok.kind == "header":
            self.take()
            self.take("<")
            hname = self.ident()
            self.take(">")
            self.take("(")
            return Node("hview", hname=hname, args=self.args(")"))
        if tok.kind == "recv":
            self.take()
            self.take("(")
            return Node("call", fn="recv", args=self.args(")"))
        if tok.kind == "ID":
            self.take()
            if self.accept("("):
                return Node("call", fn=tok.text, args=self.args(")"))
            return Node("name", id=tok.text)
        if self.accept("("):
            expr = self.expr()
            self.take(")")
            return Node("paren", expr=expr)
        if self.accept("["):
            return Node("array", elems=self.args("]"))
        raise ParseError(f"line {tok.line}: expected an expression, found "
                         f"'{tok.text or 'end of file'}'")


def parse(text):
    """The tree of the NPL program `text`; ParseError or LexError (both
    with a line number) when it is not NPL."""
    return Parser(text).parse_file()
