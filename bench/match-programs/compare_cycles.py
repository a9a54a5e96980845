"""Mean cycles per item traversed of generated match programs, for two
builds of npcc (before and after a back-end change), over the programs
that both compile and both answer correctly (the interpreter of the newer
build is the oracle).

usage: compare_cycles.py OLD_NPCC NEW_NPCC MUSIM WORKDIR SEED PROGRAMS
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "../../test/targets/ucode/Inputs"))
import match_gen  # noqa: E402


def run_one(npcc, musim, base, files):
    if subprocess.run([npcc, base + ".np", "--target=ucode", "-o", base + ".mu"],
                      capture_output=True).returncode:
        return None
    out = subprocess.run([musim, base + ".mu", "--stats"] + files,
                         capture_output=True, text=True)
    if out.returncode:
        return None
    lines = [l for l in out.stdout.splitlines() if re.match(r"header \d+: ", l)]
    answers = [re.sub(r" cycles \d+$", "", l) for l in lines]
    cycles = sum(int(re.search(r" cycles (\d+)$", l).group(1)) for l in lines)
    items = sum(int(m.group(1)) for m in
                re.finditer(r"^header \d+ items (\d+)$", out.stdout, re.M))
    return answers, cycles, items


def main():
    old, new, musim, work = sys.argv[1:5]
    seed, n = int(sys.argv[5]), int(sys.argv[6])
    os.makedirs(work, exist_ok=True)
    tot = {"old": [0, 0], "new": [0, 0]}
    both = old_ok = new_ok = 0
    for s in range(seed, seed + n):
        text, evaluate, headers, items = match_gen.generate(s)
        want = match_gen.expected(evaluate, headers, items)
        base = os.path.join(work, "c%d" % s)
        open(base + ".np", "w").write(text)
        match_gen.write_words(base + ".list", items)
        match_gen.write_words(base + ".headers", headers)
        files = ["--list", base + ".list", "--headers", base + ".headers"]
        ro = run_one(old, musim, base + "", files)
        rn = run_one(new, musim, base + "", files)
        ro = ro if ro and ro[0] == want else None
        rn = rn if rn and rn[0] == want else None
        old_ok += ro is not None
        new_ok += rn is not None
        if ro and rn:
            both += 1
            tot["old"][0] += ro[1]
            tot["old"][1] += ro[2]
            tot["new"][0] += rn[1]
            tot["new"][1] += rn[2]
    print("programs %d (seeds %d..%d): old right %d, new right %d, both %d"
          % (n, seed, seed + n - 1, old_ok, new_ok, both))
    for k in ("old", "new"):
        c, i = tot[k]
        print("%s: %d cycles over %d items, %.3f cycles per item" % (k, c, i, c / max(i, 1)))
    if tot["old"][1]:
        a = tot["old"][0] / tot["old"][1]
        b = tot["new"][0] / tot["new"][1]
        print("change %+.2f%%" % (100.0 * (b - a) / a))


if __name__ == "__main__":
    main()
