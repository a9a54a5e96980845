"""The reducer's syntax tree of an NPL program.

One generic node class rather than a class per construct: the reducer's
transformations walk every node, list and expression the same way (remove
items of a list, replace a node), and a node needs only its kind and its
fields. `LISTS` names the lists whose items a transformation may remove;
`EXPR_KINDS` the kinds that are expressions.
"""

import copy


class Node:
    """A node: `kind` and named fields. A field holds a string, None, a
    Node, or a list of Nodes."""

    def __init__(self, kind, **fields):
        self.kind = kind
        self.__dict__.update(fields)

    def fields(self):
        """The (name, value) pairs of the fields, in a stable order."""
        return [(k, v) for k, v in self.__dict__.items() if k != "kind"]

    def __repr__(self):
        inner = ", ".join(f"{k}={v!r}" for k, v in self.fields())
        return f"{self.kind}({inner})"


EXPR_KINDS = frozenset(["lit", "name", "call", "hview", "field", "index",
                        "unary", "cast", "binary", "cond", "paren",
                        "array"])

# (node kind, list field): lists whose items may be removed.
LISTS = frozenset([
    ("file", "decls"), ("element", "items"), ("element", "params"),
    ("state", "vars"), ("graph", "items"), ("graph", "params"),
    ("block", "stmts"), ("conn", "attrs"), ("select", "cases"),
    ("write", "params"), ("instance", "args"), ("struct", "members"),
    ("array", "elems"),
])


def children(node):
    """The (field, index, child) triples of `node`; index is None for a
    field that holds one node."""
    for name, value in node.fields():
        if isinstance(value, Node):
            yield name, None, value
        elif isinstance(value, list):
            for k, item in enumerate(value):
                if isinstance(item, Node):
                    yield name, k, item


def walk(node, path=()):
    """Every node under `node` in pre-order, with its path: a tuple of
    (field, index) steps from `node`."""
    yield path, node
    for name, index, child in children(node):
        yield from walk(child, path + ((name, index),))


def at(root, path):
    """The node `path` leads to from `root`."""
    node = root
    for name, index in path:
        node = getattr(node, name)
        if index is not None:
            node = node[index]
    return node


def replaced(root, path, new):
    """A copy of `root` with the node at `path` replaced by `new` (a Node,
    or a list of Nodes spliced in place of a list item)."""
    root = copy.deepcopy(root)
    parent = at(root, path[:-1])
    name, index = path[-1]
    if index is None:
        setattr(parent, name, new)
    elif isinstance(new, list):
        getattr(parent, name)[index:index + 1] = new
    else:
        getattr(parent, name)[index] = new
    return root


def without(root, path, field, indices):
    """A copy of `root` without the items `indices` of list `field` of the
    node at `path`."""
    root = copy.deepcopy(root)
    items = getattr(at(root, path), field)
    drop = set(indices)
    items[:] = [x for k, x in enumerate(items) if k not in drop]
    return root


def declared_in(node):
    """Every name `node` declares (declarations, parameters, ports, state,
    locals, instances, struct fields)."""
    return {n.name for _, n in walk(node)
            if n.kind != "type" and isinstance(getattr(n, "name", None), str)}


def names_in(node):
    """Every identifier `node` mentions (names, called functions, element
    kinds of instances, endpoint names, type names)."""
    found = set()
    for _, n in walk(node):
        for name, value in n.fields():
            if isinstance(value, str) and name in ("id", "fn", "elem",
                                                   "inst", "port", "target",
                                                   "hname"):
                found.add(value)
            if n.kind == "type" and name == "name":
                found.add(value)
    return found
