#!/usr/bin/env python3
"""Checks builtins.np's output packets against Python's own computations.

usage: check_builtins.py IN.pcap OUT.pcap
"""
import struct
import sys
import zlib


def frames(path):
    data = open(path, "rb").read()
    off, out = 24, []
    while off < len(data):
        _, _, caplen, _ = struct.unpack("<IIII", data[off:off + 16])
        out.append(data[off + 16:off + 16 + caplen])
        off += 16 + caplen
    return out


def crc32c(data):
    crc = 0xffffffff
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82f63b78 if crc & 1 else 0)
    return crc ^ 0xffffffff


def ones_sum(data, acc=0):
    if len(data) % 2:
        data = data + b"\0"
    s = acc
    for k in range(0, len(data), 2):
        s += (data[k] << 8) | data[k + 1]
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return s


def csum(data):
    return ~ones_sum(data) & 0xffff


def mix_hash(*xs):
    m = (1 << 64) - 1
    h = 0x9e3779b97f4a7c15
    for x in xs:
        h = ((h ^ x) * 0xbf58476d1ce4e5b9) & m
        h ^= h >> 31
    h ^= h >> 33
    h = (h * 0xff51afd7ed558ccd) & m
    h ^= h >> 33
    return h & 0xffffffff


def be(data, off, n):
    return int.from_bytes(data[off:off + n], "big")


def check(p, q):
    errors = []

    def want(name, got, expected):
        if got != expected:
            errors.append("%s: got %#x, expected %#x" % (name, got, expected))

    src, dst = be(p, 26, 4), be(p, 30, 4)
    want("crc32", be(q, 12, 4), zlib.crc32(p[:20]))
    want("crc32c", be(q, 16, 4), crc32c(p[:20]))
    want("crc32(src)", be(q, 32, 4), zlib.crc32(src.to_bytes(4, "big")))
    want("crc32c(src)", be(q, 36, 4), crc32c(src.to_bytes(4, "big")))
    want("csum(ip)", be(q, 40, 2), csum(p[14:34]))
    want("csum(odd)", be(q, 42, 2), csum(p[0:13]))
    want("csum_partial", be(q, 44, 2),
         ~ones_sum(p[0:7], 0x12345678) & 0xffff)
    # RFC 1624 eqn. 3 computed directly, and, for a good header, against a
    # full recomputation after the change.
    hc, old = be(p, 24, 2), be(p, 22, 2)
    new = (old - 0x100) & 0xffff
    s = (~hc & 0xffff) + (~old & 0xffff) + new
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    want("csum_update", be(q, 46, 2), ~s & 0xffff)
    if csum(p[14:34]) == 0 and p[22] > 0:
        hdr = bytearray(p[14:34])
        hdr[8] -= 1
        hdr[10:12] = b"\0\0"
        full = csum(bytes(hdr))
        got = be(q, 46, 2)
        # 0x0000 and 0xffff are the same number in one's complement.
        if got != full and {got, full} != {0, 0xffff}:
            errors.append("csum_update %#x != recomputed %#x" % (got, full))
    want("clz", be(q, 48, 2), 32 - src.bit_length())
    want("ctz", be(q, 50, 2),
         32 if src == 0 else (src & -src).bit_length() - 1)
    want("popcount", be(q, 52, 2), bin(src).count("1"))
    want("clz(0)", be(q, 54, 2), 16)
    want("bswap", be(q, 56, 4), int.from_bytes(src.to_bytes(4, "big"), "little"))
    want("hash", be(q, 60, 4), mix_hash(src, dst))
    want("pkt_copy", be(q, 64, 8), be(p, 26, 8))
    want("pkt_copy tail", be(q, 90, 2), be(p, len(p) - 2, 2))
    want("ctz(0)", q[72], 8)
    want("popcount(~0)", q[73], 64)
    want("bswap16", q[74], 2)
    want("len", q[75], len(p) & 0xff)
    want("resize ok", q[76], 1)
    want("resized len", q[77], (len(p) + 4) & 0xff)
    want("put zero", q[78], 0)
    want("take too many", q[79], 0)
    return errors


def main():
    ins, outs = frames(sys.argv[1]), frames(sys.argv[2])
    if len(ins) != len(outs):
        print("%d packets in, %d out" % (len(ins), len(outs)))
        return 1
    bad = 0
    for k, (p, q) in enumerate(zip(ins, outs)):
        for e in check(p, q):
            print("packet %d: %s" % (k, e))
            bad += 1
    if bad:
        return 1
    print("%d packets checked" % len(ins))
    return 0


if __name__ == "__main__":
    sys.exit(main())
