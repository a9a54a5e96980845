#!/usr/bin/env python3
"""Checks timers.np's output: every trace packet says how many 10 ms timer
runs preceded it, and the timer's own packets come in time order.

usage: check_timers.py IN.pcap OUT.pcap
"""
import struct
import sys


def records(path):
    data = open(path, "rb").read()
    nano = data[:4] in (b"\x4d\x3c\xb2\xa1", b"\xa1\xb2\x3c\x4d")
    off, out = 24, []
    while off < len(data):
        sec, frac, caplen, _ = struct.unpack("<IIII", data[off:off + 16])
        ts = sec * 10**9 + frac * (1 if nano else 1000)
        out.append((ts, data[off + 16:off + 16 + caplen]))
        off += 16 + caplen
    return out


def main():
    ins, outs = records(sys.argv[1]), records(sys.argv[2])
    t0 = ins[0][0]
    trace = [r for r in outs if r[1][0] != 0xee]
    timer = [r for r in outs if r[1][0] == 0xee]
    errors = []
    if len(trace) != len(ins):
        errors.append("%d trace packets out of %d" % (len(trace), len(ins)))
    for k, ((ts, p), (ti, _)) in enumerate(zip(trace, ins)):
        elapsed = ts - t0
        if ts != ti:
            errors.append("packet %d: time stamp changed" % k)
        if p[20] != elapsed // 10**7:
            errors.append("packet %d: %d timer runs, expected %d" %
                          (k, p[20], elapsed // 10**7))
        if p[21] != 1 or p[22] != (elapsed // 10**6) % 256:
            errors.append("packet %d: clock %d, ms %d" % (k, p[21], p[22]))
    # Timer packets: at the deadlines 30, 50 and 80 ms after the first
    # packet (every 10 ms, sent when 25 ms or more passed and the time
    # modulo 25 ms is under 10 ms), numbered 0, 1, 2.
    want = [30, 50, 80]
    got = [(ts - t0) // 10**6 for ts, _ in timer]
    if got != want or [p[1] for _, p in timer] != list(range(len(want))):
        errors.append("timer packets at %s ms, expected %s" % (got, want))
    stamps = [ts for ts, _ in outs]
    if stamps != sorted(stamps):
        errors.append("output not in time order")
    for e in errors:
        print(e)
    if errors:
        return 1
    print("%d packets, %d timer packets, all in time order" %
          (len(trace), len(timer)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
