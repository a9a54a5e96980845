"""The reducer's transformations: candidate programs one step smaller.

Each generator takes the current tree and yields candidate trees; the
engine keeps the first one the interestingness test accepts. None of them
checks types: a candidate that no longer compiles is rejected by the
test's cheap first step (`npcc --target=mlir`), which is what keeps the
result well typed.
"""

import copy

from .tree import (EXPR_KINDS, LISTS, Node, at, names_in, replaced, walk,
                   without)


def list_sites(root):
    """The (path, field) of every removable list, empty or not, in
    pre-order: a removal in one moves only the sites after it."""
    sites = []
    for path, node in walk(root):
        for name, value in node.fields():
            if isinstance(value, list) and (node.kind, name) in LISTS:
                sites.append((path, name))
    return sites


# Graph instances.

def _split(conn, name):
    """The pieces of connection `conn` around the endpoints of instance
    `name`: (pieces that flow into it, pieces that flow out of it), each a
    connection node, maybe of one endpoint."""
    into, out_of = [], []
    ends, ops = conn.ends, conn.ops
    marks = [k for k, e in enumerate(ends) if e.inst == name]
    bounds = [-1] + marks + [len(ends)]
    for b0, b1 in zip(bounds, bounds[1:]):
        if b1 - b0 < 2:
            continue
        piece = Node("conn", ends=ends[b0 + 1:b1], ops=ops[b0 + 1:b1 - 1],
                     attrs=conn.attrs)
        if b1 < len(ends):
            into.append(piece)
        if b0 >= 0:
            out_of.append(piece)
    return into, out_of


def _reconnected(graph, name, keep=0):
    """`graph` without instance `name`: each connection into it joined to
    one out of it, in order from its `keep`th output (`a -> x -> b`
    becomes `a -> b`); unmatched pieces lose their link to it, and an
    instance left with no connection at all goes too."""
    items, into, out_of = [], [], []
    linked = {e.inst for c in graph.items if c.kind == "conn"
              for e in c.ends}
    for item in graph.items:
        if item.kind == "instance" and item.name == name:
            continue
        if item.kind != "conn" or not any(e.inst == name for e in item.ends):
            items.append(item)
            continue
        i, o = _split(item, name)
        into += i
        out_of += o
    out_of = out_of[keep:] + out_of[:keep]
    for k in range(max(len(into), len(out_of))):
        a = into[k] if k < len(into) else None
        b = out_of[k] if k < len(out_of) else None
        for piece in (a, b):
            if piece is not None and len(piece.ends) > 1:
                items.append(copy.deepcopy(piece))
        if a is not None and b is not None:
            items.append(Node("conn", ends=copy.deepcopy([a.ends[-1],
                                                          b.ends[0]]),
                              ops=["->"], attrs=copy.deepcopy(a.attrs)))
    still = {e.inst for c in items if c.kind == "conn" for e in c.ends}
    graph.items = [i for i in items if i.kind != "instance"
                   or i.name in still or i.name not in linked]


def _outputs(graph, name):
    """How many pieces flow out of instance `name`."""
    return sum(len(_split(c, name)[1]) for c in graph.items
               if c.kind == "conn")


def _replaced_by(graph, name, elem):
    """`graph` with instance `name` made an `elem()` whose ports are named
    by the instance alone."""
    for item in graph.items:
        if item.kind == "instance" and item.name == name:
            item.elem, item.args = elem, []
        if item.kind == "conn":
            for end in item.ends:
                if end.inst == name:
                    end.port, end.index = None, None


def instance_candidates(root):
    """For each graph instance, first first: the graph without it, its
    neighbours reconnected (each of its first four outputs kept in turn);
    then the instance as a Discard; then as a Null (a pass-through)."""
    graphs = [(p, n) for p, n in walk(root) if n.kind == "graph"]
    for path, graph in graphs:
        names = [i.name for i in graph.items if i.kind == "instance"]
        for name in names:
            changes = [lambda g, n, k=k: _reconnected(g, n, k)
                       for k in range(max(1, min(4, _outputs(graph, name))))]
            changes += [lambda g, n: _replaced_by(g, n, "Discard"),
                        lambda g, n: _replaced_by(g, n, "Null")]
            for change in changes:
                cand = copy.deepcopy(root)
                change(at(cand, path), name)
                yield f"instance {name}", cand


# Statements.

def _unwrapped(stmt):
    """Statement lists that may replace `stmt`: the branches of an `if`,
    the body of a loop (its variable bound to the lower bound), a case of
    a `select` (its packet received by a `let`), a block's contents."""
    k = stmt.kind
    if k == "block":
        yield stmt.stmts
    elif k in ("if", "iflet"):
        if k == "if":
            yield stmt.then.stmts
        if stmt.els is not None:
            yield stmt.els.stmts if stmt.els.kind == "block" else [stmt.els]
    elif k in ("for", "unroll"):
        yield [Node("let", name=stmt.name, type=None,
                    expr=stmt.lo)] + stmt.body.stmts
    elif k == "while":
        yield stmt.body.stmts
    elif k == "select":
        for case in stmt.cases:
            recv = Node("call", fn="recv", args=[Node("name", id=case.port)])
            if case.index is not None:
                recv.args = [Node("index", expr=Node("name", id=case.port),
                                  idx=case.index)]
            yield [Node("let", name=case.name, type=None,
                        expr=recv)] + case.body.stmts


def unwrap_candidates(root, path, node):
    """A statement of a block replaced by the statements inside it."""
    if not path or path[-1][0] != "stmts":
        return
    for stmts in _unwrapped(node):
        yield replaced(root, path, copy.deepcopy(list(stmts)))


def dependent_candidates(root, path, node):
    """A `let` or `var` removed together with the later statements of its
    block that use its name (`let q = clone(p); ... send(c, q);`), which
    no removal of one statement at a time reaches."""
    if not path or path[-1][0] != "stmts" or node.kind not in ("let", "var"):
        return
    k = path[-1][1]
    stmts = at(root, path[:-1]).stmts
    users = [j for j in range(k + 1, len(stmts))
             if node.name in names_in(stmts[j])]
    if users:
        yield without(root, path[:-1], "stmts", [k] + users)


def block_candidates(root, path, node):
    """The statement-level changes: unwrapping, then dependents."""
    yield from unwrap_candidates(root, path, node)
    yield from dependent_candidates(root, path, node)


# Expressions.

def _literal_shrinks(text):
    """Smaller literals for integer literal `text`: 0, 1 and half."""
    try:
        value = int(text.replace("_", ""), 0)
    except ValueError:
        return []
    out = [v for v in (0, 1, value // 2) if v < value]
    return [str(v) for v in dict.fromkeys(out)]


def _operands(e):
    k = e.kind
    if k == "binary":
        return [e.lhs, e.rhs]
    if k in ("unary", "cast", "paren"):
        return [e.expr]
    if k == "cond":
        return [e.a, e.b]
    if k == "call":
        return list(e.args)
    return []


def expr_candidates(root, path, node):
    """An expression replaced by one of its operands, by 0 or `false`; an
    integer literal by a smaller one."""
    if node.kind not in EXPR_KINDS or not path or path[-1][0] == "lhs":
        return
    if node.kind == "lit":
        for text in _literal_shrinks(node.text):
            yield replaced(root, path, Node("lit", text=text))
        return
    for operand in _operands(node):
        yield replaced(root, path, copy.deepcopy(operand))
    if node.kind == "call" and node.fn in ("recv", "new_pkt", "clone"):
        return
    yield replaced(root, path, Node("lit", text="false" if _is_bool(node)
                                    else "0"))


def _is_bool(e):
    """Whether `e` is a condition (a comparison, `&&`, `||`, `!`)."""
    if e.kind == "paren":
        return _is_bool(e.expr)
    return (e.kind == "binary" and e.op in ("==", "!=", "<", "<=", ">", ">=",
                                            "&&", "||")
            or e.kind == "unary" and e.op == "!")
