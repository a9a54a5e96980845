"""Interestingness tests: whether a candidate program still shows the bug.

Every test first compiles the candidate to np IR (`npcc --target=mlir`):
cheap, and it rejects the many candidates that are ill typed or break
packet ownership before the expensive part (a user's command, or a case
run on every target) is run. Answers are cached by the candidate's text.
"""

import os
import signal
import subprocess
from concurrent.futures import ThreadPoolExecutor


def run_quietly(args, timeout=None, cwd=None):
    """The exit status of `args`, or None when it ran past `timeout`. The
    command runs in a process group of its own, killed whole on timeout: a
    test script's npcc (a candidate that never ends) must not outlive it."""
    try:
        proc = subprocess.Popen(args, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, cwd=cwd,
                                start_new_session=True)
    except OSError:
        return None
    try:
        return proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        return None
    finally:
        # A test that exits while its children still run leaves them
        # behind in the group.
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


class Interestingness:
    """test(text) -> bool over candidate texts. `predicate(path)` decides
    for a candidate written at one of `cand_paths` (one per job run at
    once); `npcc` runs the first check (None skips it)."""

    def __init__(self, predicate, cand_paths, npcc=None, timeout=None,
                 extra_args=()):
        self.predicate = predicate
        self.cand_paths = list(cand_paths)
        self.npcc = npcc
        self.timeout = timeout
        self.extra_args = list(extra_args)
        self.cache = {}
        self.runs = 0
        self.compiles = 0

    @property
    def cand_path(self):
        return self.cand_paths[0]

    def compiles_ok(self, path=None):
        """Whether the candidate at `path` compiles to np IR."""
        self.compiles += 1
        return run_quietly([self.npcc, path or self.cand_path,
                            "--target=mlir", "-o", os.devnull] +
                           self.extra_args, self.timeout) == 0

    def _decide(self, text, path):
        with open(path, "w") as f:
            f.write(text)
        if self.npcc is not None and not self.compiles_ok(path):
            return False
        self.runs += 1
        return bool(self.predicate(path))

    def __call__(self, text):
        return self.first([text]) == 0

    def first(self, texts):
        """The index of the first interesting text, or None. Up to one
        text per candidate path is tested at once; the answer is the same
        as one at a time."""
        jobs = len(self.cand_paths)
        for start in range(0, len(texts), jobs):
            batch = texts[start:start + jobs]
            todo = [t for t in dict.fromkeys(batch) if t not in self.cache]
            if len(todo) > 1:
                with ThreadPoolExecutor(len(todo)) as pool:
                    answers = list(pool.map(self._decide, todo,
                                            self.cand_paths))
            else:
                answers = [self._decide(t, self.cand_path) for t in todo]
            self.cache.update(zip(todo, answers))
            for k, text in enumerate(batch):
                if self.cache[text]:
                    return start + k
        return None


def command_predicate(argv, timeout=None, cwd=None):
    """C-Reduce's test: `argv` with `{}` replaced by the candidate's path
    (appended when no argument has `{}`) exits 0 when interesting."""

    def predicate(path):
        if any("{}" in a for a in argv):
            args = [a.replace("{}", path) for a in argv]
        else:
            args = list(argv) + [path]
        return run_quietly(args, timeout, cwd) == 0

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
