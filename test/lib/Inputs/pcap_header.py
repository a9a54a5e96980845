"""Prints the link type and snap length of a pcap file, then each record's
captured and wire lengths (independent of libpcap: the bytes as written)."""
import struct
import sys

data = open(sys.argv[1], "rb").read()
magic, _, _, _, _, snaplen, linktype = struct.unpack("<IHHiIII", data[:24])
print("linktype %d snaplen %d" % (linktype, snaplen))
off = 24
while off < len(data):
    _, _, caplen, wirelen = struct.unpack("<IIII", data[off:off + 16])
    print("record %d/%d" % (caplen, wirelen))
    off += 16 + caplen
