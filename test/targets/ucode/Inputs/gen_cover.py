"""A fixed sample of a sweep over match_gen.py's seeds.

covering_seeds(first, count, calls) returns the seeds of
[first, first + count) whose programs, together, take every branch of the
generator that the whole range takes: every step from one line of
match_gen.py to the next that generating any program of the range makes.
The seeds are chosen greedily (the seed that adds the most new steps first,
the lowest seed on ties), so the sample is the same on every run and follows
the generator when it changes. `make check` runs the sample (--sample in
validate-random.test); `make check-long` runs the whole range. (The
differential sweep, generated-match-programs.test, runs whole: it bounds
the share of refused programs, which a sample of the rarer constructs
would not represent.)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import match_gen  # noqa: E402

_SOURCE = os.path.abspath(match_gen.__file__)


def _steps(seed, calls):
    """The (line, next line) steps of match_gen.py for one program."""
    steps = set()
    last = [0]

    def local(frame, event, arg):
        if event == "line":
            steps.add((last[0], frame.f_lineno))
            last[0] = frame.f_lineno
        return local

    def call(frame, event, arg):
        if frame.f_code.co_filename != _SOURCE:
            return None
        last[0] = -frame.f_code.co_firstlineno
        return local

    sys.settrace(call)
    try:
        match_gen.generate(seed, calls)
    finally:
        sys.settrace(None)
    return steps


def covering_seeds(first, count, calls=False):
    seeds = range(first, first + count)
    steps = {s: _steps(s, calls) for s in seeds}
    left = set().union(*steps.values())
    chosen = []
    while left:
        best = max(seeds, key=lambda s: (len(steps[s] & left), -s))
        chosen.append(best)
        left -= steps[best]
    return sorted(chosen)
