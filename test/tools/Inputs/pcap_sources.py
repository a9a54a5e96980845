#!/usr/bin/env python3
"""Counts the distinct IPv4 source addresses of a pcap, independently of
npgen and npdump: reads the records with the struct module and takes bytes
26..29 of every Ethernet frame whose ethertype is 0x0800.

usage: pcap_sources.py FILE [--first K]

Prints one line of words:
  frames=F ipv4=I distinct=D first=K:DK adjacent=A span=S
where DK is the number of distinct sources among the first K IPv4 frames
(K defaults to D), A the number of sorted neighbours that differ by 1
(sequential addresses), and S = (max - min) of the sources.
"""
import struct
import sys


def sources(path):
    with open(path, "rb") as f:
        data = f.read()
    magic = data[:4]
    if magic in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1"):
        end = "<"
    elif magic in (b"\xa1\xb2\xc3\xd4", b"\xa1\xb2\x3c\x4d"):
        end = ">"
    else:
        sys.exit("not a pcap file: " + path)
    off = 24
    frames = 0
    out = []
    while off + 16 <= len(data):
        _, _, caplen, _ = struct.unpack(end + "IIII", data[off:off + 16])
        frame = data[off + 16:off + 16 + caplen]
        off += 16 + caplen
        frames += 1
        if len(frame) >= 30 and frame[12:14] == b"\x08\x00":
            out.append(struct.unpack(">I", frame[26:30])[0])
    return frames, out


def main():
    path = sys.argv[1]
    first = None
    if len(sys.argv) > 3 and sys.argv[2] == "--first":
        first = int(sys.argv[3])
    frames, srcs = sources(path)
    distinct = sorted(set(srcs))
    k = len(distinct) if first is None else first
    adjacent = sum(1 for a, b in zip(distinct, distinct[1:]) if b - a == 1)
    span = distinct[-1] - distinct[0] if distinct else 0
    print(f"frames={frames} ipv4={len(srcs)} distinct={len(distinct)} "
          f"first={k}:{len(set(srcs[:k]))} adjacent={adjacent} span={span}")


if __name__ == "__main__":
    main()
