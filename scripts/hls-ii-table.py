#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The II of every library element, before and after the HLS passes.

Runs np-ii-report over the programs that use the library (test/lib/*.np,
the examples) twice: as the IR is, and after the passes of the hls
target's pipeline (np-header-window, np-scatter-memory, np-unroll,
np-delay-write). Prints one markdown
row per element (lib/*.np) with the largest II any of its instances gets
and the first cause; docs/hls-ii-report.md holds the table it printed.

  python3 scripts/hls-ii-table.py [BUILD_DIR]
"""
import glob
import json
import os
import subprocess
import sys
import tempfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
build = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                        os.path.join(root, "build"))
npcc = os.path.join(build, "bin", "npcc")
opt = os.path.join(build, "bin", "npcc-opt")
lib = os.path.join(root, "lib")

# Programs with several top graphs, and the one to take.
TOPS = {"RatedSource.np": "Main"}


def report(mlir, optimise, out):
    passes = ["--np-header-window", "--npcc-hls-opts"] if optimise else []
    subprocess.run([opt, mlir, "--np-flatten-graph", "--np-instantiate-elements",
                    "--np-make-state-explicit"] + passes +
                   ["--np-ii-report=report=" + out, "-o", os.devnull],
                   check=True, stderr=subprocess.DEVNULL)
    return json.load(open(out))["elements"]


def main():
    programs = sorted(glob.glob(os.path.join(root, "test/lib/*.np")))
    programs += [os.path.join(root, p) for p in (
        "examples/ipv4-router/router.np", "examples/pcsa/pcsa.np")]
    programs += sorted(glob.glob(os.path.join(root, "examples/network-functions/*.np")))
    names = set()
    for f in glob.glob(os.path.join(lib, "*.np")):
        for line in open(f):
            if line.startswith("element "):
                names.add(line.split()[1].split("(")[0])
    best = {}
    with tempfile.TemporaryDirectory() as tmp:
        for program in programs:
            base = os.path.basename(program)
            mlir = os.path.join(tmp, base + ".mlir")
            args = [npcc, base, "-I", lib, "--target=mlir",
                    "--mlir-print-debuginfo", "-o", mlir]
            if base in TOPS:
                args.append("--top=" + TOPS[base])
            if subprocess.run(args, cwd=os.path.dirname(program),
                              stderr=subprocess.DEVNULL).returncode:
                print("skipped (does not compile): " + program, file=sys.stderr)
                continue
            raw = report(mlir, False, os.path.join(tmp, "raw.json"))
            after = report(mlir, True, os.path.join(tmp, "opt.json"))
            for a, b in zip(raw, after):
                name = a["element"]
                if name not in names:
                    continue
                old = best.get(name)
                if old is None or (a["ii"], b["ii"]) > (old[0]["ii"], old[1]["ii"]):
                    best[name] = (a, b, base)
    print("| element | II as written | II after the passes | cause after the passes (else before) | program |")
    print("|---|---|---|---|---|")
    for name in sorted(names):
        if name not in best:
            print(f"| {name} | - | - | not used by any program | |")
            continue
        a, b, base = best[name]
        why = b["reasons"] or a["reasons"]
        text = why[0]["text"] if why else ""
        print(f"| {name} | {a['ii']} | {b['ii']} | {text} | {base} |")


if __name__ == "__main__":
    main()
