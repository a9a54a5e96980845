"""Literals of a type, in every spelling NPL accepts: decimal, hex and
binary with `_` separators, IPv4 and MAC addresses, durations."""
from . import types as T


def interesting_values(t):
    """Boundary values of t: where wrap-around, sign and shifts differ."""
    vals = {0, 1, T.hi(t), T.lo(t)}
    if T.width(t) > 1:
        vals |= {T.hi(t) - 1, 2, 1 << (T.width(t) - 2)}
    if T.signed(t):
        vals |= {-1, T.lo(t) + 1}
    return sorted(v for v in vals if T.fits(t, v))


def value(rng, t):
    r = rng.random()
    if r < 0.35:
        return rng.choice(interesting_values(t))
    if r < 0.75:
        return max(T.lo(t), min(T.hi(t), rng.randint(-8, 64)))
    return rng.randint(T.lo(t), T.hi(t))


def spell(rng, t, v):
    """One spelling of v as a literal of type t."""
    if v < 0:
        return "-" + spell_unsigned(rng, t, -v)
    return spell_unsigned(rng, t, v)


def spell_unsigned(rng, t, v):
    r = rng.random()
    if t == "u32" and r < 0.1:
        return ".".join(str((v >> s) & 255) for s in (24, 16, 8, 0))
    if t == "u48" and r < 0.3:
        return ":".join("%02x" % ((v >> s) & 255) for s in range(40, -8, -8))
    if T.width(t) >= 34 and r < 0.15 and v % 1_000_000 == 0 and v:
        return "%dms" % (v // 1_000_000)
    if r < 0.25:
        s = "%x" % v
        return "0x" + (group(s, 4) if rng.random() < 0.5 else s)
    if r < 0.32 and v < 1 << 16:
        return "0b" + bin(v)[2:]
    if r < 0.4 and v >= 1000:
        return group(str(v), 3)
    return str(v)


def group(digits, n):
    """`_` separators every n digits from the right."""
    parts = []
    while digits:
        parts.insert(0, digits[-n:])
        digits = digits[:-n]
    return "_".join(parts)


def literal(rng, t):
    if t == "bool":
        return rng.choice(["true", "false"])
    return spell(rng, t, value(rng, t))


def prefix(rng):
    """An IPv4 prefix literal; address bits past the length are kept as
    written (`.addr` reads them)."""
    return "%d.%d.%d.%d/%d" % (rng.randint(0, 255), rng.randint(0, 255),
                               rng.randint(0, 255), rng.randint(0, 255),
                               rng.randint(0, 32))
