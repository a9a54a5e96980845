#!/usr/bin/env python3
"""Runs the C pipeline one pass at a time with npcc-opt and checks that the
module after every pass verifies, prints, and parses back to the same text.

The pass sequence is read from npcc's own --mlir-print-ir-after-all, so the
check follows the pipeline npcc really runs.

usage: pipeline_roundtrip.py NPCC NPCC_OPT WORKDIR PROGRAM.np...
"""
import os
import re
import subprocess
import sys


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        sys.exit("FAIL: %s\n%s" % (" ".join(cmd), r.stderr))
    return r


def passes(npcc, program):
    r = run([npcc, program, "--target=c", "-S", "-o", os.devnull,
             "--mlir-print-ir-after-all"])
    found = re.findall(r"IR Dump After \S+ \((\S+)\)", r.stderr)
    if not found:
        sys.exit("FAIL: no passes in --mlir-print-ir-after-all")
    return found


def main():
    npcc, opt, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    checked = 0
    for program in sys.argv[4:]:
        stem = os.path.join(work, os.path.basename(program))
        current = stem + ".0.mlir"
        run([npcc, program, "--target=mlir", "-o", current])
        for i, name in enumerate(passes(npcc, program), 1):
            out = "%s.%d.mlir" % (stem, i)
            run([opt, current, "--" + name, "-o", out])
            again = out + ".reparsed"
            run([opt, out, "-o", again])
            with open(out) as a, open(again) as b:
                if a.read() != b.read():
                    sys.exit("FAIL: %s after %s does not print back to the "
                             "same text (%s vs %s)" % (program, name, out,
                                                       again))
            current = out
            checked += 1
    print("round-trip: %d modules checked" % checked)


main()
