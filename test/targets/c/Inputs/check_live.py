#!/usr/bin/env python3
"""Checks the time stamps of a --live run's output: they are the host's
time of day when the packets were made or read (after STARTED, a file
holding the seconds since the epoch written before the run, and not in
the future), in order. Says nothing about how far apart they are, which
depends on the machine's speed.

usage: check_live.py STARTED OUT.pcap
"""
import sys
import time

from check_timers import records


def main():
    started = int(open(sys.argv[1]).read().split()[0]) * 10**9
    ts = [t for t, _ in records(sys.argv[2])]
    now = time.time_ns()
    errors = []
    for i, t in enumerate(ts):
        if not started <= t <= now:
            errors.append("packet %d: %d is not between the start %d and now %d"
                          % (i, t, started, now))
        if i and t < ts[i - 1]:
            errors.append("packet %d: %d is before its predecessor" % (i, t))
    for e in errors:
        print(e)
    print("%d packets, %s" % (len(ts), "live time stamps in order"
                              if not errors else "WRONG"))
    return 1 if errors else 0


sys.exit(main())
