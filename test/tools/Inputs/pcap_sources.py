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
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "scripts"))
import pcap_frames  # noqa: E402


def sources(path):
    frames = 0
    out = []
    for frame in pcap_frames.frames(path, ""):
        frames += 1
        src = pcap_frames.ipv4_source(frame)
        if src is not None:
            out.append(struct.unpack(">I", src)[0])
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
