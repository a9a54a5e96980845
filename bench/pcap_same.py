#!/usr/bin/env python3
# ===- pcap_same.py - Click's output file against npcc's ------------------===#
#
# SPDX-License-Identifier: Apache-2.0
#
# ===----------------------------------------------------------------------===#
"""pcap_same.py [--click-clock T0] CLICK NPCC

Exits 0 when the pcap file CLICK, written by Click 2.1's ToDump, holds the
bytes of NPCC, written by npcc's: the same header fields, the same records,
the same packet bytes and time stamps. Click built with its default
nanosecond time stamps writes the nanosecond magic (a1b23c4d) and
nanoseconds; npcc writes microseconds (a1b2c3d4): CLICK's are converted
first, which is exact when they are whole microseconds (every packet read
from a microsecond trace); a sub-microsecond part is a difference.

With --click-clock T0 (seconds since the epoch, when Click's run started),
two fields Click fills from the host's clock are left out: the time stamp
of a record Click stamped at or after T0 (the packets Click creates, ARP
replies and ICMP errors, get the time of day; npcc's get the trace's), and
the time values of an IPv4 time stamp option with the header checksum
(IPGWOptions writes Click's time of day in milliseconds, npcc the trace's).
Everything else must still be the same; the script says how many of each
were left out. Prints one line; exits 1 on the first difference."""

import struct
import sys

USEC, NSEC = 0xA1B2C3D4, 0xA1B23C4D


def read(path):
    data = open(path, "rb").read()
    if len(data) < 24:
        sys.exit(f"pcap_same.py: {path}: shorter than a pcap header")
    for order in "<>":
        magic = struct.unpack(order + "I", data[:4])[0]
        if magic in (USEC, NSEC):
            break
    else:
        sys.exit(f"pcap_same.py: {path}: not a pcap file")
    scale = 1000 if magic == NSEC else 1
    header = data[4:24]
    linktype = struct.unpack_from(order + "I", data, 20)[0]
    recs, off = [], 24
    while off + 16 <= len(data):
        sec, frac, incl, orig = struct.unpack_from(order + "IIII", data, off)
        recs.append((off, sec, frac, scale, orig,
                     data[off + 16:off + 16 + incl]))
        off += 16 + incl
    if off != len(data):
        sys.exit(f"pcap_same.py: {path}: truncated record at byte {off}")
    return header, linktype, recs


def mask_ip_timestamps(pkt, linktype):
    """pkt with the time values of IPv4 time stamp options and the header
    checksum zeroed, and whether there was such an option."""
    ip = 0
    if linktype == 1:
        if len(pkt) < 14 or pkt[12:14] != b"\x08\x00":
            return pkt, False
        ip = 14
    if len(pkt) < ip + 20 or pkt[ip] >> 4 != 4:
        return pkt, False
    hl = (pkt[ip] & 15) * 4
    p, end, found = bytearray(pkt), min(ip + hl, len(pkt)), False
    i = ip + 20
    while i < end:
        t = p[i]
        if t == 0:
            break
        if t == 1:
            i += 1
            continue
        if i + 1 >= end or p[i + 1] < 2:
            break
        n = p[i + 1]
        if t == 68 and n >= 4:  # type, length, pointer, overflow|flag
            # flag 0: time stamps only; 1, 3: address, time stamp pairs
            first, step = (4, 4) if p[i + 3] & 15 == 0 else (8, 8)
            for w in range(i + first, min(i + n, end) - 3, step):
                p[w:w + 4] = b"\0\0\0\0"
            found = True
        i += n
    if found:
        p[ip + 10:ip + 12] = b"\0\0"
    return bytes(p), found


def main(argv):
    t0 = None
    if len(argv) == 5 and argv[1] == "--click-clock":
        t0, argv = float(argv[2]), argv[2:]
    if len(argv) != 3:
        sys.exit(__doc__)
    cpath, npath = argv[1], argv[2]
    ch, clink, crecs = read(cpath)
    nh, _, nrecs = read(npath)

    def fail(msg):
        print(f"pcap_same.py: {cpath} and {npath} differ: {msg}")
        sys.exit(1)

    if ch != nh:
        fail("pcap headers (version, snaplen or link type)")
    if len(crecs) != len(nrecs):
        fail(f"{len(crecs)} records against {len(nrecs)}")
    stamps = options = 0
    for k, (c, n) in enumerate(zip(crecs, nrecs)):
        _, csec, cfrac, cscale, corig, cpkt = c
        noff, nsec, nfrac, _, norig, npkt = n
        where = f"record {k} (byte {noff} of {npath})"
        if corig != norig or len(cpkt) != len(npkt):
            fail(f"{where}: lengths")
        if cpkt != npkt:
            if t0 is None:
                fail(f"{where}: packet bytes")
            cm, cf = mask_ip_timestamps(cpkt, clink)
            nm, nf = mask_ip_timestamps(npkt, clink)
            if not (cf and nf and cm == nm):
                fail(f"{where}: packet bytes")
            options += 1
        if cfrac % cscale or (csec, cfrac // cscale) != (nsec, nfrac):
            if t0 is None or csec + cfrac / cscale / 1e6 < t0:
                fail(f"{where}: time stamps")
            stamps += 1
    note = ""
    if t0 is not None:
        note = (f" (left out: {stamps} time stamps and {options} IP time "
                "stamp options from Click's clock)")
    print(f"same: {npath}, {len(nrecs)} records{note}")


if __name__ == "__main__":
    main(sys.argv)
