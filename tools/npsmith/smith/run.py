"""The differential runner: one case on every target against the oracle.

A case directory (prog.np, manifest.json, extra files, in<d>.pcap) is run
on the reference interpreter, which is the oracle, then built for the C
target and run on one core, on two cores with the rtc mapping and on two
with the pipeline mapping, then built as an HLS project and run in its C
simulation when the hls target takes the program. Each run has a
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

TARGETS = ("c1", "c2-rtc", "c2-pipeline", "hls")
MULTICORE = {"c2-rtc": ["--cores", "2", "--mapping", "rtc"],
             "c2-pipeline": ["--cores", "2", "--mapping", "pipeline"]}
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
        wanted = [t for t in self.targets if t != "hls"]
        if not wanted:
            return
        bdir = os.path.join(self.work, "c-build")
        self.case.populate(bdir)
        build = self.build("c-build", "c", ["-o", "prog"] +
                           self.tools.c_flags, bdir)
        if build is None:
            for t in wanted:
                self.result.skipped[t] = "the compiler crashed"
            return
        if build.returncode != 0:
            if self.oracle and self.rejected_alike(build, bdir):
                for t in wanted:
                    self.result.skipped[t] = "the program is rejected"
            else:
                self.result.fail("c1", "build", build.stderr[-2000:])
                for t in wanted[1:]:
                    self.result.skipped[t] = "no executable"
            return
        exe = os.path.join(bdir, "prog")
        for t in wanted:
            if t in MULTICORE and self.past_file_limit():
                self.result.skipped[t] = FILE_LIMIT
                continue
            if t in MULTICORE and has_lossy_channel(self.case.program):
                self.result.skipped[t] = LOSSY
                continue
            if t in MULTICORE and has_free_source(self.case.program):
                self.result.skipped[t] = FREE_SOURCE
                continue
            if t in MULTICORE and has_handler_paced_source(self.case.program):
                self.result.skipped[t] = HANDLER_PACED_SOURCE
                continue
            if t == "c2-rtc" and len(self.case.inputs) > 1:
                self.result.skipped[t] = SEVERAL_INPUTS
                continue
            if (t == "c2-pipeline" and len(self.case.inputs) > 1 and
                    has_timer(self.case.program)):
                self.result.skipped[t] = SEVERAL_INPUTS_TIMER
                continue
            self.run_c(t, exe, build, bdir)

    def rtc_tail(self, bdir):
        """Whether, under rtc, some replicated instance takes values from
        a run-once one: a copy of it then runs on core 0 behind the
        run-once instances (the tail). Read from the instance and channel
        tables of the program's C (`.replicate`, `.src`, `.dst`)."""
        if not hasattr(self, "_rtc_tail"):
            proc = self.build("c-source", "c", ["-S", "-o", "prog.c"] +
                              self.tools.c_flags, bdir)
            self._rtc_tail = False
            path = os.path.join(bdir, "prog.c")
            if proc is not None and proc.returncode == 0 and \
                    os.path.exists(path):
                with open(path) as f:
                    self._rtc_tail = has_tail(f.read())
        return self._rtc_tail

    def run_c(self, target, exe, build, bdir):
        d = os.path.join(self.work, target)
        before = self.case.populate(d)
        cmd = [exe] + self.case.run_flags() + MULTICORE.get(target, [])
        proc = self.step(target, cmd, d)
        self.result.ran.append(target)
        broke = breakage(proc, self.tools.timeout)
        if broke:
            self.result.fail(target, *broke)
            return
        if self.oracle is None:
            return
        oproc, odir, opcaps = self.oracle
        multicore = target in MULTICORE
        if proc.returncode != oproc.returncode:
            self.result.fail(target, "exit", "exit status %d, interpreter "
                             "%d\nstderr:\n%s\ninterpreter stderr:\n%s" % (
                                 proc.returncode, oproc.returncode,
                                 proc.stderr[-1000:], oproc.stderr[-1000:]))
            return
        pcaps = written_pcaps(d, before)
        if pcaps != opcaps:
            self.result.fail(target, "output", "pcaps written: %s, "
                             "interpreter: %s" % (pcaps, opcaps))
        for f in sorted(set(pcaps) & set(opcaps)):
            ref, got = os.path.join(odir, f), os.path.join(d, f)
            why = compare.output_difference(
                ref, got, compare.FLOWS if multicore else compare.EXACT,
                self.case.input_flows())
            # Under rtc, packets that a run-once instance sends on leave
            # from core 0 and may pass or fall behind their flow's others
            # (docs/multicore.md): then only the records must agree.
            if (why and target == "c2-rtc" and self.rtc_tail(bdir) and
                    not compare.output_difference(ref, got,
                                                  compare.MULTISET)):
                why = None
            if why:
                self.result.fail(target, "output", "%s: %s" % (f, why))
        # npcc's warnings come with the build for the C target, with the
        # run for the interpreter.
        out, err = self.text(proc, d, "")
        err = self.text(build, bdir)[1] + err
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
LOSSY = ("a lossy channel (=>) drops by timing on several cores "
         "(docs/multicore.md)")


def has_tail(c_source):
    """Whether the C program's tables have a channel from a run-once
    instance to a replicated one."""
    table = re.search(r"npcc_instances\[\] = \{(.*?)\n\};", c_source, re.S)
    chans = re.search(r"npcc_channels\[\] = \{(.*?)\n\};", c_source, re.S)
    if not table or not chans:
        return False
    replicate = [m == "true" for m in
                 re.findall(r"\.replicate = (true|false)", table.group(1))]
    for src, dst in re.findall(r"\.src = (\d+)u, .*?\.dst = (\d+)u",
                               chans.group(1)):
        s, d = int(src), int(dst)
        if s < len(replicate) and d < len(replicate) and \
                not replicate[s] and replicate[d]:
            return True
    return False


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
        c.check_hls()
        return c.result
    finally:
        if temp:
            shutil.rmtree(work, ignore_errors=True)
