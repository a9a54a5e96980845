#!/usr/bin/env python3
# Writes seed capture files for fuzz-pcap into the directory argv[1]: both
# byte orders, micro- and nanosecond magic, several link types and snap
# lengths, empty files, records shorter or longer than the snap length,
# and files cut inside a header or a record.
import os
import struct
import sys

out = sys.argv[1]
os.makedirs(out, exist_ok=True)


def pcap(order, nano, linktype, snaplen, records):
    magic = 0xA1B23C4D if nano else 0xA1B2C3D4
    data = struct.pack(order + "IHHiIII", magic, 2, 4, 0, 0, snaplen, linktype)
    for i, (caplen, wirelen) in enumerate(records):
        data += struct.pack(order + "IIII", 1000 + i, 500 * i, caplen, wirelen)
        data += bytes((i * 7 + k) & 0xFF for k in range(caplen))
    return data


frame = 60
n = 0
for order in "<>":
    for nano in (False, True):
        for linktype, snaplen in ((1, 65535), (1, 64), (101, 1500), (0, 262144)):
            for records in ([], [(frame, frame)], [(frame, 1514), (14, 14), (0, 0)]):
                data = pcap(order, nano, linktype, snaplen, records)
                open(os.path.join(out, "seed%03d.pcap" % n), "wb").write(data)
                n += 1
full = pcap("<", False, 1, 65535, [(frame, frame), (100, 100)])
for cut in (0, 4, 23, 24, 30, 40, 24 + 16 + frame + 3):
    open(os.path.join(out, "cut%03d.pcap" % cut), "wb").write(full[:cut])
