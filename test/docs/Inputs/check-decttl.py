#!/usr/bin/env python3
"""Checks a TTL-decrementing run against its input, independently of npcc.

usage: check-decttl.py IN.pcap FORWARDED.pcap [EXPIRED.pcap]

Expected, in input order: every IPv4 frame of IN (ethertype 0x0800, at least
34 bytes) whose TTL is above 1 is in FORWARDED with the TTL one lower, the
header checksum valid exactly when it was valid in IN, and every other byte
unchanged; nothing else is in FORWARDED. With EXPIRED, the IPv4 frames with
TTL 0 or 1 or shorter than 34 bytes are in it unchanged (else they are gone).
Prints the counts; exits 1 at the first difference.
"""
import struct
import sys


def frames(path):
    with open(path, "rb") as f:
        data = f.read()
    magic = struct.unpack_from("<I", data, 0)[0]
    if magic not in (0xA1B2C3D4, 0xA1B23C4D):
        sys.exit("%s: not a little-endian pcap" % path)
    out, off = [], 24
    while off < len(data):
        _, _, incl, _ = struct.unpack_from("<IIII", data, off)
        out.append(data[off + 16:off + 16 + incl])
        off += 16 + incl
    return out


def csum_ok(frame):
    ihl = (frame[14] & 0x0F) * 4
    hdr = frame[14:14 + ihl]
    if ihl < 20 or len(hdr) < ihl:
        return None
    s = sum(struct.unpack("!%dH" % (ihl // 2), hdr))
    while s > 0xFFFF:
        s = (s & 0xFFFF) + (s >> 16)
    return s == 0xFFFF


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def main():
    inp = frames(sys.argv[1])
    fwd = frames(sys.argv[2])
    exp = frames(sys.argv[3]) if len(sys.argv) > 3 else None
    want_fwd, want_exp = [], []
    for k, f in enumerate(inp):
        if len(f) < 14 or f[12:14] != b"\x08\x00":
            continue
        if len(f) < 34 or f[22] <= 1:
            want_exp.append(k)
        else:
            want_fwd.append(k)
    if len(fwd) != len(want_fwd):
        fail("%d frames forwarded, expected %d" % (len(fwd), len(want_fwd)))
    valid = 0
    for n, (k, g) in enumerate(zip(want_fwd, fwd)):
        f = inp[k]
        where = "forwarded frame %d (input frame %d)" % (n, k)
        if len(g) != len(f):
            fail("%s: length %d, expected %d" % (where, len(g), len(f)))
        if g[22] != f[22] - 1:
            fail("%s: ttl %d, expected %d" % (where, g[22], f[22] - 1))
        if g[:22] + g[23:24] + g[26:] != f[:22] + f[23:24] + f[26:]:
            fail("%s: bytes other than the ttl and checksum changed" % where)
        if csum_ok(g) != csum_ok(f):
            fail("%s: checksum valid=%s, input's valid=%s (%02x%02x -> %02x%02x)"
                 % (where, csum_ok(g), csum_ok(f), f[24], f[25], g[24], g[25]))
        valid += bool(csum_ok(g))
    if exp is not None:
        if [bytes(f) for f in exp] != [inp[k] for k in want_exp]:
            fail("expired frames: %d, expected the %d IPv4 frames with ttl <= 1 or short, "
                 "unchanged" % (len(exp), len(want_exp)))
    print("forwarded %d (checksum valid %d, invalid as in the input %d), expired %d"
          % (len(fwd), valid, len(fwd) - valid, len(want_exp)))


if __name__ == "__main__":
    main()
