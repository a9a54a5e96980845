#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks the flit counts csim --stats prints against the flit format.

  flit_counts.py IN.pcap STATS NAME:LEAD[:clones] ...

Every instance NAME must have received each frame of IN.pcap, the first
LEAD bytes of it pulled off the front by a Strip before it (they travel
in front of the frame, as its lead). A packet of n stream bytes (lead and
frame) is max(1, ceil(n / 64)) flits; a receive
buffers those that cover the lead and the 128-byte header window, and the
rest go from the input stream to the output at the send (docs/hls-target.md,
"Flits"). With `clones`, the element clones every packet, so each packet
whose flits did not all arrive is read in whole (a spill).
"""
import struct
import sys

FLIT, WINDOW = 64, 128


def frames(path):
    data = open(path, "rb").read()
    at = 24
    while at < len(data):
        _, _, caplen, _ = struct.unpack_from("<IIII", data, at)
        yield caplen
        at += 16 + caplen


def flits(n):
    return max(1, (n + FLIT - 1) // FLIT)


stats = {}
for line in open(sys.argv[2]):
    words = line.split()
    if len(words) > 2 and words[1] == "runs":
        stats[words[0]] = dict(zip(words[1::2], map(int, words[2::2])))

lengths = list(frames(sys.argv[1]))
failed = False
for spec in sys.argv[3:]:
    name, lead, *flags = spec.split(":")
    lead = int(lead)
    want = {"received": len(lengths), "buffered_flits": 0,
            "streamed_flits": 0, "spills": 0}
    for n in lengths:
        total = flits(n)
        window = min(total, flits(lead + WINDOW))
        if "clones" in flags and total > window:
            want["spills"] += 1
            want["buffered_flits"] += total
        else:
            want["buffered_flits"] += window
            want["streamed_flits"] += total - window
    got = stats.get(name)
    if got is None:
        sys.exit(f"no counts for '{name}'")
    for key, value in want.items():
        if got[key] != value:
            print(f"{name}: {key} {got[key]}, expected {value}")
            failed = True
    if not failed:
        print(f"{name}: {want['buffered_flits']} buffered, "
              f"{want['streamed_flits']} streamed, {want['spills']} spills")
sys.exit(1 if failed else 0)
