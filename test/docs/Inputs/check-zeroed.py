#!/usr/bin/env python3
"""usage: check-zeroed.py IN.pcap OUT.pcap FIRST LAST

OUT must hold IN's frames in order, each with bytes FIRST..LAST zero (and
IN's nonzero somewhere there) and every other byte unchanged. Prints the
number of frames checked; exits 1 at the first difference.
"""
import struct
import sys


def frames(path):
    with open(path, "rb") as f:
        data = f.read()
    out, off = [], 24
    while off < len(data):
        incl = struct.unpack_from("<I", data, off + 8)[0]
        out.append(data[off + 16:off + 16 + incl])
        off += 16 + incl
    return out


inp, out = frames(sys.argv[1]), frames(sys.argv[2])
lo, hi = int(sys.argv[3]), int(sys.argv[4]) + 1
if len(inp) != len(out):
    sys.exit("FAIL: %d frames out, %d in" % (len(out), len(inp)))
for k, (f, g) in enumerate(zip(inp, out)):
    if g[lo:hi] != bytes(hi - lo) or f[lo:hi] == bytes(hi - lo):
        sys.exit("FAIL: frame %d: bytes %d..%d are %s (input %s)"
                 % (k, lo, hi - 1, g[lo:hi].hex(), f[lo:hi].hex()))
    if g[:lo] != f[:lo] or g[hi:] != f[hi:]:
        sys.exit("FAIL: frame %d: other bytes changed" % k)
print("%d frames: bytes %d..%d zeroed, the rest unchanged" % (len(out), lo, hi - 1))
