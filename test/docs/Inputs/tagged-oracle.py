#!/usr/bin/env python3
"""The `Tagged` match program of docs/language.md, evaluated in Python.

usage: tagged-oracle.py gen SEED LIST HEADERS   write a random list and headers
       tagged-oracle.py want LIST HEADERS       print the answers musim prints

Layout (the doc's): Hdr word 0 = tag | kind << 32 | pad << 48, word 1 = len;
Item word 0 = tag | kind << 32 | flags << 48, word 1 = size. A header's
answer is the first item, in list order, that the program accepts.
"""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from list_oracle import want  # noqa: E402

M64 = (1 << 64) - 1


def tagged(h, it):
    if it[0] & 0xFFFFFFFF != h[0] & 0xFFFFFFFF:
        return None
    flags = (it[0] >> 48) & 0xFFFF
    n = h[1]
    if flags & 1 and n > it[1]:
        if flags & 2 == 0:
            return None
        n = it[1]
    return (0, n)


def gen(seed, list_path, hdr_path):
    r = random.Random(seed)
    tags = [r.getrandbits(32) for _ in range(4)]

    def big():
        return r.choice([r.getrandbits(64), r.getrandbits(12), 0, M64])

    with open(list_path, "w") as f:
        for _ in range(12):
            w0 = r.choice(tags) | r.getrandbits(16) << 32 | r.getrandbits(16) << 48
            f.write("%x %x 0 0 0 0 0 0\n" % (w0, big()))
    with open(hdr_path, "w") as f:
        for _ in range(40):
            w0 = r.choice(tags + [r.getrandbits(32)]) | r.getrandbits(32) << 32
            f.write("%x %x 0 0 0 0 0 0\n" % (w0, big()))


if __name__ == "__main__":
    if sys.argv[1] == "gen":
        gen(int(sys.argv[2]), sys.argv[3], sys.argv[4])
    else:
        want(tagged, sys.argv[2], sys.argv[3])
