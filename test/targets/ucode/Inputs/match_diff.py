"""Differential test of the match-unit compiler on generated match programs.

For every seed in [SEED, SEED + PROGRAMS): match_gen.py draws a program, its
headers and its list, and evaluates the program in Python by NPL semantics.
Then
  npcc --target=interp   (the reference interpreter of the match dialect)
must give the Python answer (a difference is a front-end or interpreter
bug), and
  npcc --target=ucode + musim
must give the same answer as well (a difference is a back-end bug, and the
failure names the pass that changed the answer, from npcc
--check-each-pass), unless
npcc refuses the program with a diagnostic (counted by reason; a refusal
must be a documented hardware limit). A crash (a signal, an exit status
other than 0 and 1, or a message without a source location) or a hang
(--timeout seconds) is a failure too.

Prints a summary (programs, compiled, refused by reason, mismatches,
crashes, hangs, mean cycles per item traversed on musim) and exits 1 on any
failure. Failing cases are listed with their files (kept in WORKDIR).

With --calls, the programs also declare and call functions and use the
bit built-ins (match_gen.generate(seed, calls=True)).

usage: match_diff.py NPCC MUSIM WORKDIR [--seed S] [--programs N] [--calls]
                     [--max-refused PERCENT] [--timeout SECONDS] [--quiet]
"""
import argparse
import collections
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import match_gen  # noqa: E402


def reason_of(stderr):
    """The refusal message without its location and program details."""
    for line in stderr.splitlines():
        m = re.search(r"error: (.*)", line)
        if m:
            msg = m.group(1)
            msg = re.sub(r"'(?!arith\.)[^']*'", "'_'", msg)
            msg = re.sub(r"\b\d+\b", "N", msg)
            return msg
    return stderr.strip().splitlines()[0] if stderr.strip() else "(no message)"


def located(stderr):
    return re.search(r"^[^:\s]+:\d+:\d+: error: ", stderr, re.M) is not None


def run(cmd, timeout):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return None, "", "timeout"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("npcc")
    ap.add_argument("musim")
    ap.add_argument("work")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--calls", action="store_true",
                    help="functions and bit built-ins in the programs")
    ap.add_argument("--programs", type=int, default=100)
    ap.add_argument("--max-refused", type=float, default=100.0)
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--keep", action="store_true",
                    help="keep the files of passing programs too")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--list-refused", action="store_true",
                    help="print the seed and reason of every refusal")
    ap.add_argument("--progress", type=int, default=0,
                    help="print a summary line every N programs")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)

    refused = collections.Counter()
    failures = []
    compiled = headers_seen = matched = 0
    cycles = items = 0
    crashes = hangs = mismatches = 0
    for seed in range(args.seed, args.seed + args.programs):
        done = seed - args.seed
        if args.progress and done and done % args.progress == 0:
            print("progress: %d programs, %d compiled, %d refused, %d mismatches, "
                  "%d crashes, %d hangs, %d failures" % (
                      done, compiled, sum(refused.values()), mismatches,
                      crashes, hangs, len(failures)), flush=True)
        text, evaluate, headers, items_ = match_gen.generate(seed, args.calls)
        want = match_gen.expected(evaluate, headers, items_)
        base = os.path.join(args.work, "m%d" % seed)
        with open(base + ".np", "w") as f:
            f.write(text)
        match_gen.write_words(base + ".list", items_)
        match_gen.write_words(base + ".headers", headers)
        files = ["--list", base + ".list", "--headers", base + ".headers"]

        def failure(kind, detail):
            failures.append("%s seed %d: %s (%s.np)" % (kind, seed, detail, base))

        def first_difference(got):
            bad = [i for i in range(len(want)) if i >= len(got) or got[i] != want[i]]
            return "want %s, got %s" % (
                want[bad[0]], got[bad[0]] if bad[0] < len(got) else "nothing")

        def run_step(cmd, what):
            """Runs one step; None (a hang, counted and reported) or its
            (exit status, stdout, stderr)."""
            nonlocal hangs
            rc, out, err = run(cmd, args.timeout)
            if rc is None:
                hangs += 1
                failure("HANG", what)
                return None
            return rc, out, err

        def culprit():
            # The interpreter after every pass names the pass that changed
            # the answer (npcc --check-each-pass).
            rc, _, err = run([args.npcc, base + ".np", "--target=ucode", "-o",
                              base + ".check.mu", "--check-each-pass"] + files,
                             args.timeout)
            m = re.search(r"--check-each-pass: (.*)", err)
            return "; " + m.group(1)[:300] if m else ""

        step = run_step([args.npcc, base + ".np", "--target=interp"] + files,
                        "npcc --target=interp")
        if step is None:
            continue
        rc, out, err = step
        if rc != 0:
            # The generator only writes well-typed programs.
            crashes += 1
            failure("REJECTED" if rc == 1 else "CRASH",
                    "npcc --target=interp: " + err.strip()[:300])
            continue
        got = out.splitlines()
        if got != want:
            mismatches += 1
            failure("MISMATCH(interp)", first_difference(got))
            continue
        headers_seen += len(want)
        matched += sum(1 for w in want if "no match" not in w)

        step = run_step([args.npcc, base + ".np", "--target=ucode", "-o",
                         base + ".mu"], "npcc --target=ucode")
        if step is None:
            continue
        rc, out, err = step
        if rc != 0:
            if rc == 1 and located(err):
                refused[reason_of(err)] += 1
                if args.list_refused:
                    print("refused seed %d: %s" % (seed, reason_of(err)),
                          flush=True)
                if not args.keep:
                    for ext in (".np", ".list", ".headers"):
                        os.remove(base + ext)
                continue
            crashes += 1
            failure("CRASH", "npcc --target=ucode exit %d: %s" % (rc, err.strip()[:300]))
            continue
        compiled += 1
        step = run_step([args.musim, base + ".mu", "--stats"] + files, "musim")
        if step is None:
            continue
        rc, out, err = step
        if rc != 0:
            mismatches += 1
            failure("MISMATCH(musim fault)", err.strip()[:300] + culprit())
            continue
        lines = [l for l in out.splitlines() if re.match(r"header \d+: ", l)]
        got = [re.sub(r" cycles \d+$", "", l) for l in lines]
        if got != want:
            mismatches += 1
            failure("MISMATCH(ucode)", first_difference(got) + culprit())
            continue
        for l in lines:
            m = re.search(r" cycles (\d+)$", l)
            cycles += int(m.group(1))
        for m in re.finditer(r"^header \d+ items (\d+)$", out, re.M):
            items += int(m.group(1))
        if not args.keep:
            for ext in (".np", ".list", ".headers", ".mu", ".lst"):
                os.remove(base + ext)

    n = args.programs
    nref = sum(refused.values())
    print("match programs: %d programs (seeds %d..%d), %d compiled, %d refused "
          "(%.1f%%), %d headers (%d matched)" % (
              n, args.seed, args.seed + n - 1, compiled, nref,
              100.0 * nref / max(n, 1), headers_seen, matched))
    print("mismatches %d, crashes %d, hangs %d" % (mismatches, crashes, hangs))
    if items:
        print("cycles per item traversed %.3f" % (cycles / items))
    if not args.quiet:
        for reason, count in refused.most_common():
            print("refused %d: %s" % (count, reason))
    for f in failures:
        print(f)
    bad = mismatches or crashes or hangs
    if 100.0 * nref / max(n, 1) > args.max_refused:
        print("too many refused: %.1f%% > %.1f%%" % (100.0 * nref / n,
                                                     args.max_refused))
        bad = True
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
