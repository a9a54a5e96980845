#!/usr/bin/env python3
"""pcap_edit.py IN OUT [--nsec] [--stamp K SEC] [--add-ns K N] [--byte K OFF V]
Copies the microsecond pcap IN to OUT: --nsec writes it as Click 2.1 does
(nanosecond magic and time stamps); --stamp sets record K's seconds to SEC;
--add-ns adds N nanoseconds to record K's time stamp (with --nsec);
--byte sets byte OFF of record K's packet to V. For
test/bench/pcap-same.test."""
import struct
import sys

args = sys.argv[1:]
src, dst, opts = args[0], args[1], args[2:]
data = bytearray(open(src, "rb").read())
assert struct.unpack_from("<I", data, 0)[0] == 0xA1B2C3D4
offs, off = [], 24
while off < len(data):
    offs.append(off)
    off += 16 + struct.unpack_from("<I", data, off + 8)[0]
nsec = "--nsec" in opts
if nsec:
    struct.pack_into("<I", data, 0, 0xA1B23C4D)
    for o in offs:
        us = struct.unpack_from("<I", data, o + 4)[0]
        struct.pack_into("<I", data, o + 4, us * 1000)
i = 0
while i < len(opts):
    o = opts[i]
    if o == "--nsec":
        i += 1
        continue
    k = int(opts[i + 1])
    if o == "--stamp":
        struct.pack_into("<I", data, offs[k], int(opts[i + 2]))
    elif o == "--add-ns":
        frac = struct.unpack_from("<I", data, offs[k] + 4)[0]
        struct.pack_into("<I", data, offs[k] + 4, frac + int(opts[i + 2]))
    elif o == "--byte":
        data[offs[k] + 16 + int(opts[i + 2])] = int(opts[i + 3])
        i += 1
    i += 3
open(dst, "wb").write(data)
