"""Differential test of the bit built-ins in match programs.

For each built-in (popcount, clz, ctz, bswap), operand width and bit
position, writes a match program that answers the built-in of an item
field as the offset and of a header field as the length (so both the item
loop and the header compute it), and a list and headers whose fields hold
the edge cases: 0, all ones, the sign bit alone, 1, alternating bits and
bytes, and random bits. Header k selects item k by a key.

The answers are computed here in Python, independently of npcc, and
  npcc --target=interp                       (the reference interpreter)
  npcc --target=ucode --validate + musim     (proved, then simulated)
  npcc --target=ucode --check-each-pass      (interpreter after each pass)
must all give them. Proving a popcount of more than 32 bits takes the
solver several seconds per count (docs/match-unit-compiler.md), so only
one of those programs is validated, with a longer time limit.

With --sample (`make check`), each built-in, sign and width is proved at its
first bit position only, and the 64-bit popcount (about 100 s of solver
time) is not proved; every program still runs on the interpreter, on musim
and under --check-each-pass. `make check-long` proves them all.
Prints `ok NAME` per program, then a summary; exits 1 on any difference.

usage: bit_builtins.py NPCC MUSIM WORKDIR [--sample]
"""
import os
import random
import subprocess
import sys


def model(op, v, w):
    """NPL's definition (docs/language.md), on the w-bit pattern v."""
    bits = [(v >> k) & 1 for k in range(w)]
    if op == "popcount":
        return sum(bits)
    if op == "clz":
        n = 0
        for b in reversed(bits):
            if b:
                break
            n += 1
        return n
    if op == "ctz":
        n = 0
        for b in bits:
            if b:
                break
            n += 1
        return n
    return sum(((v >> (8 * k)) & 0xff) << (8 * (w // 8 - 1 - k))
               for k in range(w // 8))


def values(w, rng):
    m = (1 << w) - 1
    vs = [0, m, 1 << (w - 1), 1, 0x5555555555555555 & m,
          0xaaaaaaaaaaaaaaaa & m, 0xff00ff00ff00ff00 & m, (1 << (w - 1)) - 1,
          m ^ 1]
    vs += [rng.getrandbits(w) for _ in range(5)]
    return vs


def cases():
    for op in ("popcount", "clz", "ctz"):
        for w in (1, 7, 8, 13, 16, 31, 32, 33, 57, 64):
            for lsb in sorted({0, 64 - w, min(5, 64 - w)}):
                yield op, w, lsb, "u"
        for w in (8, 32, 64):
            yield op, w, 64 - w, "i"
    for w in (8, 16, 24, 32, 40, 48, 56, 64):
        for lsb in sorted({0, 64 - w, min(3, 64 - w)}):
            yield "bswap", w, lsb, "u"
    yield "bswap", 16, 48, "i"


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300)


def main():
    npcc, musim, work = sys.argv[1:4]
    sample = "--sample" in sys.argv[4:]
    proved = set()  # (op, sign, width) proved so far
    os.makedirs(work, exist_ok=True)
    rng = random.Random(7)
    failures, n = [], 0
    for op, w, lsb, sign in cases():
        n += 1
        name = "%s-%s%d-at%d" % (op, sign, w, lsb)
        base = os.path.join(work, name)
        pad = "pad: u%d; " % lsb if lsb else ""
        ty = "%s%d" % (sign, w)
        with open(base + ".np", "w") as f:
            f.write("struct S { k: u64; %sx: %s; }\n"
                    "match M(h: S, i: S) {\n"
                    "  if i.k != h.k { fail; }\n"
                    "  accept(%s(i.x) as u64, %s(h.x) as u64);\n"
                    "}\n" % (pad, ty, op, op))
        vs = values(w, rng)
        items = ["%x %x" % (k, v << lsb) for k, v in enumerate(vs)]
        hv = vs[3:] + vs[:3]
        headers = ["%x %x" % (k, v << lsb) for k, v in enumerate(hv)]
        for path, rows in ((base + ".list", items), (base + ".headers", headers)):
            with open(path, "w") as f:
                f.write("".join(r + " 0 0 0 0 0 0\n" for r in rows))

        def answer(v):
            # bswap of a signed type is negative when its top byte is
            # large: `as u64` sign-extends it.
            r = model(op, v, w)
            if op == "bswap" and sign == "i" and r >> (w - 1):
                r |= ((1 << 64) - 1) ^ ((1 << w) - 1)
            return r
        want = ["header %d: match %d offset %d length %d"
                % (k, k, answer(vs[k]), answer(hv[k])) for k in range(len(vs))]
        files = ["--list", base + ".list", "--headers", base + ".headers"]
        got = run([npcc, base + ".np", "--target=interp"] + files)
        if got.stdout.splitlines() != want:
            failures.append("FAIL %s: interpreter: %s" % (
                name, (got.stdout + got.stderr).strip()[:300]))
            continue
        validate = ["--validate"]
        if op == "popcount" and w > 32:
            validate = (["--validate", "--validate-timeout=120000"]
                        if name == "popcount-u64-at0" and not sample else [])
        if sample and (op, sign, w) in proved:
            validate = []
        if validate:
            proved.add((op, sign, w))
        got = run([npcc, base + ".np", "--target=ucode", "-o", base + ".mu"]
                  + validate)
        if validate and "proved" not in got.stderr:
            failures.append("FAIL %s: not proved: %s" % (name, got.stderr.strip()[:300]))
            continue
        got = run([musim, base + ".mu"] + files)
        lines = [l.rsplit(" cycles ", 1)[0] for l in got.stdout.splitlines()]
        if lines != want:
            failures.append("FAIL %s: musim: %s" % (name, got.stdout.strip()[:300]))
            continue
        got = run([npcc, base + ".np", "--target=ucode", "-o",
                   base + ".check.mu", "--check-each-pass"] + files)
        if got.returncode:
            failures.append("FAIL %s: %s" % (name, got.stderr.strip()[:300]))
            continue
        print("ok %s" % name)
    print("bit built-ins: %d programs, %d failed" % (n, len(failures)))
    for f in failures:
        print(f)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
