"""What a body can name at a point: variables, arrays, tables, queues,
packets, ports. The generator only writes names a scope holds, with their
types, so every program it writes is well typed by construction."""


class Var:
    """A scalar: a local (`let`/`var`), a state or shared field, a
    parameter, a constant, a loop variable. `merge` is the operator of a
    merged state field (it may only be updated with it)."""

    def __init__(self, name, type, mutable, kind, merge=None):
        self.name = name
        self.type = type
        self.mutable = mutable
        self.kind = kind
        self.merge = merge


class Array:
    def __init__(self, name, elem, size, mutable, kind, merge=None):
        self.name = name
        self.elem = elem
        self.size = size
        self.mutable = mutable
        self.kind = kind
        self.merge = merge


class Table:
    """`hash<K, V, N>` (key an integer) or `lpm<V, N>` (key a u32 address,
    inserted as a prefix)."""

    def __init__(self, name, kind, key, value, size):
        self.name = name
        self.kind = kind
        self.key = key
        self.value = value
        self.size = size


class Scope:
    """A chain of frames; packets are tracked separately since each is
    consumed exactly once on every path."""

    def __init__(self, parent=None):
        self.parent = parent
        self.vars = []

    def child(self):
        return Scope(self)

    def add(self, var):
        self.vars.append(var)
        return var

    def all_vars(self):
        s, out = self, []
        while s:
            out.extend(s.vars)
            s = s.parent
        return out

    def of_type(self, t, mutable=None):
        return [v for v in self.all_vars()
                if v.type == t and (mutable is None or v.mutable == mutable)]

    def int_vars(self):
        return [v for v in self.all_vars() if v.type not in ("bool", "prefix")]


class Names:
    """Fresh names: one counter per prefix."""

    def __init__(self):
        self.count = {}

    def fresh(self, prefix):
        n = self.count.get(prefix, 0)
        self.count[prefix] = n + 1
        return "%s%d" % (prefix, n)
