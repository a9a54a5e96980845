"""Independent answers for examples/network-functions on a pcap: the
number of distinct IPv4 sources, and how many frames a token bucket of
RATE bytes/s and BURST bytes passes (whole tokens earned per interval of
the frames' nanosecond time stamps, as the element computes them).

usage: nf_model.py PCAP RATE BURST
"""
import struct
import sys

data = open(sys.argv[1], "rb").read()
rate, burst = int(sys.argv[2]), int(sys.argv[3])
nano = struct.unpack("<I", data[:4])[0] == 0xA1B23C4D
off, sources, passed = 24, set(), 0
tokens, last, started = 0, 0, False
while off < len(data):
    sec, frac, caplen, _ = struct.unpack("<IIII", data[off:off + 16])
    frame = data[off + 16:off + 16 + caplen]
    off += 16 + caplen
    t = sec * 1_000_000_000 + (frac if nano else frac * 1000)
    if frame[12:14] == b"\x08\x00" and len(frame) >= 34:
        sources.add(frame[26:30])
    if not started:
        started, tokens = True, burst
    elif t > last:
        tokens = min(burst, tokens + (t - last) * rate // 1_000_000_000)
    last = t
    if tokens >= len(frame):
        tokens -= len(frame)
        passed += 1
print("sources %d" % len(sources))
print("passed %d" % passed)
