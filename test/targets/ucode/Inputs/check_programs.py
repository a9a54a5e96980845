"""Compiles each match program with npcc --target=ucode --validate (the
translation validator must prove it), runs it on musim over seeded random
headers and lists, and compares every header's answer with
npcc --target=interp (the reference interpreter).

Field values are drawn to make checks pass and fail: 0, all ones, the top
bit, small numbers, the header's value of the same field, and random bits.
Prints `ok NAME: N headers, M matched, K distinct answers` per program, or
`FAIL NAME: ...`; exits 1 on any failure.

usage: check_programs.py NPCC MUSIM WORKDIR PROGRAM.np...
"""
import os
import random
import re
import subprocess
import sys


def layout(text, name):
    m = re.search(r"struct\s+%s\s*\{([^}]*)\}" % name, text)
    fields, word, bit = [], 0, 0
    for decl in m.group(1).split(";"):
        decl = decl.strip()
        if not decl:
            continue
        fname, ty = [x.strip() for x in decl.split(":")]
        w = 1 if ty == "bool" else int(ty[1:])
        if bit + w > 64:
            word, bit = word + 1, 0
        fields.append((fname, word, bit, w))
        bit += w
    return fields


def words(rng, fields, like):
    ws = list(like) if like and rng.random() < 0.7 else [rng.getrandbits(64) for _ in range(8)]
    for _, word, lsb, w in fields:
        roll = rng.random()
        if like and roll < 0.35:
            continue
        v = (0 if roll < 0.45 else (1 << w) - 1 if roll < 0.65 else
             1 << (w - 1) if roll < 0.7 else rng.randint(0, 40) if roll < 0.8
             else rng.getrandbits(w))
        v &= (1 << w) - 1
        ws[word] = (ws[word] & ~(((1 << w) - 1) << lsb)) | (v << lsb)
    return ws


def main():
    npcc, musim, work = sys.argv[1:4]
    bad = False
    for path in sys.argv[4:]:
        name = os.path.basename(path)[:-3]
        text = open(path).read()
        m = re.search(r"match\s+\w+\s*\(\s*\w+\s*:\s*(\w+)\s*,\s*\w+\s*:\s*(\w+)", text)
        hf, itf = layout(text, m.group(1)), layout(text, m.group(2))
        rng = random.Random(name)
        headers = [words(rng, hf, None) for _ in range(60)]
        items = [words(rng, itf, rng.choice(headers)) for _ in range(16)]
        base = os.path.join(work, name)
        for suffix, rows in ((".list", items), (".headers", headers)):
            with open(base + suffix, "w") as f:
                for row in rows:
                    f.write(" ".join("%x" % x for x in row) + "\n")
        files = ["--list", base + ".list", "--headers", base + ".headers"]
        want = subprocess.run([npcc, path, "--target=interp"] + files,
                              capture_output=True, text=True)
        comp = subprocess.run([npcc, path, "--target=ucode", "-o", base + ".mu",
                               "--validate"], capture_output=True, text=True)
        if comp.returncode == 0 and ": proved" not in comp.stderr:
            print("FAIL %s: not proved: %s" % (name, comp.stderr.strip()))
            bad = True
            continue
        if want.returncode or comp.returncode:
            print("FAIL %s: %s" % (name, (want.stderr + comp.stderr).strip()))
            bad = True
            continue
        got = subprocess.run([musim, base + ".mu"] + files, capture_output=True,
                             text=True)
        got = "\n".join(re.sub(r" cycles \d+$", "", l)
                        for l in got.stdout.splitlines()) + "\n"
        if got != want.stdout:
            diff = [(a, b) for a, b in zip(want.stdout.splitlines(), got.splitlines()) if a != b]
            print("FAIL %s: want %s, got %s" % (name, diff[0][0] if diff else "?",
                                                diff[0][1] if diff else got[:200]))
            bad = True
            continue
        lines = want.stdout.splitlines()
        matched = sum(1 for l in lines if "no match" not in l)
        answers = len(set(l.split(": ", 1)[1] for l in lines))
        print("ok %s: %d headers, %d matched, %d distinct answers" % (
            name, len(lines), matched, answers))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
