#!/usr/bin/env python3
"""Writes pcaps with npsmith's writer (tools/npsmith/smith/pcap.py) for
libpcap (npdump) to read: microsecond and nanosecond time stamps, a
record captured short of its length, and a copy of the microsecond file
in big-endian byte order, which the reader must take as the same records.

  pcap_roundtrip.py DIR
"""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "tools", "npsmith"))
from smith import pcap  # noqa: E402

FRAME = bytes.fromhex("ffffffffffff020000000001" "0806") + bytes(46)


def big_endian(blob):
    """The same file written by a big-endian host."""
    out = [struct.pack(">IHHiIII", *struct.unpack("<IHHiIII", blob[:24]))]
    off = 24
    while off < len(blob):
        sec, frac, cap, wire = struct.unpack("<IIII", blob[off:off + 16])
        out.append(struct.pack(">IIII", sec, frac, cap, wire))
        out.append(blob[off + 16:off + 16 + cap])
        off += 16 + cap
    return b"".join(out)


def main():
    d = sys.argv[1]
    recs = [(1700000000, 5, len(FRAME), FRAME),
            (1700000001, 999999, 1500, FRAME)]
    us = pcap.Pcap(pcap.LINKTYPE_ETHERNET, False, 65535, recs)
    pcap.write(os.path.join(d, "us.pcap"), us)
    ns = pcap.Pcap(pcap.LINKTYPE_ETHERNET, True, 65535,
                   [(1700000000, 5, len(FRAME), FRAME)])
    pcap.write(os.path.join(d, "ns.pcap"), ns)
    blob = big_endian(pcap.encode(us))
    with open(os.path.join(d, "be.pcap"), "wb") as f:
        f.write(blob)
    back = pcap.read(os.path.join(d, "be.pcap"))
    print("big-endian read back: %s" % (back.records == recs and
                                        back.linktype == 1 and
                                        not back.nanosecond))
    cut = pcap.parse(pcap.encode(us, cut=10))
    print("cut: %d records, %s" % (len(cut.records), cut.damage))


if __name__ == "__main__":
    main()
