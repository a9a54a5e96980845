"""check_unwritten.py STATS.json OUT.pcap: for a program that sends every
packet it reads to its output (passthrough), the output device's
statistics after a failed write count as sent the records OUT.pcap holds
(and their bytes), as unwritten the rest of the packets read."""
import json
import struct
import sys

stats, pcap = sys.argv[1], sys.argv[2]
with open(stats) as f:
    devices = json.load(f)["devices"]
tx, handed = devices["tx"][0], devices["rx"][0]["packets"]
with open(pcap, "rb") as f:
    data = f.read()
records, lengths, off = 0, 0, 24
while off + 16 <= len(data):
    caplen, length = struct.unpack_from("<II", data, off + 8)
    off += 16 + caplen
    records += 1
    lengths += length
problems = []
if off != len(data):
    problems.append("the file ends in part of a record")
if tx["packets"] != records or tx["bytes"] != lengths:
    problems.append("sent %d packets, %d bytes; the file holds %d, %d" %
                    (tx["packets"], tx["bytes"], records, lengths))
if tx.get("unwritten", 0) + tx["packets"] != handed:
    problems.append("sent %d + unwritten %d != %d handed" %
                    (tx["packets"], tx.get("unwritten", 0), handed))
if not tx.get("unwritten"):
    problems.append("nothing counted as unwritten")
print("\n".join(problems) or "ok")
sys.exit(1 if problems else 0)
