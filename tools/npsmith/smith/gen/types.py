"""NPL's integer and bool types as the generator sees them: strings such
as 'u8', 'i12', 'bool', with the ranges a literal of each must fit."""


def is_int(t):
    return t[0] in "ui" and t[1:].isdigit()


def width(t):
    return int(t[1:])


def signed(t):
    return t[0] == "i"


def lo(t):
    return -(1 << (width(t) - 1)) if signed(t) else 0


def hi(t):
    return (1 << (width(t) - 1)) - 1 if signed(t) else (1 << width(t)) - 1


def fits(t, v):
    return lo(t) <= v <= hi(t)


# Widths a program uses most, then any of 1..64: byte-sized ones keep
# bswap and crc32 of an integer reachable.
COMMON = ["u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64"]


def random_int_type(rng, common=0.7, max_width=64):
    if rng.random() < common:
        t = rng.choice([c for c in COMMON if width(c) <= max_width])
        return t
    return rng.choice("ui") + str(rng.randint(1, max_width))


def byte_multiple(t):
    return width(t) % 8 == 0
