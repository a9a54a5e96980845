#!/usr/bin/env python3
# ===- router_table.py - runs and tabulates bench/router.sh ---------------===#
#
# SPDX-License-Identifier: Apache-2.0
#
# ===----------------------------------------------------------------------===#
"""Times the programs bench/router.sh built, each NPCC_BENCH_RUNS times on
each trace, and prints per trace one row per program (median wall-clock
Mpps, Mpps per CPU-second, median CPU seconds: user + sys of the process
and its threads) and then the issue's targets with what was measured, by
wall clock and by CPU time (the 2-core rows only by wall clock: scaling is
wall-clock speed).

  router_table.py WORK RUNS SIZE:FRAMES...

WORK holds router, null, router_loop and in-SIZE.pcap (router.sh)."""

import os
import statistics
import subprocess
import sys
import time

# Click 2.1, one core, 64-byte frames from a pcap, on this kind of machine
# (issue 9): null 29-38 Mpps, router 5.8-9.1 Mpps. Click is not installable
# here (Debian's "click" is Ubuntu's package tool), so the low ends stand
# in as a labelled reference.
CLICK_NULL_MPPS = 29.0
CLICK_ROUTER_MPPS = 5.8


def run_once(cmd, cwd):
    """(wall seconds, CPU seconds) of one run of cmd."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        sys.exit(f"router_table.py: {' '.join(cmd)} exited {p.returncode}")
    return wall, ru.ru_utime + ru.ru_stime


def measure(cmd, cwd, runs):
    walls, cpus = zip(*(run_once(cmd, cwd) for _ in range(runs)))
    return statistics.median(walls), statistics.median(cpus)


def main():
    work, runs = os.path.abspath(sys.argv[1]), int(sys.argv[2])
    traces = [tuple(int(x) for x in a.split(":")) for a in sys.argv[3:]]
    ratios = []
    load = os.getloadavg()[0]
    print(f"load average {load:.1f} on {os.cpu_count()} CPUs: with more "
          "runnable threads than CPUs,\nwall-clock Mpps understates; "
          "Mpps/CPU-s does not (but counts spinning)")
    for size, frames in traces:
        trace = os.path.join(work, f"in-{size}.pcap")
        progs = [
            ("null graph (npcc)", [f"{work}/null", f"IN={trace}", "--quiet"]),
            ("hand-written loop", [f"{work}/router_loop", trace, "loop-out"]),
        ]
        for cores, mapping in [(1, None), (2, "rtc"), (2, "pipeline")]:
            name = f"router --cores {cores}"
            cmd = [f"{work}/router", f"IN={trace}", "--quiet", "--cores",
                   str(cores)]
            if mapping:
                name += f" --mapping={mapping}"
                cmd.append(f"--mapping={mapping}")
            progs.append((name, cmd))
        print(f"\n{size}-byte frames, {frames} per run, median of {runs} runs")
        print(f"{'program':<38} {'Mpps':>8} {'Mpps/CPU-s':>11} {'CPU s':>7}")
        wall, cpu = {}, {}
        for name, cmd in progs:
            w, c = measure(cmd, work, runs)
            wall[name] = frames / w / 1e6
            cpu[name] = frames / c / 1e6 if c > 0 else float("inf")
            print(f"{name:<38} {wall[name]:8.2f} {cpu[name]:11.2f} {c:7.3f}")
        one = "router --cores 1"
        loop = "hand-written loop"
        ratios.append((f"{size}B hand loop / router, 1 core", "<=", 1.5,
                       wall[loop] / wall[one], cpu[loop] / cpu[one]))
        for m in ("rtc", "pipeline"):
            two = f"router --cores 2 --mapping={m}"
            ratios.append((f"{size}B router 2 cores {m} / 1 core", ">=", 1.8,
                           wall[two] / wall[one], None))
        if size == 64:
            null = "null graph (npcc)"
            ratios.append(("64B null graph / Click null (29 Mpps, ref)", ">=",
                           1.0, wall[null] / CLICK_NULL_MPPS,
                           cpu[null] / CLICK_NULL_MPPS))
            ratios.append(("64B router / Click router (5.8 Mpps, ref)", ">=",
                           3.5, wall[one] / CLICK_ROUTER_MPPS,
                           cpu[one] / CLICK_ROUTER_MPPS))

    def verdict(op, target, got):
        if got is None:
            return f"{'-':>6} {'':<6}"
        met = got <= target if op == "<=" else got >= target
        return f"{got:5.2f}x {'met' if met else 'missed':<6}"

    print(f"\n{'ratio':<44} {'target':>7} {'by wall':<13} {'by CPU':<13}")
    for name, op, target, by_wall, by_cpu in ratios:
        print(f"{name:<44} {op + format(target, '.2f'):>7} "
              f"{verdict(op, target, by_wall)} {verdict(op, target, by_cpu)}")
    print("Click: not installed (apt's 'click' is another program); its "
          "figures are issue 9's\nfor Click 2.1, one core, 64-byte frames "
          "from a pcap (null 29-38, router 5.8-9.1\nMpps), low ends used.")


if __name__ == "__main__":
    main()
