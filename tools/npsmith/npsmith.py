#!/usr/bin/env python3
"""npsmith: random NPL programs checked on every target (docs/npsmith.md)

The reference interpreter is the oracle; a difference, crash, sanitizer
report or hang on any other target is a failure.

  npsmith gen --seed S [--explore] -o DIR       write one case
  npsmith traffic DIR                           (re)write its input pcaps
  npsmith run DIR [--targets T,...]             check one case
  npsmith fuzz --seed S --programs N [-j J]     generate and check many
  npsmith coverage DIR...                       np ops and builtins reached
"""
import argparse
import collections
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from smith import coverage, fuzz, run, traffic  # noqa: E402
from smith.tools import Tools, stop_on_sigterm  # noqa: E402


def parse_targets(text):
    targets = [t for t in text.split(",") if t] if text else list(run.TARGETS)
    bad = [t for t in targets if t not in run.TARGETS]
    if bad:
        raise SystemExit("npsmith: unknown target %s (known: %s)" %
                         (", ".join(bad), ", ".join(run.TARGETS)))
    return targets


def add_tool_flags(p):
    p.add_argument("--targets", help="comma-separated, of %s (default all)"
                   % ",".join(run.TARGETS))
    p.add_argument("--npcc", help="the npcc to test, or its build "
                   "directory (default: next to npsmith, else on PATH)")
    p.add_argument("--timeout", type=float, default=30.0,
                   help="seconds a run may take before it is a hang")
    p.add_argument("--c-flag", action="append", default=[],
                   help="an npcc flag for the C target's build only "
                   "(repeatable)")


def tools_of(a):
    return Tools(a.npcc, timeout=a.timeout, c_flags=a.c_flag)


def cmd_gen(a):
    if a.constructs:
        return gen_constructs(a)
    if not a.output:
        print("npsmith gen: error: -o DIR is required", file=sys.stderr)
        return 2
    case = fuzz.generate(a.seed, a.explore)
    os.makedirs(a.output, exist_ok=True)
    case.write(a.output)
    traffic.write_inputs(a.output, case.manifest)
    print(a.output)
    return 0


def gen_constructs(a):
    """What the generator writes over `--constructs N` seeds from --seed,
    without compiling anything: each construct with the number of programs
    that have it, then the builtins of Builtins.def none of them calls."""
    seen = collections.Counter()
    for seed in range(a.seed, a.seed + a.constructs):
        case = fuzz.generate(seed, a.explore)
        seen.update({k: 1 for k in case.coverage})
    for name in sorted(seen):
        print("%s %d" % (name, seen[name]))
    root = coverage.source_root()
    names = coverage.all_builtins(root) if root else []
    never = [b for b in names if "builtin " + b not in seen]
    print("builtins never written: %s" % (" ".join(never) or "none"))
    return 0


def cmd_traffic(a):
    with open(os.path.join(a.dir, "manifest.json")) as f:
        manifest = json.load(f)
    for p in traffic.write_inputs(a.dir, manifest):
        print(p)
    return 0


def cmd_run(a):
    ensure_inputs(a.dir)
    r = run.check_case(a.dir, program=a.program, targets=parse_targets(
        a.targets), tools=tools_of(a), work=a.work)
    for t in r.ran:
        print("ran %s" % t)
    for t, why in sorted(r.skipped.items()):
        print("skipped %s: %s" % (t, why))
    for f in r.failures:
        print("FAIL %s" % f)
    if a.times:
        print("times: " + " ".join("%s=%.3f" % kv for kv in r.times.items()))
    print("%s: %s" % (a.dir, "ok" if r.ok else "%d failures" %
                      len(r.failures)))
    return 0 if r.ok else 1


def ensure_inputs(case_dir):
    """Writes the inputs a case directory lacks (they follow from its
    manifest, so a case can be kept or written by hand without them)."""
    with open(os.path.join(case_dir, "manifest.json")) as f:
        manifest = json.load(f)
    if any(not os.path.exists(os.path.join(case_dir, "in%d.pcap" %
                                           s.get("device", 0)))
           for s in manifest.get("inputs", [])):
        traffic.write_inputs(case_dir, manifest)


def cmd_fuzz(a):
    return fuzz.main(a, tools_of(a), parse_targets(a.targets))


def cmd_coverage(a):
    tools = Tools(a.npcc)
    report = coverage.collect(a.dirs, tools)
    print(coverage.format_report(report, verbose=a.verbose))
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="npsmith", description=__doc__.split("\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)

    p = sub.add_parser("gen", help="write one generated case")
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--explore", action="store_true",
                   help="also draw near the documented limits")
    p.add_argument("-o", "--output", help="the case directory to write")
    p.add_argument("--constructs", type=int, metavar="N",
                   help="write nothing: count the constructs of N programs "
                   "from --seed on, and the builtins none of them calls")
    p.set_defaults(fn=cmd_gen)

    p = sub.add_parser("traffic", help="write a case's input pcaps")
    p.add_argument("dir")
    p.set_defaults(fn=cmd_traffic)

    p = sub.add_parser("run", help="check one case on every target")
    p.add_argument("dir")
    p.add_argument("--program", help="a program to run in place of prog.np")
    p.add_argument("--work", help="keep the runs' directories here")
    p.add_argument("--times", action="store_true",
                   help="print the seconds of each step")
    add_tool_flags(p)
    p.set_defaults(fn=cmd_run)

    p = sub.add_parser("fuzz", help="generate and check many programs")
    p.add_argument("--seed", type=int, default=0, help="the first seed")
    p.add_argument("--programs", type=int, default=100)
    p.add_argument("-j", "--jobs", type=int, default=1)
    p.add_argument("--work", default="npsmith-work")
    p.add_argument("--explore", action="store_true")
    p.add_argument("--keep", action="store_true",
                   help="keep every case and its runs, not only failures")
    p.add_argument("--quiet", action="store_true",
                   help="a counter on a terminal, nothing elsewhere, not a "
                   "line per program")
    p.add_argument("--no-coverage", dest="coverage", action="store_false",
                   help="no coverage report (saves an npcc --target=mlir "
                   "per program)")
    p.add_argument("--hls-every", type=int, default=1, metavar="K",
                   help="run the hls target on every K-th seed only (its "
                   "C simulation's build is most of a case's time)")
    p.add_argument("--sim-every", type=int, default=1, metavar="K",
                   help="run the npsim targets (sim1, sim4) on every K-th "
                   "seed only (their build is a second C build per "
                   "case)")
    add_tool_flags(p)
    p.set_defaults(fn=cmd_fuzz)

    p = sub.add_parser("coverage", help="np ops and builtins the cases "
                       "reached")
    p.add_argument("dirs", nargs="+", help="case directories, or "
                   "directories holding them")
    p.add_argument("--npcc")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="list every op and builtin with its count")
    p.set_defaults(fn=cmd_coverage)

    # The top-level --help shows every subcommand's flags.
    ap.epilog = "subcommands:\n" + "".join(
        "  " + p.format_usage().replace("usage: ", "", 1)
        for p in sub.choices.values())
    a = ap.parse_args(argv)
    stop_on_sigterm()
    return a.fn(a)


if __name__ == "__main__":
    sys.exit(main())
