"""npsmith fuzz: generate programs from a range of seeds, check each on
every target (smith.run), keep the failing cases, summarise.

Each seed is one case: smith.gen writes the program and its manifest,
smith.traffic its inputs, smith.run checks it. A failing case is copied
whole to WORK/failures/<seed>/ with a reason.txt, ready for `npsmith run`
and `npsmith-reduce`; the others are removed unless --keep. With -j the
cases run in that many processes.
"""
import collections
import importlib
import importlib.util
import multiprocessing
import os
import shutil
import sys
import time
import traceback

from . import coverage, run, traffic


def generate(seed, explore=False):
    """smith.gen.generate, imported when first needed so that the other
    subcommands work without the generator."""
    if importlib.util.find_spec(__package__ + ".gen") is None:
        raise SystemExit("npsmith: the generator (smith.gen) is missing")
    gen = importlib.import_module(__package__ + ".gen")
    return gen.generate(seed, explore)


class Job:
    """What a worker process needs to check one seed."""

    def __init__(self, args, tools, targets):
        self.work = os.path.abspath(args.work)
        self.explore = args.explore
        self.keep = args.keep
        self.tools = tools
        self.targets = targets
        self.hls_every = max(1, getattr(args, "hls_every", 1))
        self.sim_every = max(1, getattr(args, "sim_every", 1))
        self.coverage = getattr(args, "coverage", True)

    def __call__(self, seed):
        case_dir = os.path.join(self.work, "cases", str(seed))
        runs = os.path.join(self.work, "runs", str(seed))
        out = {"seed": seed, "failures": [], "ran": [], "skipped": {},
               "times": {}, "ops": {}, "builtins": {}}
        try:
            start = time.monotonic()
            case = generate(seed, self.explore)
            shutil.rmtree(case_dir, ignore_errors=True)
            os.makedirs(case_dir)
            case.write(case_dir)
            traffic.write_inputs(case_dir, case.manifest)
            out["times"]["gen"] = round(time.monotonic() - start, 3)
            if self.coverage:
                start = time.monotonic()
                ops, calls = coverage.case_counts(case_dir, self.tools)
                out["times"]["coverage"] = round(time.monotonic() - start,
                                                 3)
                out["ops"], out["builtins"] = dict(ops), dict(calls)
            targets = [t for t in self.targets
                       if (t != "hls" or seed % self.hls_every == 0) and
                       (t not in run.SIM or seed % self.sim_every == 0)]
            r = run.check_case(case_dir, targets=targets,
                               tools=self.tools, work=runs)
        except Exception:
            out["failures"].append(("gen", "crash", traceback.format_exc()))
            return out
        out["failures"] = [(f.target, f.kind, f.detail) for f in r.failures]
        out["ran"], out["skipped"] = r.ran, r.skipped
        out["times"].update(r.times)
        if out["failures"]:
            keep_failure(self.work, seed, case_dir, out["failures"])
        if not self.keep:
            shutil.rmtree(case_dir, ignore_errors=True)
            shutil.rmtree(runs, ignore_errors=True)
        return out


def keep_failure(work, seed, case_dir, failures):
    dest = os.path.join(work, "failures", str(seed))
    shutil.rmtree(dest, ignore_errors=True)
    shutil.copytree(case_dir, dest)
    with open(os.path.join(dest, "reason.txt"), "w") as f:
        for target, kind, detail in failures:
            f.write("%s %s\n%s\n\n" % (target, kind, detail.rstrip()))


def progress_line(k, total, out):
    seed = out["seed"]
    if out["failures"]:
        first = out["failures"][0]
        return "[%d/%d] seed %d: FAIL %s %s (%d failures)" % (
            k, total, seed, first[0], first[1], len(out["failures"]))
    skipped = "".join(", %s skipped" % t for t in sorted(out["skipped"]))
    return "[%d/%d] seed %d: ok on %s%s, %.1f s" % (
        k, total, seed, " ".join(out["ran"]) or "nothing", skipped,
        sum(out["times"].values()))


def summary(results, targets, seconds):
    lines = ["npsmith: %d programs in %.0f s" % (len(results), seconds)]
    for t in targets:
        ran = sum(1 for r in results if t in r["ran"])
        skipped = collections.Counter(r["skipped"][t] for r in results
                                      if t in r["skipped"])
        lines.append("  %-12s ran %d, skipped %d" % (t, ran,
                                                     sum(skipped.values())))
        for why, n in skipped.most_common(5):
            lines.append("    %d: %s" % (n, why[:100]))
    kinds = collections.Counter((f[0], f[1]) for r in results
                                for f in r["failures"])
    if kinds:
        lines.append("failures by kind:")
        for (t, k), n in sorted(kinds.items()):
            lines.append("  %s %s: %d" % (t, k, n))
    else:
        lines.append("failures: none")
    steps = collections.defaultdict(list)
    for r in results:
        for step, s in r["times"].items():
            steps[step].append(s)
    if steps:
        lines.append("seconds per program (mean, max):")
        for step, v in steps.items():
            lines.append("  %-15s %.3f %.3f" % (step, sum(v) / len(v),
                                                max(v)))
    return "\n".join(lines)


def main(args, tools, targets):
    """Runs `npsmith fuzz`; returns the exit status."""
    if args.programs:
        generate(args.seed, args.explore)  # a missing generator, early
    os.makedirs(args.work, exist_ok=True)
    seeds = list(range(args.seed, args.seed + args.programs))
    job = Job(args, tools, targets)
    start = time.monotonic()
    results = []
    counter = args.quiet and sys.stdout.isatty()
    pool = multiprocessing.Pool(args.jobs) if args.jobs > 1 else None
    it = pool.imap_unordered(job, seeds) if pool else map(job, seeds)
    try:
        for k, out in enumerate(it, 1):
            results.append(out)
            if args.quiet:
                # A counter rewritten in place on a terminal; into a file
                # it would be one line of every count, so nothing there.
                if counter:
                    sys.stdout.write("\r%d/%d programs, %d failing" % (
                        k, len(seeds), sum(1 for r in results
                                           if r["failures"])))
            else:
                print(progress_line(k, len(seeds), out))
            sys.stdout.flush()
    finally:
        if pool:
            pool.terminate()
    if counter:
        print()
    results.sort(key=lambda r: r["seed"])
    print(summary(results, targets, time.monotonic() - start))
    if job.coverage:
        report = coverage.Report()
        for r in results:
            report.add(r["ops"], r["builtins"])
        print(coverage.format_report(report))
    failing = [r for r in results if r["failures"]]
    work = os.path.abspath(args.work)
    for r in failing:
        d = os.path.join(work, "failures", str(r["seed"]))
        print("failing seed %d: %s" % (r["seed"], "; ".join(
            "%s %s" % (t, k) for t, k, _ in r["failures"])))
        print("  reproduce: npsmith run %s%s" % (
            d, " --npcc " + tools.npcc))
        print("  reduce:    npsmith-reduce %s" % d)
    return 1 if failing else 0
