#!/usr/bin/env python3
# ===- verdict.py - a target, what was measured, met or MISSED -------------===#
#
# SPDX-License-Identifier: Apache-2.0
#
# ===----------------------------------------------------------------------===#
"""The targets of make bench and their verdicts. Each section records its
targets as it measures them; bench/run.sh prints them all in one block at
the end. A record is one tab-separated line of the file named by
NPCC_BENCH_VERDICTS (nothing is recorded when it is unset, so a section run
alone only prints): target, measured, verdict (met, MISSED, or - for a
figure reported without a target).

  verdict.py add TARGET VALUE OP BOUND [UNIT [DETAIL]]
      VALUE OP BOUND decides (OP is <= < >= >); UNIT follows the numbers
      ("x", " s"); DETAIL is printed after the value (e.g. the other clock)
  verdict.py info TARGET TEXT
      a figure reported beside the targets, without a verdict
  verdict.py line TARGET MEASURED VERDICT
      a verdict decided elsewhere (a section that prints its own)
  verdict.py summary FILE
      the block bench/run.sh prints at the end

From Python: import verdict; verdict.add(...), verdict.info(...)."""

import os
import sys

OPS = {
    "<=": lambda a, b: a <= b,
    "<": lambda a, b: a < b,
    ">=": lambda a, b: a >= b,
    ">": lambda a, b: a > b,
}


def _num(x):
    return f"{x:.2f}" if abs(x) < 100 else f"{x:,.0f}"


def _record(target, measured, verdict):
    line = "\t".join(s.replace("\t", " ").replace("\n", " ")
                     for s in (target, measured, verdict))
    path = os.environ.get("NPCC_BENCH_VERDICTS")
    if path:
        with open(path, "a") as f:
            f.write(line + "\n")
    print(f"target: {target}: {measured}: {verdict}")


def add(target, value, op, bound, unit="", detail=""):
    """Records TARGET with VALUE, met when VALUE OP BOUND holds. Returns
    whether it was met."""
    met = value is not None and OPS[op](value, bound)
    got = "n/a" if value is None else f"{_num(value)}{unit}"
    measured = f"{got} ({op} {_num(bound)}{unit})"
    if detail:
        measured += f"; {detail}"
    _record(target, measured, "met" if met else "MISSED")
    return met


def info(target, text):
    _record(target, text, "-")


def line(target, measured, verdict):
    """A verdict decided elsewhere: met, MISSED or -."""
    _record(target, measured, verdict)


def summary(path):
    rows = []
    if os.path.exists(path):
        with open(path) as f:
            rows = [l.rstrip("\n").split("\t") for l in f if l.strip()]
    rows = [r + [""] * (3 - len(r)) for r in rows]
    print("== summary: the targets of issue 28, measured in this run ==")
    if not rows:
        print("(no targets recorded)")
        return
    w = max(len(r[0]) for r in rows)
    for target, measured, verdict in rows:
        print(f"{verdict:<6}  {target:<{w}}  {measured}")
    met = sum(r[2] == "met" for r in rows)
    missed = sum(r[2] == "MISSED" for r in rows)
    print(f"{met} met, {missed} MISSED, {len(rows) - met - missed} reported "
          "without a target")


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    cmd, args = argv[1], argv[2:]
    if cmd == "add" and 4 <= len(args) <= 6 and args[2] in OPS:
        add(args[0], float(args[1]), args[2], float(args[3]),
            *args[4:])
    elif cmd == "info" and len(args) == 2:
        info(*args)
    elif cmd == "line" and len(args) == 3:
        line(*args)
    elif cmd == "summary" and len(args) == 1:
        summary(args[0])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
