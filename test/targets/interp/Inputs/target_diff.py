#!/usr/bin/env python3
"""Runs NPL programs on the C target and on the reference interpreter.

    target_diff.py [--outs N] [--in PCAP]... [--arg ARG]... [-D X=V]...
                   [--c-flag FLAG]... --workdir DIR PROGRAM.np...

Each program is compiled with `npcc --target=c` and run as an executable,
then run with `npcc --target=interp`, both with the same inputs, N output
files and --stats-json. The two runs must agree on the exit code, on every
output pcap byte for byte, on stdout and stderr (the statistics table and
diagnostics, npcc's warnings included, with file names of the run
replaced) and on every counter of
the statistics JSON (but the measured cycles), by the rules of npsmith's
differential runner (tools/npsmith/smith/compare.py). Prints one line per program and exits 1 on the first
difference, naming it.
"""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "..", "tools", "npsmith"))
from smith.compare import normalise, stats_without_files  # noqa: E402


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


def compare(prog, args, workdir):
    base = os.path.join(workdir, os.path.basename(prog).rsplit(".", 1)[0])
    exe = base + ".exe"
    build = run(["npcc", prog, "--target=c", "-o", exe] + args.define +
                args.c_flag)
    if args.only_graphs and "no top-level graph" in build.stderr:
        return "skip"
    if build.returncode != 0:
        return "C target failed to build:\n" + build.stderr
    runs = {}
    for kind in ("c", "interp"):
        outs = ["%s.%s.%d.pcap" % (base, kind, k) for k in range(args.outs)]
        stats = "%s.%s.json" % (base, kind)
        flags = []
        for p in args.inputs:
            flags += ["--in", p]
        for o in outs:
            flags += ["--out", o]
        flags += ["--stats-json", stats] + args.arg
        if kind == "c":
            cmd = [exe] + flags
        else:
            cmd = ["npcc", prog, "--target=interp"] + args.define + flags
        r = run(cmd)
        names = [(o, "OUT%d" % k) for k, o in enumerate(outs)]
        names.append((os.path.basename(exe), "PROG"))
        names.append((os.path.basename(prog).rsplit(".", 1)[0], "PROG"))
        runs[kind] = (r, outs, stats, names)
    (rc, couts, cstats, cnames), (ri, iouts, istats, inames) = (
        runs["c"], runs["interp"])
    if rc.returncode != ri.returncode:
        return "exit code: C %d, interpreter %d\nC stderr:\n%s\ninterp stderr:\n%s" % (
            rc.returncode, ri.returncode, rc.stderr, ri.stderr)
    for k, (a, b) in enumerate(zip(couts, iouts)):
        da = open(a, "rb").read() if os.path.exists(a) else None
        db = open(b, "rb").read() if os.path.exists(b) else None
        # Both runs create every --out file before the first packet moves:
        # a file missing from both is a match only for a run that failed.
        if da is None and db is None and rc.returncode == 0:
            return "output %d written by neither run (%s, %s)" % (k, a, b)
        if da != db:
            return "output %d differs (%s vs %s)" % (k, a, b)
    for stream in ("stdout", "stderr"):
        # npcc's warnings come with the build on one side, the run on the
        # other.
        ta = normalise((build.stderr if stream == "stderr" else "") +
                       getattr(rc, stream), cnames)
        tb = normalise(getattr(ri, stream), inames)
        if ta != tb:
            return "%s differs:\nC:\n%s\ninterpreter:\n%s" % (stream, ta, tb)
    if os.path.exists(cstats) != os.path.exists(istats):
        return "only one run wrote its statistics"
    if os.path.exists(cstats):
        with open(cstats) as fa, open(istats) as fb:
            sa = stats_without_files(json.load(fa))
            sb = stats_without_files(json.load(fb))
        if sa != sb:
            return "statistics differ:\nC: %s\ninterpreter: %s" % (
                json.dumps(sa), json.dumps(sb))
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("programs", nargs="+")
    ap.add_argument("--in", dest="inputs", action="append", default=[])
    ap.add_argument("--outs", type=int, default=3)
    ap.add_argument("--arg", action="append", default=[],
                    help="a further flag for both runs")
    ap.add_argument("--c-flag", action="append", default=[],
                    help="a further npcc flag for the C build only")
    ap.add_argument("-D", dest="define", action="append", default=[],
                    type=lambda v: "-D" + v)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--only-graphs", action="store_true",
                    help="skip programs without a top-level graph")
    args = ap.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    failed = False
    for prog in args.programs:
        why = compare(prog, args, args.workdir)
        name = os.path.basename(prog)
        if why == "skip":
            print("skipped %s: no graph" % name)
        elif why:
            print("DIFFERENT %s: %s" % (name, why))
            failed = True
        else:
            print("same %s" % name)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
