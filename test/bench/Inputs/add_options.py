#!/usr/bin/env python3
# ===- add_options.py - IP options and fragmentable frames for a trace ----===#
#
# SPDX-License-Identifier: Apache-2.0
#
# ===----------------------------------------------------------------------===#
"""Rewrites some IPv4 frames of a pcap (npgen's: every one has DF and no
options) so that a router meets what npgen does not make:

  add_options.py IN OUT [--seed S]

Of the IPv4 frames whose header is complete and right (checksum, version,
IHL 5), about half lose DF (a frame above the MTU is then fragmented) and
a third get IP options, well formed or not: no-operation, end of list,
record route and time stamps (flags 0, 1, 3) with every kind of pointer
and overflow, loose and strict source routes, copied options (router
alert), lengths below 2 or past the header. Some get MF or a fragment
offset. The header checksum is made right again; the total length grows
with the header. The same input and seed always give the same bytes."""

import argparse
import random
import struct


def cksum(b):
    s = 0
    for i in range(0, len(b) - 1, 2):
        s += b[i] << 8 | b[i + 1]
    if len(b) % 2:
        s += b[-1] << 8
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def addr(r):
    return bytes(r.choice([[18, 26, 4, 24], [18, 26, 7, 1], [10, 1, 2, 3]]))


def option(r):
    """One option, well formed or not."""
    kind = r.randrange(10)
    if kind == 0:
        return b"\x01"
    if kind == 1:
        return b"\x00"
    if kind == 2:  # record route, pointer anywhere near the slots
        n = r.randrange(1, 5)
        ln = 3 + 4 * n
        ptr = r.choice([4, 4 + 4 * r.randrange(n + 1), ln + 1, 3, 5, 2])
        return bytes([7, ln, ptr]) + bytes(4 * n)
    if kind in (3, 4):  # time stamp
        flg = r.choice([0, 1, 3, 3, 2])
        per = 4 if flg == 0 else 8
        n = r.randrange(1, 4)
        ln = 4 + per * n
        ptr = r.choice([5, 5 + per * r.randrange(n + 1), ln + 1, 4, 3])
        oflw = r.choice([0, 0, 14, 15])
        body = bytearray(per * n)
        if flg == 3:
            for k in range(n):
                body[per * k : per * k + 4] = addr(r)
        return bytes([68, ln, ptr, oflw << 4 | flg]) + bytes(body)
    if kind == 5:  # loose or strict source route
        n = r.randrange(1, 4)
        ln = 3 + 4 * n
        ptr = r.choice([4, 4 + 4 * r.randrange(n + 1), 6])
        body = b"".join(addr(r) for _ in range(n))
        return bytes([r.choice([131, 137]), ln, ptr]) + body
    if kind == 6:  # router alert: copied into every fragment
        return b"\x94\x04\x00\x00"
    if kind == 7:  # a copied option of another length
        return bytes([0x88, 6, 1, 2, 3, 4])
    if kind == 8:  # length below 2
        return bytes([r.choice([7, 68, 0x94, 25]), r.randrange(2)])
    return bytes([25, 40])  # runs past the header


def rewrite(frame, r):
    f = bytearray(frame)
    if len(f) < 34 or f[12:14] != b"\x08\x00" or f[14] != 0x45:
        return frame
    ip = f[14:]
    if cksum(ip[:20]) != 0 or (ip[2] << 8 | ip[3]) > len(ip):
        return frame
    hdr = bytearray(ip[:20])
    if r.random() < 0.5:
        hdr[6] &= ~0x40 & 0xFF
    if r.random() < 0.1:
        frag = r.choice([0x2000, 0x0010, 0x2020])
        hdr[6] = (hdr[6] & 0xC0) | frag >> 8
        hdr[7] = frag & 0xFF
    opts = b""
    if r.random() < 0.35:
        for _ in range(r.randrange(1, 4)):
            opts += option(r)
        opts = opts[:40]
        opts += bytes(-len(opts) % 4)
    total = (ip[2] << 8 | ip[3]) + len(opts)
    if total > 0xFFFF:
        return frame
    hdr[0] = 0x40 | (20 + len(opts)) // 4
    hdr[2:4] = struct.pack(">H", total)
    hdr[10:12] = b"\0\0"
    hdr[10:12] = struct.pack(">H", cksum(bytes(hdr) + opts))
    return bytes(f[:14]) + bytes(hdr) + opts + bytes(ip[20:])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    r = random.Random(a.seed)
    data = open(a.input, "rb").read()
    if struct.unpack("<I", data[:4])[0] not in (0xA1B2C3D4, 0xA1B23C4D):
        raise SystemExit("add_options.py: not a little-endian pcap file")
    out = [data[:24]]
    at = 24
    while at + 16 <= len(data):
        sec, frac, cap, wire = struct.unpack("<IIII", data[at : at + 16])
        frame = rewrite(data[at + 16 : at + 16 + cap], r)
        grow = len(frame) - cap
        out.append(struct.pack("<IIII", sec, frac, len(frame), wire + grow))
        out.append(frame)
        at += 16 + cap
    open(a.output, "wb").write(b"".join(out))


if __name__ == "__main__":
    main()
