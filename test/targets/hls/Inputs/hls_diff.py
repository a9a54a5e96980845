#!/usr/bin/env python3
"""Differential test of the HLS target against the reference interpreter.

For each NPL program: npcc --target=hls, `make csim.out`, then the C
simulation and `npcc --target=interp` on the same npgen traffic, each in a
directory of its own (programs may write pcaps named in their source); every
pcap either writes must be byte for byte the same. A program the HLS
target rejects with one of its documented errors is reported as SKIP with
the reason; any other failure is a FAIL.

usage: hls_diff.py --work DIR --traffic PCAP PROGRAM...
Prints one line per program and `hls-diff: N same, N skipped, N failed`.
"""

import argparse
import filecmp
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "..", "tools", "npsmith"))
from smith.hlsproject import devices, rejection  # noqa: E402


def run(cmd, cwd=None):
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)


def check(program, work, traffic):
    name = os.path.splitext(os.path.basename(program))[0]
    base = os.path.join(work, name)
    proj = base + ".project"
    r = run(["npcc", program, "--target=hls", "-o", proj])
    if r.returncode != 0:
        why = rejection(r.stderr)
        if why:
            return "SKIP", why
        return "FAIL", "npcc --target=hls: " + r.stderr.strip()[:400]
    r = run(["make", "-s", "-C", proj, "csim.out"])
    if r.returncode != 0:
        return "FAIL", "make csim.out: " + r.stderr.strip()[:400]
    with open(os.path.join(proj, "tb.cpp")) as f:
        tb = f.read()
    args = []
    for d, path in devices(tb, "inputs"):
        if path == "nullptr":
            args.append("--in=%d=%s" % (d, traffic))
    for d, path in devices(tb, "outputs"):
        if path == "nullptr":
            args.append("--out=%d=out%d.pcap" % (d, d))
    dirs = {}
    for kind, cmd in (("csim", [os.path.join(proj, "csim.out")] + args),
                      ("ref", ["npcc", program, "--target=interp", "--quiet"] + args)):
        d = base + "." + kind
        os.makedirs(d, exist_ok=True)
        for f in os.listdir(d):
            os.remove(os.path.join(d, f))
        r = run(cmd, cwd=d)
        if r.returncode != 0:
            return "FAIL", "%s run: %s" % (kind, (r.stderr or r.stdout).strip()[:400])
        dirs[kind] = d
    hls = sorted(f for f in os.listdir(dirs["csim"]) if f.endswith(".pcap"))
    ref = sorted(f for f in os.listdir(dirs["ref"]) if f.endswith(".pcap"))
    if hls != ref:
        return "FAIL", "pcaps written differ: %s vs %s" % (hls, ref)
    for f in ref:
        if not filecmp.cmp(os.path.join(dirs["csim"], f),
                           os.path.join(dirs["ref"], f), shallow=False):
            return "FAIL", "%s differs" % f
    return "SAME", "%d pcaps" % len(ref)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", required=True)
    ap.add_argument("--traffic", required=True)
    ap.add_argument("programs", nargs="+")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    traffic = os.path.abspath(a.traffic)
    counts = {"SAME": 0, "SKIP": 0, "FAIL": 0}
    for p in a.programs:
        verdict, why = check(os.path.abspath(p), a.work, traffic)
        counts[verdict] += 1
        print("%s %s: %s" % (verdict, os.path.basename(p), why), flush=True)
    print("hls-diff: %d same, %d skipped, %d failed" %
          (counts["SAME"], counts["SKIP"], counts["FAIL"]))
    return 1 if counts["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main())
