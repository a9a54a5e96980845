"""The differential runner: one case on every target against the oracle.

A case directory (prog.np, manifest.json, extra files, in<d>.pcap) is run
on the reference interpreter, which is the oracle, then built for the C
target and run on one core, on two cores with the rtc mapping and on two
with the pipeline mapping, then built for the C target on npsim (npcc
--sim) and simulated on one core of one context and on two cores of two
contexts, then built as an HLS project and run in its C simulation when
the hls target takes the program. Each run has a
directory of its own holding a copy of the case's files, because programs
may read and write files they name. smith.compare says what must agree.
Anything that hangs, dies of a signal, asserts or reports a sanitizer
error fails that target; the oracle doing so is an `interp` failure and
the compiler doing so a `build` failure.
"""
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import tempfile
import time

from . import compare, flows, hlsbuild, hlsproject, pcap
from .tools import Tools

TARGETS = ("c1", "c2-rtc", "c2-pipeline", "sim1", "sim4", "hls")
MULTICORE = {"c2-rtc": ["--cores", "2", "--mapping", "rtc"],
             "c2-pipeline": ["--cores", "2", "--mapping", "pipeline"]}
# The npsim targets: the executable of `npcc --sim` on the default
# simulated machine (nfp-like), its run's cores being the machine's
# contexts. sim4's four contexts run the mapping that the program's auto
# choice makes on four cores (sim_mapping), as a --sim run without
# --mapping does.
SIM = {"sim1": ["--sim", "--cores", "1", "--contexts", "1"],
       "sim4": ["--sim", "--cores", "2", "--contexts", "2"]}
SIM_CORES = {"sim1": (1, 1), "sim4": (2, 2)}
# Several cores, compared as docs/multicore.md promises.
SEVERAL = ("c2-rtc", "c2-pipeline", "sim4")
C_TARGETS = ("c1", "c2-rtc", "c2-pipeline")
SANITIZER_MARKERS = ("AddressSanitizer", "LeakSanitizer",
                     "UndefinedBehaviorSanitizer", "runtime error:")
CRASH_MARKERS = ("Assertion", "PLEASE submit a bug report", "Stack dump:")


class Failure:
    """One way a target disagreed with the oracle or broke."""

    def __init__(self, target, kind, detail=""):
        self.target, self.kind, self.detail = target, kind, detail

    def __str__(self):
        return "%s %s: %s" % (self.target, self.kind, self.detail)

    def __repr__(self):
        return "Failure(%r, %r)" % (self.target, self.kind)

    # Two failures are the same bug when target and kind agree: a reducer
    # keeps a candidate that still fails this way, whatever the details.
    def __eq__(self, other):
        return (isinstance(other, Failure) and
                (self.target, self.kind) == (other.target, other.kind))

    def __hash__(self):
        return hash((self.target, self.kind))


class Result:
    """What check_case found: the failures, the targets it ran and
    skipped (with why), and the seconds each step took."""

    def __init__(self):
        self.failures = []
        self.ran = []
        self.skipped = {}
        self.times = {}
        self.work = None

    @property
    def ok(self):
        return not self.failures

    def fail(self, target, kind, detail=""):
        self.failures.append(Failure(target, kind, detail))


class Proc:
    """A finished process: exit status, output, time, whether it hung."""

    def __init__(self, returncode, stdout, stderr, seconds, hung):
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr
        self.seconds, self.hung = seconds, hung


# A run that never ends may write as fast as it can: past this many bytes
# in one file it gets SIGXFSZ, which counts as the hang it is.
# NPSMITH_MAX_FILE_BYTES lowers it (the tests of what follows from it).
MAX_FILE_BYTES = int(os.environ.get("NPSMITH_MAX_FILE_BYTES", 1 << 30))


# The interpreter runs a program some 20 times slower than its C build: a
# program that makes millions of packets takes it minutes. It has this many
# times --timeout before it counts as hung.
INTERP_SLOWER = 4


def limit_files():
    resource.setrlimit(resource.RLIMIT_FSIZE, (MAX_FILE_BYTES,
                                               MAX_FILE_BYTES))


def execute(cmd, cwd, timeout, env=None, limit=True):
    """Runs `cmd` in its own process group, killed whole on timeout; with
    `limit`, its files stop at MAX_FILE_BYTES (a run's, not a build's: a
    lowered limit must not cut off the compiler's executable)."""
    start = time.monotonic()
    p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, start_new_session=True,
                         env=env, preexec_fn=limit_files if limit else None)
    hung = False
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        hung = True
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except OSError:
            pass
        out, err = p.communicate()
    except BaseException:
        # npsmith itself stopped (^C, or SIGTERM: tools.stop_on_sigterm):
        # the run must not outlive it.
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except OSError:
            pass
        raise
    return Proc(p.returncode, out.decode("utf-8", "replace"),
                err.decode("utf-8", "replace"), time.monotonic() - start,
                hung)


def breakage(proc, timeout):
    """(kind, detail) if the process hung, crashed or reported a
    sanitizer error, else None."""
    if proc.hung:
        return "hang", "no exit within %g s" % timeout
    if proc.returncode == -signal.SIGXFSZ:
        return "hang", "wrote a file past %d bytes" % MAX_FILE_BYTES
    for m in SANITIZER_MARKERS:
        if m in proc.stderr:
            return "sanitizer", excerpt(proc.stderr, m)
    if proc.returncode < 0:
        return "crash", ("killed by signal %d\n%s" % (
            -proc.returncode, proc.stderr[-1500:])).rstrip()
    for m in CRASH_MARKERS:
        if m in proc.stderr:
            return "crash", excerpt(proc.stderr, m)
    return None


def excerpt(text, marker):
    at = text.find(marker)
    return text[max(0, at - 300):at + 1200]


class Case:
    """The parts of a case directory a run needs."""

    def __init__(self, case_dir, program=None):
        self.dir = os.path.abspath(case_dir)
        with open(os.path.join(self.dir, "manifest.json")) as f:
            self.manifest = json.load(f)
        self.program = os.path.abspath(program or os.path.join(
            self.dir, self.manifest.get("program", "prog.np")))
        m = self.manifest
        self.npcc_flags = ["-D" + d for d in m.get("defines", [])]
        if m.get("top"):
            self.npcc_flags += ["--top=" + m["top"]]
        self.inputs = {}
        for spec in m.get("inputs", []):
            d = spec.get("device", 0)
            self.inputs[d] = os.path.join(self.dir, "in%d.pcap" % d)
        self.outputs = list(range(m.get("outputs", 1)))
        self._flows = None

    def run_flags(self, stats=True, handlers=True, signals=True):
        flags = []
        for d, path in sorted(self.inputs.items()):
            flags += ["--in", "%d=%s" % (d, path)]
        for k in self.outputs:
            flags += ["--out", "%d=out%d.pcap" % (k, k)]
        if stats:
            flags += ["--stats-json", "stats.json"]
        for h in self.manifest.get("handlers", []) if handlers else []:
            flags += ["-h", h]
        for s in self.manifest.get("signals", []) if signals else []:
            flags += ["--signal", s]
        return flags

    def input_flows(self):
        """smith.flows.input_flows of the case's inputs (read once)."""
        if self._flows is None:
            inputs = []
            for path in self.inputs.values():
                try:
                    inputs.append(pcap.read(path))
                except (OSError, ValueError):
                    pass
            self._flows = flows.input_flows(inputs)
        return self._flows

    def populate(self, run_dir):
        """A fresh `run_dir` with the case's files and the program as
        prog.np, so every run names its files the same way."""
        shutil.rmtree(run_dir, ignore_errors=True)
        os.makedirs(run_dir)
        inputs = {os.path.basename(p) for p in self.inputs.values()}
        for name in os.listdir(self.dir):
            src = os.path.join(self.dir, name)
            if name == "manifest.json" or not os.path.isfile(src):
                continue
            if name in inputs:
                continue  # passed by absolute path
            shutil.copy(src, os.path.join(run_dir, name))
        shutil.copy(self.program, os.path.join(run_dir, "prog.np"))
        return set(os.listdir(run_dir))


def written_pcaps(run_dir, before):
    return sorted(f for f in os.listdir(run_dir)
                  if f.endswith(".pcap") and f not in before)


class Checker:
    """check_case's state: one case, one work directory, one result."""

    def __init__(self, case, targets, tools, work):
        self.case, self.targets, self.tools = case, targets, tools
        self.work = work
        self.result = Result()
        self.result.work = work
        self.oracle = None

    def step(self, name, cmd, cwd, timeout=None, limit=True):
        proc = execute(cmd, cwd, timeout or self.tools.timeout,
                       self.tools.env, limit)
        self.result.times[name] = round(proc.seconds, 3)
        # For whoever reads a kept work directory: what each step printed.
        for ext, text in (("out", proc.stdout), ("err", proc.stderr)):
            with open(os.path.join(self.work, "%s.%s" % (name, ext)),
                      "w") as f:
                f.write(text)
        return proc

    def names(self, run_dir):
        return [(run_dir + os.sep, ""), (run_dir, ".")]

    def text(self, proc, run_dir, prefix=""):
        return (compare.normalise(prefix + proc.stdout, self.names(run_dir)),
                compare.normalise(prefix + proc.stderr, self.names(run_dir)))

    def run_oracle(self):
        d = os.path.join(self.work, "interp")
        before = self.case.populate(d)
        cmd = [self.tools.npcc, "prog.np", "--target=interp"] + \
            self.case.npcc_flags + self.case.run_flags()
        timeout = self.tools.timeout * INTERP_SLOWER
        proc = self.step("interp", cmd, d, timeout)
        broke = breakage(proc, timeout)
        if broke:
            self.result.fail("interp", *broke)
            return False
        self.oracle = (proc, d, written_pcaps(d, before))
        return True

    def past_file_limit(self):
        """Whether the interpreter's output reached MAX_FILE_BYTES: the run
        then stopped reading there, and on several cores (or split with an
        FPGA) how far each got by then depends on their speeds."""
        return (self.oracle is not None and
                FILE_TOO_LARGE in self.oracle[0].stderr)

    def build(self, name, target, args, cwd):
        """Runs npcc for a target; a compiler crash is a `build` failure.
        Returns the process, or None after a crash."""
        cmd = [self.tools.npcc, "prog.np", "--target=" + target] + \
            self.case.npcc_flags + args
        proc = self.step(name, cmd, cwd, self.tools.build_timeout, False)
        broke = breakage(proc, self.tools.build_timeout)
        if broke:
            self.result.fail("build", broke[0],
                             "npcc --target=%s: %s" % (target, broke[1]))
            return None
        return proc

    def rejected_alike(self, proc, cwd):
        """Whether a failed build rejected the program as the oracle did
        (the same diagnostics, the oracle failing too)."""
        oproc, odir, _ = self.oracle
        return (oproc.returncode != 0 and
                self.text(proc, cwd)[1] == self.text(oproc, odir)[1])

    def check_c(self):
        wanted = [t for t in self.targets if t in C_TARGETS]
        built = self.build_exe("c-build", ["-o", "prog"], wanted)
        for t in wanted if built else []:
            why = self.skip_reason(t)
            if why:
                self.result.skipped[t] = why
                continue
            self.run_c(t, *built)

    def check_sim(self):
        """The npsim targets: the executable `npcc --sim` links with
        libnprt-sim, run with --sim (SIM)."""
        wanted = [t for t in self.targets if t in SIM]
        # Named as the C build's: the runtime's messages name it.
        built = self.build_exe("sim-build", ["--sim", "-o", "prog"], wanted)
        for t in wanted if built else []:
            why = self.skip_reason(t)
            if why:
                self.result.skipped[t] = why
                continue
            self.run_c(t, *built)

    def build_exe(self, name, args, wanted):
        """Builds the C target's executable for the targets `wanted` in
        WORK/<name> (npcc `args` and --c-flag's): (exe, build process,
        directory), or None when there is none, the targets skipped (the
        compiler crashed, a `build` failure; the program rejected as the
        oracle rejects it) or the first failed with kind `build`."""
        if not wanted:
            return None
        bdir = os.path.join(self.work, name)
        self.case.populate(bdir)
        build = self.build(name, "c", args + self.tools.c_flags, bdir)
        if build is None:
            for t in wanted:
                self.result.skipped[t] = "the compiler crashed"
            return None
        if build.returncode != 0:
            if self.oracle and self.rejected_alike(build, bdir):
                for t in wanted:
                    self.result.skipped[t] = "the program is rejected"
            else:
                self.result.fail(wanted[0], "build", build.stderr[-2000:])
                for t in wanted[1:]:
                    self.result.skipped[t] = "no executable"
            return None
        return os.path.join(bdir, args[args.index("-o") + 1]), build, bdir

    def skip_reason(self, target):
        """Why `target` does not run the case (docs/npsmith.md, "What is
        compared where"), or None."""
        program = self.case.program
        several_inputs = len(self.case.inputs) > 1
        if target in SIM and self.past_file_limit():
            return SIM_FILE_LIMIT
        if target in SIM and several_inputs and has_timer(program):
            return SIM_SEVERAL_INPUTS_TIMER
        if target not in SEVERAL:
            return None
        if self.past_file_limit():
            return FILE_LIMIT
        if has_lossy_channel(program):
            return LOSSY
        if has_free_source(program):
            return FREE_SOURCE
        if has_handler_paced_source(program):
            return HANDLER_PACED_SOURCE
        if several_inputs and self.mapping(target) == "rtc":
            return SEVERAL_INPUTS
        if (several_inputs and self.mapping(target) == "pipeline" and
                has_timer(program)):
            return SEVERAL_INPUTS_TIMER
        return None

    def mapping(self, target):
        """The mapping a several-core target runs: the one it names, or for
        an npsim target the one the executable takes on that many cores
        (sim_mapping)."""
        if target in MULTICORE:
            return MULTICORE[target][-1]
        cores, contexts = SIM_CORES[target]
        return sim_mapping(self.c_source(), cores * contexts)

    def c_source(self):
        """The program's C (npcc --target=c -S, with --c-flag's flags), read
        once; empty if npcc wrote none."""
        if not hasattr(self, "_c_source"):
            d = os.path.join(self.work, "c-source")
            self.case.populate(d)
            proc = self.build("c-source", "c", ["-S", "-o", "prog.c"] +
                              self.tools.c_flags, d)
            self._c_source = ""
            path = os.path.join(d, "prog.c")
            if proc is not None and proc.returncode == 0 and \
                    os.path.exists(path):
                with open(path) as f:
                    self._c_source = f.read()
        return self._c_source

    def rtc_tail(self):
        """Whether, under rtc, some replicated instance takes values from
        a run-once one: a copy of it then runs on core 0 behind the
        run-once instances (the tail). Read from the instance and channel
        tables of the program's C (`.replicate`, `.src`, `.dst`)."""
        return has_tail(self.c_source())

    def run_c(self, target, exe, build, bdir):
        d = os.path.join(self.work, target)
        before = self.case.populate(d)
        cmd = [exe] + self.case.run_flags() + MULTICORE.get(target, [])
        if target in SIM:
            # The report goes to stdout too (after the table, which
            # --quiet would take away with it): run_c cuts it off.
            cmd += SIM[target] + ["--sim-json", "sim.json"]
        proc = self.step(target, cmd, d)
        if target in SIM and proc.returncode == 1:
            # The machine is too small for the program: npsim's documented
            # error, before anything ran (docs/npsim.md, "How a run maps
            # onto the machine").
            m = SIM_TOO_SMALL.search(proc.stderr)
            if m:
                self.result.skipped[target] = (
                    "npsim's machine cannot hold the program: [placement] "
                    "%s in memory '%s'" % m.groups())
                return
        self.result.ran.append(target)
        broke = breakage(proc, self.tools.timeout)
        if broke:
            self.result.fail(target, *broke)
            return
        if target in SIM and SIM_STUCK in proc.stderr:
            self.result.fail(target, "stuck",
                             excerpt(proc.stderr, SIM_STUCK).rstrip())
            return
        if self.oracle is None:
            return
        oproc, odir, opcaps = self.oracle
        multicore = target in SEVERAL
        if proc.returncode != oproc.returncode:
            self.result.fail(target, "exit", "exit status %d, interpreter "
                             "%d\nstderr:\n%s\ninterpreter stderr:\n%s" % (
                                 proc.returncode, oproc.returncode,
                                 proc.stderr[-1000:], oproc.stderr[-1000:]))
            return
        stdout = proc.stdout
        if target in SIM:
            stdout, report = split_sim_report(stdout)
            why = sim_report_difference(report, SIM_CORES[target],
                                        proc.returncode)
            if why:
                self.result.fail(target, "report", why)
        pcaps = written_pcaps(d, before)
        if pcaps != opcaps:
            self.result.fail(target, "output", "pcaps written: %s, "
                             "interpreter: %s" % (pcaps, opcaps))
        # npsim's egress writes an output in the order of the input
        # packets its records came from, numbered one from each device in
        # turn (as a multicore run numbers them), where one core reads up
        # to 64 from one device before the next: with several devices,
        # one context too keeps only each flow's order.
        exact = not multicore and (target not in SIM or
                                   len(self.case.inputs) < 2)
        for f in sorted(set(pcaps) & set(opcaps)):
            ref, got = os.path.join(odir, f), os.path.join(d, f)
            why = compare.output_difference(
                ref, got, compare.EXACT if exact else compare.FLOWS,
                self.case.input_flows())
            # Under rtc, packets that a run-once instance sends on leave
            # from core 0 and may pass or fall behind their flow's others
            # (docs/multicore.md): then only the records must agree.
            if (why and multicore and self.mapping(target) == "rtc" and
                    self.rtc_tail() and
                    not compare.output_difference(ref, got,
                                                  compare.MULTISET)):
                why = None
            if why:
                self.result.fail(target, "output", "%s: %s" % (f, why))
        # npcc's warnings come with the build for the C target, with the
        # run for the interpreter.
        out = compare.normalise(stdout, self.names(d))
        err = self.text(build, bdir)[1] + self.text(proc, d)[1]
        oout, oerr = self.text(oproc, odir)
        if out != oout:
            self.result.fail(target, stdout_kind(oout, out),
                             diff_text(oout, out))
        if err != oerr and not multicore:
            self.result.fail(target, "stderr", diff_text(oerr, err))
        why = compare.stats_difference(os.path.join(odir, "stats.json"),
                                       os.path.join(d, "stats.json"),
                                       multicore)
        if why:
            self.result.fail(target, "stats", why)
        if target == "c1":
            self.compare_unprofiled(exe, proc, d, pcaps)

    def compare_unprofiled(self, exe, profiled, pdir, pcaps):
        """c1 once more without --stats-json. A run that is not profiled
        takes the runtime's fast paths (the armed links of fused sends,
        nprt/link.h), which a profiled one never does: it must exit,
        print and write exactly as the profiled run did (failure kind
        `fast`)."""
        d = os.path.join(self.work, "c1-fast")
        before = self.case.populate(d)
        proc = self.step("c1-fast", [exe] + self.case.run_flags(stats=False),
                         d)
        broke = breakage(proc, self.tools.timeout)
        if broke:
            self.result.fail("c1", "fast", "%s: %s" % broke)
            return
        if proc.returncode != profiled.returncode:
            self.result.fail("c1", "fast", "exit status %d, profiled %d" %
                             (proc.returncode, profiled.returncode))
        for mine, theirs, what in ((proc.stdout, profiled.stdout, "stdout"),
                                   (proc.stderr, profiled.stderr, "stderr")):
            if mine != theirs:
                self.result.fail("c1", "fast", "%s:\n%s" % (
                    what, diff_text(theirs, mine)))
        got = written_pcaps(d, before)
        if got != pcaps:
            self.result.fail("c1", "fast", "pcaps written: %s, profiled: %s"
                             % (got, pcaps))
        for f in sorted(set(got) & set(pcaps)):
            with open(os.path.join(d, f), "rb") as a, \
                    open(os.path.join(pdir, f), "rb") as b:
                if a.read() != b.read():
                    self.result.fail("c1", "fast", "%s differs" % f)

    def check_hls(self):
        if "hls" not in self.targets:
            return
        if not self.case.manifest.get("hls", True):
            self.result.skipped["hls"] = "the manifest says hls rejects it"
            return
        bdir = os.path.join(self.work, "hls-build")
        self.case.populate(bdir)
        proc = self.build("hls-build", "hls", ["-o", "proj"], bdir)
        if proc is None:
            self.result.skipped["hls"] = "the compiler crashed"
            return
        if proc.returncode != 0:
            why = hlsproject.rejection(proc.stderr)
            if why or (self.oracle and self.rejected_alike(proc, bdir)):
                self.result.skipped["hls"] = why or "the program is rejected"
            else:
                self.result.fail("hls", "build", proc.stderr[-2000:])
            return
        proj = os.path.join(bdir, "proj")
        with open(os.path.join(proj, "tb.cpp")) as f:
            tb = f.read()
        host = hlsproject.has_host(tb)
        if host and self.past_file_limit():
            self.result.skipped["hls"] = FILE_LIMIT
            return
        if host and not os.path.exists(os.path.join(proj, "host")):
            self.result.fail("hls", "build", "npcc wrote no host executable")
            return
        signals = self.case.manifest.get("signals", [])
        if host and any(s.split("=")[0] not in hlsproject.host_instances(proj)
                        for s in signals):
            self.result.skipped["hls"] = ("a --signal names an FPGA instance "
                                          "(no command hub yet)")
            return
        start = time.monotonic()
        ok, log = hlsbuild.build_csim(proj, self.tools.cache)
        self.result.times["hls-csim-build"] = round(time.monotonic() - start,
                                                    3)
        if not ok:
            self.result.fail("hls", "build", "csim: " + log[-2000:])
            return
        self.run_hls(proj, tb)

    def hls_command(self, proj, tb, d, before):
        """The command that runs the design, and the output pcaps it
        writes. A graph split between host and FPGA runs as its host
        executable driving the simulation (--fpga), which takes the case's
        flags; a design alone runs as the simulation, given a file for
        each of its devices."""
        csim = os.path.join(proj, "csim.out")
        if hlsproject.has_host(tb):
            # Not -h: the host has only its own side's instances.
            cmd = [os.path.join(proj, "host")] + self.case.run_flags(
                stats=False, handlers=False) + ["--fpga=" + csim]
            return cmd, {"out%d.pcap" % k for k in self.case.outputs}
        args, outs = [], set()
        for dev, path in hlsproject.devices(tb, "inputs"):
            if path != "nullptr":
                continue
            if dev not in self.case.inputs:
                # The interpreter and the C target read an input device
                # without --in as empty; the simulation wants a file.
                empty = "empty%d.pcap" % dev
                pcap.write(os.path.join(d, empty), pcap.Pcap())
                before.add(empty)
                args.append("--in=%d=%s" % (dev, empty))
            else:
                args.append("--in=%d=%s" % (dev, self.case.inputs[dev]))
        for dev, path in hlsproject.devices(tb, "outputs"):
            if path == "nullptr":
                args.append("--out=%d=out%d.pcap" % (dev, dev))
                outs.add("out%d.pcap" % dev)
        for sig in self.case.manifest.get("signals", []):
            args += ["--signal", sig]
        for h in self.case.manifest.get("handlers", []):
            args += ["-h", h]
        return [csim] + args, outs

    def run_hls(self, proj, tb):
        d = os.path.join(self.work, "hls")
        before = self.case.populate(d)
        cmd, outs = self.hls_command(proj, tb, d, before)
        proc = self.step("hls", cmd, d)
        self.result.ran.append("hls")
        broke = breakage(proc, self.tools.timeout)
        if broke:
            self.result.fail("hls", *broke)
            return
        if self.oracle is None:
            return
        oproc, odir, opcaps = self.oracle
        if proc.returncode != oproc.returncode:
            self.result.fail("hls", "exit", "exit status %d, interpreter %d"
                             "\nstderr:\n%s\ninterpreter stderr:\n%s" % (
                                 proc.returncode, oproc.returncode,
                                 proc.stderr[-1000:], oproc.stderr[-1000:]))
        # The interpreter writes every --out it is given; the simulation
        # only the devices the design has.
        port_files = {"out%d.pcap" % k for k in self.case.outputs}
        expect = [f for f in opcaps if f not in port_files or f in outs]
        pcaps = written_pcaps(d, before)
        if pcaps != expect:
            self.result.fail("hls", "output", "pcaps written: %s, "
                             "interpreter: %s" % (pcaps, expect))
        # Split between host and FPGA, the host batches what crosses, so an
        # output fed by several paths may interleave them otherwise
        # (docs/hls-target.md, "Equivalence"): the same records suffice.
        order = (compare.MULTISET if hlsproject.has_host(tb)
                 else compare.EXACT)
        for f in sorted(set(pcaps) & set(expect)):
            why = compare.output_difference(os.path.join(odir, f),
                                            os.path.join(d, f), order)
            if why:
                self.result.fail("hls", "output", "%s: %s" % (f, why))


def stdout_kind(ref, got):
    """`handler` when two outputs first differ past the statistics table
    (its last line is the pool's), where the -h values are, else
    `stdout`."""
    a, b = ref.splitlines(), got.splitlines()
    first = next((k for k in range(min(len(a), len(b))) if a[k] != b[k]),
                 min(len(a), len(b)))
    pool = max((k for k, line in enumerate(a) if line.startswith("pool: ")),
               default=-1)
    return "handler" if first > pool >= 0 else "stdout"


def diff_text(ref, got):
    """The first differing line of two outputs, with a little context."""
    a, b = ref.splitlines(), got.splitlines()
    for k in range(max(len(a), len(b))):
        la = a[k] if k < len(a) else "<end>"
        lb = b[k] if k < len(b) else "<end>"
        if la != lb:
            return "line %d:\n  interpreter: %s\n  this run:    %s" % (
                k + 1, la[:300], lb[:300])
    return "outputs differ"


FILE_TOO_LARGE = "cannot write: File too large"
FILE_LIMIT = ("the interpreter's output reached the runner's file size "
              "limit, where ingress stops: how far several cores or an FPGA "
              "got by then depends on their speeds")
SIM_FILE_LIMIT = ("the interpreter's output reached the runner's file size "
                  "limit, where ingress stops: npsim's egress holds the "
                  "records until the run ends, so its write fails only "
                  "once every input was read")
LOSSY = ("a lossy channel (=>) drops by timing on several cores "
         "(docs/multicore.md)")


SIM_STUCK = "npsim: the simulation stopped with"
SIM_TOO_SMALL = re.compile(r"error: \S+: \[placement\] (\w+): memory "
                           r"'([^']*)' holds")
# The first line of npsim's report, which follows the runtime's table and
# the -h values on stdout (runtime/npsim/Report.cpp).
SIM_REPORT = re.compile(r"^npsim: .*, (\d+) cores x (\d+) contexts at "
                        r".* MHz: \d+ cycles", re.M)


def split_sim_report(stdout):
    """(what the runtime printed, npsim's report or None): the report is
    the end of stdout from its first line on."""
    last = None
    for last in SIM_REPORT.finditer(stdout):
        pass
    if last is None:
        return stdout, None
    return stdout[:last.start()], stdout[last.start():]


def sim_report_difference(report, shape, returncode):
    """None if a run that ended with `returncode` printed the report of a
    machine of `shape` (cores, contexts), as every run that ran does;
    else what is wrong."""
    if report is None:
        return (None if returncode != 0 else
                "no npsim report on stdout: the run did not simulate")
    m = SIM_REPORT.match(report)
    got = (int(m.group(1)), int(m.group(2)))
    if got != shape:
        return "npsim simulated %d cores x %d contexts, not %d x %d" % (
            got + shape)
    return None


def sim_mapping(c_source, cores):
    """The mapping the C program's executable runs on `cores` cores when
    its command line names none, as npsim's runs here do: the one npcc
    built into it (npcc_program's `.mapping`, NPRT_MAPPING_*), else auto's
    choice (`npcc_auto_pipeline[cores - 1]`); rtc without mapping tables
    or past their 16 cores (runtime/nprt/run_cores.c, sim_run.c)."""
    m = re.search(r"npcc_program = \{.*?\.mapping = (\d+)u", c_source)
    kind = int(m.group(1)) if m else 0
    if kind:
        return "pipeline" if kind == 2 else "rtc"
    table = re.search(r"npcc_auto_pipeline\[\] = \{([^}]*)\}", c_source)
    if not table:
        return "rtc"
    auto = [v.strip() != "0" for v in table.group(1).split(",")]
    return "pipeline" if cores <= len(auto) and auto[cores - 1] else "rtc"


def c_table(c_source, name):
    """The text between the braces of the C array `name[] = {...}`, or
    None if the source declares no such table."""
    m = re.search(r"\b%s\[\]\s*=\s*\{" % re.escape(name), c_source)
    if not m:
        return None
    depth = 1
    for k in range(m.end(), len(c_source)):
        if c_source[k] == "{":
            depth += 1
        elif c_source[k] == "}":
            depth -= 1
            if depth == 0:
                return c_source[m.end():k]
    return None


def c_numbers(body):
    """The integers of a C initializer list ("0,1u,\n  2,"), or None if
    something in it is not one."""
    numbers = []
    for word in body.split(","):
        word = word.strip().rstrip("uUlL")
        if not word:
            continue
        try:
            numbers.append(int(word))
        except ValueError:
            return None
    return numbers


def c_rows(body):
    """The top-level {...} rows of a C initializer list."""
    rows, depth, start = [], 0, 0
    for k, ch in enumerate(body):
        if ch == "{":
            if depth == 0:
                start = k + 1
            depth += 1
        elif ch == "}" and depth:
            depth -= 1
            if depth == 0:
                rows.append(body[start:k])
    return rows


def instance_replication(c_source):
    """Per instance of the C program, whether it is replicated, and its
    channels as (src, dst): from the compact tables the C target emits
    (npcc_classes picked by npcc_inst_class, runs of npcc_channel_words), else
    from full ones (npcc_instances, npcc_channels). None where the
    tables are missing or unreadable."""
    classes = c_table(c_source, "npcc_classes")
    inst_class = c_table(c_source, "npcc_inst_class")
    if classes is not None and inst_class is not None:
        by_class = [re.search(r"\.replicate = true\b", row) is not None
                    for row in c_rows(classes)]
        picks = c_numbers(inst_class)
        if picks is None or any(c >= len(by_class) for c in picks):
            return None
        replicate = [by_class[c] for c in picks]
    else:
        table = c_table(c_source, "npcc_instances")
        if table is None:
            return None
        replicate = [re.search(r"\.replicate = true\b", row) is not None
                     for row in c_rows(table)]
    words = c_table(c_source, "npcc_channel_words")
    if words is not None:
        # Runs of 7 words: count, src, src_port, dst, dst_port, depth,
        # flags; the j-th channel of a run goes from src + j to dst + j.
        w = c_numbers(words)
        if w is None or len(w) % 7:
            return None
        channels = [(w[k + 1] + j, w[k + 3] + j)
                    for k in range(0, len(w), 7) for j in range(w[k])]
    else:
        table = c_table(c_source, "npcc_channels")
        if table is None:
            return None
        channels = [(int(s), int(d)) for s, d in re.findall(
            r"\.src = (\d+)u, .*?\.dst = (\d+)u", table)]
    return replicate, channels


def has_tail(c_source):
    """Whether the C program's tables have a channel from a run-once
    instance to a replicated one."""
    tables = instance_replication(c_source)
    if tables is None:
        return False
    replicate, channels = tables
    n = len(replicate)
    return any(s < n and d < n and not replicate[s] and replicate[d]
               for s, d in channels)


def program_text(program):
    """The program's text without comments, its strings emptied."""
    with open(program) as f:
        text = f.read()
    text = re.sub(r"//[^\n]*|/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"\"(?:\\.|[^\"\\])*\"", '""', text)


def has_lossy_channel(program):
    """Whether the program connects anything with `=>`: what such a channel
    drops depends on how fast its ends run, which several cores change."""
    return "=>" in program_text(program)


FREE_SOURCE = ("a source without a device or a timer interleaves its "
               "values with the input's as the scheduler runs it, which "
               "several cores change (docs/multicore.md)")
HANDLER_PACED_SOURCE = ("a timer source whose handler ends it or sends acts "
                        "where the scheduler runs that handler among the "
                        "input's packets, which several cores change "
                        "(docs/multicore.md, Limits)")
SIM_SEVERAL_INPUTS_TIMER = (
    "npsim numbers the packets of several input devices one from each in "
    "turn, as a multicore run does, where one core reads up to 64 from one "
    "device before the next: a timer then ticks between other packets "
    "(docs/npsim.md, Egress)")
SEVERAL_INPUTS = ("rtc numbers the packets of several input devices one "
                  "from each in turn, one core reads 64 from one before the "
                  "next (docs/multicore.md)")
SEVERAL_INPUTS_TIMER = ("a pipeline closes a channel cut between stages "
                        "only once the stage before has read every device, "
                        "so a timer behind an input that ends first ticks "
                        "through the other devices' time stamps "
                        "(docs/multicore.md, Limits)")
LIBRARY = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                       os.pardir, os.pardir, os.pardir, "lib")


def element_bodies(text):
    """(name, body) of each element declared in `text`."""
    for m in re.finditer(r"\belement\s+(\w+)\s*\(", text):
        start = text.find("{", m.end())
        depth, k = 0, start
        while start >= 0 and k < len(text):
            depth += {"{": 1, "}": -1}.get(text[k], 0)
            k += 1
            if depth == 0:
                yield m.group(1), text[start:k]
                break


def free_running(body):
    """An element that makes values on its own, paced by nothing: no input
    port, no device to read, no timer (InfiniteSource, a generated
    source that finishes after N packets)."""
    return not (re.search(r"^\s*in\s+\w", body, re.M) or
                "timer" in body or "device_recv" in body)


def used_bodies(program):
    """The bodies of the elements the program's graphs instantiate, the
    library's (lib/) among them."""
    text = program_text(program)
    bodies = {}
    if os.path.isdir(LIBRARY):
        for name in sorted(os.listdir(LIBRARY)):
            if name.endswith(".np"):
                with open(os.path.join(LIBRARY, name)) as f:
                    lib = re.sub(r"//[^\n]*", " ", f.read())
                bodies.update(element_bodies(lib))
    bodies.update(element_bodies(text))
    return [bodies[el] for el in
            re.findall(r"\b\w+\s*=\s*([A-Z]\w*)\s*\(", text)
            if el in bodies]


def has_free_source(program):
    """Whether an instance of a free-running element runs beside an input
    device: on one core the scheduler's round robin decides where its
    values fall among the input's packets, on several cores the cores'
    speeds do, so a run-once instance that takes both sees another order."""
    used = used_bodies(program)
    return (any(free_running(body) for body in used) and
            any("device_recv" in body for body in used))


def handler_paced(body):
    """A source with a timer (no input port) whose handler, outside the
    timer's body, ends it or sends: what it does falls between the input's
    packets where the scheduler runs the handler, not at a time of the
    clock."""
    if re.search(r"^\s*in\s+\w", body, re.M) or "timer" not in body:
        return False
    m = re.search(r"\bhandler\s*\{", body)
    if not m:
        return False
    depth, k = 0, body.find("{", m.start())
    start = k
    while k < len(body):
        depth += {"{": 1, "}": -1}.get(body[k], 0)
        k += 1
        if depth == 0:
            break
    handler = body[start:k]
    return bool(re.search(r"\b(finish|send)\s*\(", handler))


def has_handler_paced_source(program):
    """Whether a handler-paced timer source (handler_paced) runs beside an
    input device: one core runs its handler after a round's burst of the
    device's packets, rtc's core 0 between the packets' time stamps."""
    used = used_bodies(program)
    return (any(handler_paced(body) for body in used) and
            any("device_recv" in body for body in used))


def has_timer(program):
    """Whether an instance of an element with a timer runs."""
    return any(re.search(r"\btimer\b", body) for body in used_bodies(program))


def check_case(case_dir, program=None, targets=None, tools=None, work=None):
    """Runs the case in `case_dir` on the oracle and `targets` (default
    all of TARGETS) and returns a Result. `program` replaces the case's
    program; `tools` is a Tools, or the path of an npcc or of a build
    directory; `work` keeps the runs' directories there (else they go to a
    temporary directory, removed afterwards)."""
    if not isinstance(tools, Tools):
        tools = Tools(tools)
    targets = [t for t in TARGETS if t in (targets or TARGETS)]
    case = Case(case_dir, program)
    temp = work is None
    if temp:
        work = tempfile.mkdtemp(prefix="npsmith-")
    else:
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
    try:
        c = Checker(case, targets, tools, os.path.abspath(work))
        c.run_oracle()
        c.check_c()
        c.check_sim()
        c.check_hls()
        return c.result
    finally:
        if temp:
            shutil.rmtree(work, ignore_errors=True)
