"""Runs npsmith-reduce on a case with a stand-in for smith.run: a program
that clones fails on c2-rtc's output, one that makes a packet crashes the
hls target. Every call's targets go to the file $RUNS."""

import os
import sys

sys.path.insert(0, sys.argv[1])
from smith.reduce import cli  # noqa: E402


class Failure:
    def __init__(self, target, kind):
        self.target, self.kind = target, kind


class Result:
    def __init__(self, failures):
        self.failures = failures


class FakeRun:
    @staticmethod
    def check_case(case_dir, program=None, targets=None, tools=None):
        with open(os.environ["RUNS"], "a") as log:
            log.write(f"targets={targets}\n")
        with open(program or os.path.join(case_dir, "prog.np")) as f:
            text = f.read()
        failures = []
        if "clone(" in text:
            failures.append(Failure("c2-rtc", "output"))
        if "new_pkt(" in text:
            failures.append(Failure("hls", "crash"))
        return Result(failures)


sys.exit(cli.main(sys.argv[2:], run_module=FakeRun))
