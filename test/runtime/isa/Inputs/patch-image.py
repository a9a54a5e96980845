#!/usr/bin/env python3
# patch-image.py - corrupt a match-unit image (docs/match-unit-isa.md, "Image")
# in one named way, for the image-reader tests.
#
# usage: patch-image.py IN OUT [--magic S] [--version N] [--bits N]
#        [--count N] [--truncate N] [--append N] [--flip BYTE.BIT]
#        [--word-bit WORD.BIT] [--fix-checksum]
import argparse
import struct

p = argparse.ArgumentParser()
p.add_argument("inp")
p.add_argument("out")
p.add_argument("--magic")
p.add_argument("--version", type=int)
p.add_argument("--bits", type=int)
p.add_argument("--count", type=int)
p.add_argument("--truncate", type=int, help="keep only N bytes")
p.add_argument("--append", type=int, help="add N zero bytes")
p.add_argument("--flip", help="flip bit BIT of payload byte BYTE")
p.add_argument("--word-bit", help="set bit BIT (0..191) of word WORD")
p.add_argument("--fix-checksum", action="store_true")
a = p.parse_args()

b = bytearray(open(a.inp, "rb").read())
if a.magic is not None:
    b[0:4] = a.magic.encode()
if a.version is not None:
    struct.pack_into("<H", b, 4, a.version)
if a.bits is not None:
    struct.pack_into("<H", b, 6, a.bits)
if a.count is not None:
    struct.pack_into("<I", b, 8, a.count)
if a.flip:
    byte, bit = map(int, a.flip.split("."))
    b[16 + byte] ^= 1 << bit
if a.word_bit:
    word, bit = map(int, a.word_bit.split("."))
    b[16 + 24 * word + bit // 8] |= 1 << (bit % 8)
if a.fix_checksum:
    h = 2166136261
    for x in b[16:]:
        h = ((h ^ x) * 16777619) & 0xFFFFFFFF
    struct.pack_into("<I", b, 12, h)
if a.truncate is not None:
    b = b[: a.truncate]
if a.append:
    b += bytes(a.append)
open(a.out, "wb").write(b)
