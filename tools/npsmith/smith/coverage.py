"""Which np dialect ops and which builtins generated programs reach.

The generator is meant to reach every construct of the language; this
counts what it did reach, so that an op or a builtin it never produces
shows up as 0 instead of going unnoticed. The full lists come from the
source tree: the ops from the ODS definitions under dialects/NP/IR, the
builtins from dialects/NP/IR/Builtins.def. Ops are counted in the np
dialect IR after every pass of the C pipeline (`--mlir-print-ir-after-all`
in the generic form), builtins as calls in the program text.
"""
import collections
import glob
import json
import os
import re
import subprocess

OP_DEF = re.compile(r"^def\s+\w+\s*:\s*NP_\w*Op<\s*\"([\w.]+)\"", re.M)
BUILTIN_DEF = re.compile(r"^NPL_BUILTIN\(\s*\w+\s*,\s*\"(\w+)\"", re.M)
# An op in the generic form: `"np.name"(` (attributes are not ops).
IR_OP = re.compile(r"\"np\.([a-z_]\w*)\"\(")
COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
STRING = re.compile(r"\"(?:\\.|[^\"\\])*\"")


def source_root():
    """The folder of the np dialect's ODS files and Builtins.def: the
    checkout's dialects/NP/IR ($NPSMITH_SRC, else the tree the package
    sits in), or the copy an install puts next to the package; None
    without either."""
    pkg = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    root = os.environ.get("NPSMITH_SRC") or os.path.join(pkg, "..", "..")
    for ir in (os.path.join(root, "dialects", "NP", "IR"),
               os.path.join(pkg, "ir")):
        if os.path.isfile(os.path.join(ir, "Builtins.def")):
            return os.path.normpath(ir)
    return None


def all_ops(ir):
    ops = set()
    for td in glob.glob(os.path.join(ir, "*.td")):
        with open(td) as f:
            ops.update(OP_DEF.findall(f.read()))
    return sorted(ops)


def all_builtins(ir):
    with open(os.path.join(ir, "Builtins.def")) as f:
        return sorted(set(BUILTIN_DEF.findall(f.read())))


def builtin_calls(source, names):
    """Counts the calls of each builtin in NPL `source` (comments and
    strings taken out; a method or a declaration of the name is no call)."""
    text = STRING.sub('""', COMMENT.sub(" ", source))
    counts = collections.Counter()
    for m in re.finditer(r"(?<![\w.])(\w+)\s*\(", text):
        name = m.group(1)
        before = text[max(0, m.start() - 12):m.start()]
        if name in names and not re.search(r"\b(fn|element|graph)\s+$",
                                           before):
            counts[name] += 1
    return counts


def ir_ops(ir):
    return collections.Counter(IR_OP.findall(ir))


def case_counts(case_dir, tools, program=None):
    """(op counts, builtin counts) of one case directory."""
    with open(os.path.join(case_dir, "manifest.json")) as f:
        m = json.load(f)
    prog = program or os.path.join(case_dir, m.get("program", "prog.np"))
    flags = ["-D" + d for d in m.get("defines", [])]
    if m.get("top"):
        flags.append("--top=" + m["top"])
    # The IR after every pass of the C pipeline, in the generic form: the
    # ops passes create (np.fused_send, np.push, np.program, ...) and the
    # terminators the custom form leaves out (np.yield) are counted too.
    # A program the C target refuses is counted from the front end's IR.
    generic = ["--mlir-print-ir-after-all", "--mlir-print-op-generic"]
    ops = collections.Counter()
    for target in (["--target=c", "-S", "-o", os.devnull],
                   ["--target=mlir", "-o", "-"]):
        cmd = [tools.npcc, os.path.abspath(prog)] + target + generic + flags
        r = subprocess.run(cmd, cwd=case_dir, capture_output=True, text=True)
        if r.returncode == 0:
            ops = ir_ops(r.stdout + r.stderr)
            break
    root = source_root()
    names = set(all_builtins(root)) if root else set()
    with open(prog) as f:
        calls = builtin_calls(f.read(), names)
    return ops, calls


def case_dirs(paths):
    """Every case directory (one with a manifest.json) in or under
    `paths`."""
    out = []
    for p in paths:
        for d, subdirs, files in os.walk(p):
            subdirs.sort()
            if "manifest.json" in files:
                out.append(d)
                subdirs[:] = []
    return out


class Report:
    """Reach counts of ops and builtins over a set of programs."""

    def __init__(self):
        self.programs = 0
        self.ops = collections.Counter()
        self.builtins = collections.Counter()

    def add(self, ops, builtins):
        self.programs += 1
        self.ops.update({k: 1 for k in ops})
        self.builtins.update({k: 1 for k in builtins})


def collect(paths, tools):
    report = Report()
    for d in case_dirs(paths):
        report.add(*case_counts(d, tools))
    return report


def format_report(report, verbose=False):
    """The report as text: reached/total and what was never reached, per
    kind; with `verbose`, how many programs reached each."""
    root = source_root()
    lines = ["coverage of %d programs:" % report.programs]
    kinds = (("np ops", report.ops, all_ops(root) if root else None),
             ("builtins", report.builtins,
              all_builtins(root) if root else None))
    for title, counts, full in kinds:
        if full is None:
            lines.append("  %s: %d reached (no source tree for the full "
                         "list)" % (title, len(counts)))
            full = sorted(counts)
        else:
            reached = [k for k in full if counts[k]]
            missing = [k for k in full if not counts[k]]
            lines.append("  %s: %d/%d reached" % (title, len(reached),
                                                  len(full)))
            if missing:
                lines.append("    missing: " + " ".join(missing))
            unknown = sorted(k for k in counts if k not in full)
            if unknown:
                lines.append("    not in the list: " + " ".join(unknown))
        if verbose:
            for k in full:
                lines.append("    %-20s %d" % (k, counts[k]))
    return "\n".join(lines)
