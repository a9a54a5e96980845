"""Interestingness tests: whether a candidate program still shows the bug.

Every test first compiles the candidate to np IR (`npcc --target=mlir`):
cheap, and it rejects the many candidates that are ill typed or break
packet ownership before the expensive part (a user's command, or a case
run on every target) is run. Answers are cached by the candidate's text.
"""

import os
import subprocess


class Interestingness:
    """test(text) -> bool over candidate texts. `predicate(path)` decides
    for a candidate written at `path`; `npcc` runs the first check (None
    skips it)."""

    def __init__(self, predicate, cand_path, npcc=None, timeout=None,
                 extra_args=()):
        self.predicate = predicate
        self.cand_path = cand_path
        self.npcc = npcc
        self.timeout = timeout
        self.extra_args = list(extra_args)
        self.cache = {}
        self.runs = 0
        self.compiles = 0

    def compiles_ok(self):
        """Whether the candidate on disk compiles to np IR."""
        self.compiles += 1
        try:
            done = subprocess.run(
                [self.npcc, self.cand_path, "--target=mlir", "-o",
                 os.devnull] + self.extra_args,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                timeout=self.timeout)
        except subprocess.TimeoutExpired:
            return False
        return done.returncode == 0

    def __call__(self, text):
        if text in self.cache:
            return self.cache[text]
        with open(self.cand_path, "w") as f:
            f.write(text)
        ok = self.npcc is None or self.compiles_ok()
        if ok:
            self.runs += 1
            ok = bool(self.predicate(self.cand_path))
        self.cache[text] = ok
        return ok


def command_predicate(argv, timeout=None, cwd=None):
    """C-Reduce's test: `argv` with `{}` replaced by the candidate's path
    (appended when no argument has `{}`) exits 0 when interesting."""

    def predicate(path):
        if any("{}" in a for a in argv):
            args = [a.replace("{}", path) for a in argv]
        else:
            args = list(argv) + [path]
        try:
            done = subprocess.run(args, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL, cwd=cwd,
                                  timeout=timeout)
        except subprocess.TimeoutExpired:
            return False
        except OSError:
            return False
        return done.returncode == 0

    return predicate


def signatures(result):
    """The (target, kind) pairs of a runner Result's failures, in order."""
    return [(f.target, f.kind) for f in result.failures]


def case_predicate(case_dir, signature, tools=None, run_module=None):
    """`npsmith fuzz`'s test: smith.run.check_case on the case with the
    candidate as its program still fails with `signature`."""
    if run_module is None:
        from .. import run as run_module
    target = signature[0]
    targets = None if target in ("interp", "build") else [target]

    def predicate(path):
        result = run_module.check_case(case_dir, program=path,
                                       targets=targets, tools=tools)
        return signature in signatures(result)

    return predicate
