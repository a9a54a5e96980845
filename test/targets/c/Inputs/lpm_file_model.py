"""An independent model of table-file.np: longest-prefix match over
route files (`ADDR/MASK [GW] PORT` lines, gateway 0.0.0.0 and port 1 by
default, `#` comments, a later line for the same prefix replacing an
earlier one), checked against every frame the program wrote: the route of
file k gives two bytes at its offset, and every other byte is the input's.

usage: lpm_file_model.py IN.PCAP OUT.PCAP ROUTES:OFFSET...
Prints `N frames, M agree`, then each frame that does not.
"""
import ipaddress
import re
import struct
import sys

ADDRS = ["192.168.2.148", "192.168.2.149", "192.168.100.1", "192.168.129.7",
         "192.168.250.1", "10.9.9.9"]


def frames(path):
    data = open(path, "rb").read()
    off = 24
    while off < len(data):
        caplen = struct.unpack("<I", data[off + 8:off + 12])[0]
        yield data[off + 16:off + 16 + caplen]
        off += 16 + caplen


def routes(path):
    table = {}
    for line in open(path):
        words = re.split(r"[\s,]+", line.split("#")[0].strip())
        if words == [""]:
            continue
        net = ipaddress.ip_network(words[0], strict=False)
        gw, port = "0.0.0.0", 1
        if len(words) == 2:
            port = int(words[1])
        elif len(words) == 3:
            gw, port = words[1], int(words[2])
        table[net] = (port, int(ipaddress.ip_address(gw)) & 0xFF)
    return table


def lookup(table, addr):
    best = None
    for net, hop in table.items():
        if addr in net and (best is None or net.prefixlen > best[0]):
            best = (net.prefixlen, hop)
    return bytes(best[1]) if best else b"\xee\xee"


tables = [(routes(a.rsplit(":", 1)[0]), int(a.rsplit(":", 1)[1]))
          for a in sys.argv[3:]]
ins, outs = list(frames(sys.argv[1])), list(frames(sys.argv[2]))
bad = [] if len(ins) == len(outs) else ["%d frames in" % len(ins)]
for n, (i, o) in enumerate(zip(ins, outs)):
    dst = ADDRS[n] if n < len(ADDRS) else ipaddress.ip_address(i[30:34])
    want = bytearray(i)
    for table, at in tables:
        want[at:at + 2] = lookup(table, ipaddress.ip_address(dst))
    if o != want:
        bad.append("frame %d: %s, expected %s" % (n, o[:4].hex(), want[:4].hex()))
print("%d frames, %d agree" % (len(outs), len(outs) - len(bad)))
print("\n".join(bad[:10]))
