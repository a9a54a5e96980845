"""Differential test of the match-unit compiler on random match programs.

For each seed: write a random NPL match program (checks drawn from the
shapes match functions use: equality under a mask, field equality with
wildcards, option bits under header conditions, ordered compares, offset
and length arithmetic under option flags), random list items and headers
derived from each other so that checks both pass and fail, and the result
of evaluating the program in Python with NPL's semantics. Then compile it
with npcc --target=ucode, run it under musim, and compare every header's
result. Prints one summary line; exits 1 on any difference.

usage: random_match.py NPCC MUSIM WORKDIR SEEDS
"""
import random
import subprocess
import sys

M64 = (1 << 64) - 1

# One layout for header and item words, so that fields of the same name lie
# at the same bit position (the match unit has no shifter).
LAYOUT = [
    [("a", 64)],
    [("b", 64)],
    [("n", 32), ("p", 16), ("q", 16)],
    [("f", 16), ("g", 16), ("r", 32)],
    [("w", 64)],
    [("x", 64)],
    [("y", 64)],
    [("z", 64)],
]
FIELDS = {name: (word, sum(w for _, w in LAYOUT[word][:i]), width)
          for word, fs in enumerate(LAYOUT)
          for i, (name, width) in enumerate(fs)}


def get(words, name):
    word, lsb, width = FIELDS[name]
    return (words[word] >> lsb) & ((1 << width) - 1)


def put(words, name, value):
    word, lsb, width = FIELDS[name]
    mask = ((1 << width) - 1) << lsb
    words[word] = (words[word] & ~mask) | ((value << lsb) & mask)


def make_program(rng):
    """Returns (NPL source, evaluator(h, it) -> None | (off, len))."""
    checks, src = [], []
    shapes = rng.sample(range(10), rng.randint(2, 5))
    if 0 not in shapes and rng.random() < 0.7:
        shapes.insert(0, 0)
    for shape in shapes:
        if shape == 0:
            src.append("if ((it.a ^ h.a) & it.b) != 0 { fail; }")
            checks.append(lambda h, it: ((get(it, "a") ^ get(h, "a")) & get(it, "b")) != 0)
        elif shape == 1:
            name = rng.choice(["n", "p", "g", "r"])
            any_ = (1 << FIELDS[name][2]) - 1
            src.append("if it.%s != %d && it.%s != h.%s { fail; }" % (name, any_, name, name))
            checks.append(lambda h, it, n=name, a=any_: get(it, n) != a and get(it, n) != get(h, n))
        elif shape == 2:
            bit = 1 << rng.randrange(6)
            src.append("if (it.f & %d) == 0 { fail; }" % bit)
            checks.append(lambda h, it, k=bit: (get(it, "f") & k) == 0)
        elif shape == 3:
            bit = 1 << rng.randrange(6)
            code = rng.randint(1, 3)
            src.append("if h.q == %d && (it.f & %d) == 0 { fail; }" % (code, bit))
            checks.append(lambda h, it, k=bit, c=code: get(h, "q") == c and (get(it, "f") & k) == 0)
        elif shape == 4:
            op = rng.choice(["<", ">", "<=", ">="])
            src.append("if it.w %s h.w { fail; }" % op)
            fn = {"<": lambda a, b: a < b, ">": lambda a, b: a > b,
                  "<=": lambda a, b: a <= b, ">=": lambda a, b: a >= b}[op]
            checks.append(lambda h, it, f=fn: f(get(it, "w"), get(h, "w")))
        elif shape == 5:
            name = rng.choice(["p", "q", "g"])
            src.append("if it.%s == 0 { fail; }" % name)
            checks.append(lambda h, it, n=name: get(it, n) == 0)
        elif shape == 6:
            src.append("if it.n == h.n && it.p != h.p { fail; }")
            checks.append(lambda h, it: get(it, "n") == get(h, "n") and get(it, "p") != get(h, "p"))
        elif shape == 7:
            src.append("if it.r >= h.r { fail; }")
            checks.append(lambda h, it: get(it, "r") >= get(h, "r"))
        elif shape == 8:
            c = rng.randint(0, 0xffff)
            src.append("if it.g > %d { fail; }" % c)
            checks.append(lambda h, it, c=c: get(it, "g") > c)
        else:
            code = rng.randint(0, 3)
            src.append("if h.q == %d && it.p == h.p { fail; }" % code)
            checks.append(lambda h, it, c=code: get(h, "q") == c and get(it, "p") == get(h, "p"))

    kind = rng.randrange(5)
    remote, trunc = 1 << rng.randrange(6, 9), 1 << rng.randrange(9, 12)
    if kind == 0:
        src.append("accept(it.x, h.y);")

        def answer(h, it):
            return get(it, "x"), get(h, "y")
    elif kind == 1:
        src.append("accept(0, 0);")

        def answer(h, it):
            return 0, 0
    elif kind == 3:
        src.append("accept(it.x + h.w, min(it.y, h.z));")

        def answer(h, it):
            return (get(it, "x") + get(h, "w")) & M64, min(get(it, "y"), get(h, "z"))
    elif kind == 4:
        src += ["let t = it.w - h.w;", "accept(t, t + 1);"]

        def answer(h, it):
            t = (get(it, "w") - get(h, "w")) & M64
            return t, (t + 1) & M64
    else:
        src += [
            "var off: u64 = it.x;",
            "if (it.f & %d) != 0 {" % remote,
            "  off = h.x;",
            "  if off >= it.y { off = it.y; }",
            "}",
            "let rem = it.y - off;",
            "var len: u64 = h.z;",
            "if len > rem {",
            "  if (it.f & %d) == 0 { fail; }" % trunc,
            "  len = rem;",
            "}",
            "accept(off, len);",
        ]

        def answer(h, it):
            off = get(it, "x")
            if get(it, "f") & remote:
                off = get(h, "x")
                if off >= get(it, "y"):
                    off = get(it, "y")
            rem = (get(it, "y") - off) & M64
            length = get(h, "z")
            if length > rem:
                if get(it, "f") & trunc == 0:
                    return None
                length = rem
            return off, length

    def evaluate(h, it):
        for check in checks:
            if check(h, it):
                return None
        return answer(h, it)

    fields = "; ".join("%s: u%d" % (n, w) for fs in LAYOUT for n, w in fs)
    text = "struct W { %s; }\n\nmatch Random(h: W, it: W) {\n  %s\n}\n" % (
        fields, "\n  ".join(src))
    return text, evaluate


def make_data(rng):
    headers, items = [], []
    for _ in range(rng.randint(1, 8)):
        h = [rng.getrandbits(64) for _ in range(8)]
        put(h, "q", rng.randint(0, 3))
        for name in ("x", "y", "z", "w"):
            put(h, name, rng.choice([rng.getrandbits(12), rng.getrandbits(64)]))
        headers.append(h)
    for _ in range(rng.randint(0, 10)):
        like = rng.choice(headers)
        it = list(like) if rng.random() < 0.6 else [rng.getrandbits(64) for _ in range(8)]
        for name in ("n", "p", "g", "r"):
            roll = rng.random()
            if roll < 0.2:
                put(it, name, (1 << FIELDS[name][2]) - 1)
            elif roll < 0.3:
                put(it, name, rng.getrandbits(FIELDS[name][2]))
        put(it, "b", rng.choice([M64, 0, rng.getrandbits(64)]))
        put(it, "f", rng.getrandbits(12))
        for name in ("x", "y", "w"):
            put(it, name, rng.choice([get(like, name), rng.getrandbits(12),
                                      rng.getrandbits(64)]))
        items.append(it)
    return headers, items


def main():
    npcc, musim, work, seeds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    compared = matched = 0
    for seed in range(seeds):
        rng = random.Random(seed)
        text, evaluate = make_program(rng)
        headers, items = make_data(rng)
        base = "%s/r%d" % (work, seed)
        open(base + ".np", "w").write(text)
        for suffix, rows in ((".list", items), (".headers", headers)):
            with open(base + suffix, "w") as f:
                f.write("# empty\n" if not rows else "")
                for row in rows:
                    f.write(" ".join("%x" % w for w in row) + "\n")
        subprocess.run([npcc, base + ".np", "--target=ucode", "-o", base + ".mu"],
                       check=True)
        out = subprocess.run([musim, base + ".mu", "--list", base + ".list",
                              "--headers", base + ".headers"],
                             check=True, capture_output=True, text=True).stdout
        lines = [l for l in out.splitlines() if l.startswith("header ")]
        for hi, h in enumerate(headers):
            want = "no match"
            for ii, it in enumerate(items):
                result = evaluate(h, it)
                if result is not None:
                    want = "match %d offset %d length %d" % (ii, result[0], result[1])
                    matched += 1
                    break
            got = lines[hi].split(": ", 1)[1].rsplit(" cycles", 1)[0]
            compared += 1
            if got != want:
                print("MISMATCH seed %d header %d: want %s, got %s (%s)" %
                      (seed, hi, want, got, base + ".np"))
                sys.exit(1)
    print("random match programs: %d programs, %d headers (%d matched), 0 mismatches"
          % (seeds, compared, matched))


if __name__ == "__main__":
    main()
