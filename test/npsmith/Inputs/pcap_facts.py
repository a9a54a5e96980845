#!/usr/bin/env python3
"""Prints what npsmith's traffic tests check of an input pcap, one fact a
line: its records, their size range and kinds, truncated records, damage,
time order and gaps, flows and how often a hint's bytes are at its offset.

  pcap_facts.py FILE [OFFSET=HEX]...
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "tools", "npsmith"))
from smith import flows, pcap, traffic  # noqa: E402


def kind(linktype, b):
    if linktype != pcap.LINKTYPE_ETHERNET:
        return "raw"
    typ = b[12] << 8 | b[13] if len(b) >= 14 else None
    return {0x0800: "ipv4", 0x0806: "arp", 0x86DD: "ipv6",
            0x8100: "vlan"}.get(typ, "other")


def main():
    p = pcap.read(sys.argv[1])
    recs = p.records
    wires = [r[2] for r in recs]
    print("records: %d" % len(recs))
    print("damage: %s" % p.damage)
    print("sizes: %d..%d" % (min(wires), max(wires)))
    print("runts: %s" % any(w < 60 for w in wires))
    print("jumbo: %s" % any(w > 1514 for w in wires))
    print("truncated: %s" % any(len(r[3]) < r[2] for r in recs))
    kinds = sorted({kind(p.linktype, r[3]) for r in recs})
    print("kinds: %s" % " ".join(kinds))
    stamps = [flows.stamp_ns(r, p.nanosecond) for r in recs]
    print("ascending: %s" % all(a < b for a, b in zip(stamps, stamps[1:])))
    print("ms gaps: %s" % any(b - a >= 10**6 for a, b in
                              zip(stamps, stamps[1:])))
    print("flows: %s" % (len({flows.flow(p.linktype, r[3])
                               for r in recs}) >= 2))
    ip = [r[3][14:34] for r in recs if kind(p.linktype, r[3]) == "ipv4"
          and len(r[3]) >= 34 and r[3][14] == 0x45]
    sums = {traffic.ip_checksum(h) == 0 for h in ip}
    print("ipv4 checksums: %s" % " ".join(
        sorted({"right" if s else "wrong" for s in sums})))
    ttls = {h[8] for h in ip}
    print("ttl 0 and 1: %s" % ({0, 1} <= ttls))
    for arg in sys.argv[2:]:
        off, hexa = arg.split("=")
        want = bytes.fromhex(hexa)
        hits = sum(1 for r in recs
                   if r[3][int(off):int(off) + len(want)] == want)
        print("hint %s at %s: %s" % (hexa, off, hits * 5 >= len(recs)))


if __name__ == "__main__":
    main()
