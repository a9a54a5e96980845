#!/usr/bin/env python3
"""Checks an estimate of examples/pcsa/pcsa.np against the trace.

usage: check.py TRACE.pcap ESTIMATE [--log2m K] [--max-error PCT]

ESTIMATE is the number `./pcsa --in TRACE.pcap -h pcsa.estimate` printed
(or a file holding it). Independently of npcc, this script

  * counts the distinct IPv4 source addresses of the trace exactly (bytes
    26..29 of every Ethernet frame of ethertype 0x0800, 30 bytes or more:
    the frames the element hashes);
  * rebuilds the sketch (zlib's CRC-32, the bitmaps) and computes the
    estimator twice: bit for bit as pcsa.np does in Q30 fixed point, which
    must equal ESTIMATE, and in floating point, which shows the precision
    of the fixed point;
  * prints one line and exits 1 if the relative error |E - N| / N is above
    PCT percent (default 3) or the fixed-point model disagrees.
"""
import argparse
import math
import os
import sys
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "scripts"))
import pcap_frames  # noqa: E402

PHI = 0.77351
KAPPA = 1.75
FRAC = 16
POW2 = [round(2 ** (2 ** k / 2 ** FRAC) * 2 ** 30) for k in range(FRAC)]
LN2 = round(math.log(2) * 2 ** 30)


def ipv4_sources(path):
    for frame in pcap_frames.frames(path, "check.py: "):
        src = pcap_frames.ipv4_source(frame)
        if src is not None:
            yield src


def sketch(sources, log2m):
    low = 32 - log2m
    bitmap = [0] * (1 << log2m)
    for src in sources:
        h = zlib.crc32(src)
        x = (~h & 0xFFFFFFFF) | (1 << low)
        r = (x & -x).bit_length() - 1  # trailing ones of h, at most `low`
        bitmap[h >> low] |= 1 << r
    return bitmap


def trailing_ones(x):
    r = 0
    while (x >> r) & 1:
        r += 1
    return r


def pow2frac(f):
    x = 1 << 30
    for k in range(FRAC):
        if (f >> k) & 1:
            x = (x * POW2[k] + (1 << 29)) >> 30
    return x


def log2q30(v):
    k = v.bit_length() - 1
    x, l = v << (30 - k), k << 30
    for b in range(30):
        x = (x * x) >> 30
        if x >= 1 << 31:
            x >>= 1
            l |= 1 << (29 - b)
    return l


def fixed_estimate(bitmap, log2m):
    """pcsa.np's `estimate` handler, step for step."""
    m = 1 << log2m
    a = sum(trailing_ones(x) for x in bitmap)
    v = sum(1 for x in bitmap if x == 0)
    if v > 0:
        d = (log2m << 30) - log2q30(v)
        shift = 60 - log2m
        lc = (d * LN2 + (1 << (shift - 1))) >> shift
        if 2 * lc <= 5 * m:
            return lc, "linear counting"
    e1 = a << (FRAC - log2m)
    pos = pow2frac(e1 & 0xFFFF) << (e1 >> FRAC)
    e2 = (7 * a) << (FRAC - 2 - log2m)
    q, f = e2 >> FRAC, e2 & 0xFFFF
    if f == 0:
        neg = (1 << 30) >> q
    else:
        neg = pow2frac(65536 - f) >> (q + 1) if q + 1 < 64 else 0
    d = pos - neg
    c = m * 100000
    num = (d >> 30) * c + (((d & 0x3FFFFFFF) * c) >> 30)
    return (num + 77351 // 2) // 77351, "PCSA"


def float_estimate(bitmap, log2m):
    m = 1 << log2m
    a = sum(trailing_ones(x) for x in bitmap)
    v = sum(1 for x in bitmap if x == 0)
    if v > 0 and m * math.log(m / v) <= 2.5 * m:
        return m * math.log(m / v)
    return m / PHI * (2 ** (a / m) - 2 ** (-KAPPA * a / m))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("trace")
    ap.add_argument("estimate")
    ap.add_argument("--log2m", type=int, default=13)
    ap.add_argument("--max-error", type=float, default=3.0)
    args = ap.parse_args()
    try:
        with open(args.estimate) as f:
            text = f.read()
    except OSError:
        text = args.estimate
    estimate = int(text.split()[-1])

    sources = list(ipv4_sources(args.trace))
    n = len(set(sources))
    bitmap = sketch(sources, args.log2m)
    model, branch = fixed_estimate(bitmap, args.log2m)
    exact = float_estimate(bitmap, args.log2m)
    err = (estimate - n) / n * 100 if n else 0.0
    ok = abs(err) <= args.max_error and model == estimate
    print("pcsa: ipv4=%d distinct=%d estimate=%d error=%+.2f%% (bound %g%%, %s) "
          "model=%s float=%.2f %s" %
          (len(sources), n, estimate, err, args.max_error, branch,
           "same" if model == estimate else "DIFFERS(%d)" % model, exact,
           "ok" if ok else "FAIL"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
