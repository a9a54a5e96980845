#!/usr/bin/env python3
"""The `Rank` match program of docs/language.md, evaluated in Python.

usage: rank-oracle.py gen SEED LIST HEADERS   write a random list and headers
       rank-oracle.py want LIST HEADERS       print the answers musim prints

Layout (the doc's): Req word 0 = tag | want << 32 | pad << 48; Slot word 0 =
tag | size << 32 | flags << 48. A header's answer is the first item, in
list order, that the program accepts.
"""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from list_oracle import want  # noqa: E402


def rank(h, it):
    if it[0] & 0xFFFFFFFF != h[0] & 0xFFFFFFFF:
        return None
    size, flags = (it[0] >> 32) & 0xFFFF, (it[0] >> 48) & 0xFFFF
    want = (h[0] >> 32) & 0xFFFF
    if bin(flags).count("1") > 3:
        return None
    clz = 16 - flags.bit_length()
    if flags & 0x8000:
        grant = 0
    else:
        grant = min(size, want)
    return (clz, grant)


def gen(seed, list_path, hdr_path):
    r = random.Random(seed)
    tags = [r.getrandbits(32) for _ in range(4)]

    def flags():
        bits = r.sample(range(16), r.choice([0, 1, 2, 3, 3, 4]))
        return sum(1 << b for b in bits)

    def half():
        return r.choice([0, 0xFFFF, r.getrandbits(16), r.getrandbits(4)])

    with open(list_path, "w") as f:
        for _ in range(12):
            w0 = r.choice(tags) | half() << 32 | flags() << 48
            f.write("%x 0 0 0 0 0 0 0\n" % w0)
    with open(hdr_path, "w") as f:
        for _ in range(40):
            w0 = r.choice(tags + [r.getrandbits(32)]) | half() << 32 | r.getrandbits(16) << 48
            f.write("%x 0 0 0 0 0 0 0\n" % w0)


if __name__ == "__main__":
    if sys.argv[1] == "gen":
        gen(int(sys.argv[2]), sys.argv[3], sys.argv[4])
    else:
        want(rank, sys.argv[2], sys.argv[3])
