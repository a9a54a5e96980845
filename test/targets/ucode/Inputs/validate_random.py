"""Translation validation of generated match programs.

Writes the programs of match_gen.py (the whole-language generator) for
seeds FIRST..FIRST+COUNT-1, compiles each
with `npcc --target=ucode --validate`, and prints one summary line: how many
were proved, undecided, refuted or refused by the back end, and the median
and maximum validation time (processor seconds, as npcc reports them).
Exits 1 if any program is refuted or undecided, printing its file.

With --calls (after the other arguments), the programs also declare and
call functions and use the bit built-ins. With --sample, only the seeds
of the range that together take every branch of the generator the whole
range takes (gen_cover.py) are validated: `make check` runs that sample,
`make check-long` the whole range.

usage: validate_random.py NPCC WORKDIR COUNT [FIRST_SEED] [--calls] [--sample]
"""
import os
import re
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import match_gen  # noqa: E402
from gen_cover import covering_seeds  # noqa: E402

TIME = re.compile(r"\(([0-9.]+) s CPU,")


def main():
    argv = [a for a in sys.argv if a not in ("--calls", "--sample")]
    calls = "--calls" in sys.argv
    npcc, work, count = argv[1], argv[2], int(argv[3])
    first = int(argv[4]) if len(argv) > 4 else 0
    seeds = range(first, first + count)
    of = sample = ""
    if "--sample" in sys.argv:
        seeds = covering_seeds(first, count, calls)
        of = "%d of " % len(seeds)
        sample = " (the sample covering the generator)"
    proved, undecided, refuted, refused, times = 0, [], [], 0, []
    for seed in seeds:
        text = match_gen.generate(seed, calls)[0]
        base = "%s/v%d" % (work, seed)
        with open(base + ".np", "w") as f:
            f.write(text)
        # The solver's limit is wall-clock time: generous, so that a loaded
        # machine cannot turn a proof into "undecided".
        run = subprocess.run([npcc, base + ".np", "--target=ucode", "-o",
                              base + ".mu", "--validate",
                              "--validate-timeout=120000"],
                             capture_output=True, text=True)
        err = run.stderr
        m = TIME.search(err)
        if m:
            times.append(float(m.group(1)))
        if "validated @" in err and run.returncode == 0:
            proved += 1
        elif "undecided" in err:
            undecided.append(base + ".np: " + err.strip().splitlines()[-1])
        elif "translation validation" in err:
            refuted.append(base + ".np")
        else:
            refused += 1
    print("validated %s%d programs%s: %d proved, %d undecided, %d refuted, "
          "%d refused by the back end" % (of, count, sample, proved,
                                          len(undecided),
                                          len(refuted), refused))
    if times:
        print("validation time per program: median %.3f s, max %.3f s"
              % (statistics.median(times), max(times)))
    for line in undecided + refuted:
        print("NOT PROVED " + line)
    sys.exit(1 if undecided or refuted else 0)


if __name__ == "__main__":
    main()
