"""Which compiler npsmith runs, and its limits.

A fuzzing run uses either build/'s npcc or build-asan/'s (the compilers
built with ASan and UBSan): naming the build directory is enough.
"""
import os
import re
import shutil
import signal
import sys


def stop_on_sigterm():
    """SIGTERM (a `timeout`, a CI job stopped) ends npsmith as ^C would:
    with SystemExit, so that the processes it runs are killed on the way
    out instead of living on in their own sessions."""
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))


def find_npcc(where=None):
    """The npcc of `where` (an npcc, a bin/ directory or a build
    directory), of $NPSMITH_NPCC, next to npsmith, or on PATH."""
    where = where or os.environ.get("NPSMITH_NPCC")
    if where:
        for cand in (where, os.path.join(where, "npcc"),
                     os.path.join(where, "bin", "npcc")):
            if os.path.isfile(cand) and os.access(cand, os.X_OK):
                return os.path.abspath(cand)
        raise SystemExit("npsmith: no npcc at %s" % where)
    here = os.environ.get("NPSMITH_BIN_DIR")
    if here and os.path.isfile(os.path.join(here, "npcc")):
        return os.path.join(here, "npcc")
    found = shutil.which("npcc")
    if not found:
        raise SystemExit("npsmith: npcc not found (use --npcc)")
    return os.path.abspath(found)


# As lit runs a sanitizer build's programs (test/lit.cfg.py): a report
# aborts, so that it is a crash and never an ordinary error exit.
SANITIZER_DEFAULTS = {
    "ASAN_OPTIONS": "abort_on_error=1:detect_leaks=1:allow_user_poisoning=0",
    "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1:abort_on_error=1",
}


def build_cflags(npcc):
    """The C flags the lit suite of the build directory `npcc` lies in
    builds programs with (NPCC_TEST_CFLAGS, written into its
    test/lit.site.cfg.py): a sanitizer build's, which the programs need
    to link its instrumented libnprt. None for a plain build."""
    site = os.path.join(os.path.dirname(os.path.dirname(npcc)), "test",
                        "lit.site.cfg.py")
    if not os.path.isfile(site):
        return None
    with open(site) as f:
        m = re.search(r'^config\.npcc_test_cflags = "(.*)"$', f.read(),
                      re.M)
    return m.group(1) if m and m.group(1) else None


class Tools:
    """The npcc to run, the environment to run it in, the time a run and
    a build may take, and the cache of HLS runtime objects
    (smith.hlsbuild)."""

    def __init__(self, npcc=None, timeout=30.0, build_timeout=300.0,
                 cache=None, c_flags=()):
        self.npcc = find_npcc(npcc)
        # npcc flags for the C target's build alone: a planted difference
        # the runner must find (test/npsmith), or a C-only option to try.
        self.c_flags = list(c_flags)
        self.timeout = timeout
        self.build_timeout = build_timeout
        self.cache = cache
        self.env = dict(os.environ)
        cflags = build_cflags(self.npcc)
        if cflags and "NPCC_CFLAGS" not in self.env:
            self.env["NPCC_CFLAGS"] = cflags
        for var, value in SANITIZER_DEFAULTS.items():
            self.env.setdefault(var, value)
