"""The command line of npsmith-reduce."""

import argparse
import json
import os
import shutil
import sys
import tempfile
import time

from ..tools import stop_on_sigterm
from .engine import Engine, size
from .lexer import LexError
from .oracle import (Interestingness, case_predicate, command_predicate,
                     signatures)
from .parser import ParseError, parse
from .printer import program

USAGE = """\
npsmith-reduce PROGRAM.np [options] -- COMMAND [ARGS...]
       npsmith-reduce CASE_DIR [options]"""

DESCRIPTION = """\
Shrinks an NPL program that shows a bug by delta debugging over its syntax
tree: removes declarations, graph instances (reconnecting their
neighbours), connections, statements, state and handlers, unwraps blocks
and simplifies expressions, keeping each candidate only if it compiles to
np IR (npcc --target=mlir) and is still interesting.

With a program and a command (C-Reduce style), a candidate is interesting
when COMMAND exits 0; `{}` in ARGS is replaced by the candidate's path,
which is appended when no argument has `{}`. With a case directory written
by `npsmith fuzz`, a candidate is interesting when the case run with it
(smith.run.check_case) still fails with the first failure's target and
kind (or --signature's). Progress goes to stderr; the result is the same
on every run of a deterministic test."""


def parse_args(argv):
    if "--" in argv:
        k = argv.index("--")
        argv, command = argv[:k], argv[k + 1:]
    else:
        command = None
    ap = argparse.ArgumentParser(prog="npsmith-reduce", usage=USAGE,
                                 description=DESCRIPTION,
                                 formatter_class=argparse.
                                 RawDescriptionHelpFormatter)
    ap.add_argument("input", help="an NPL program, or a case directory")
    ap.add_argument("-o", "--output", metavar="OUT.np",
                    help="where to write the reduced program (default: "
                         "PROGRAM.reduced.np, or CASE_DIR/reduced.np)")
    ap.add_argument("--timeout", type=float, default=60, metavar="SECONDS",
                    help="a test running longer is not interesting "
                         "(default 60)")
    ap.add_argument("--npcc", metavar="PATH",
                    help="the npcc of the first check (default: $NPCC, "
                         "the npcc next to npsmith-reduce, npcc on PATH)")
    ap.add_argument("--no-compile-check", action="store_true",
                    help="run the test on every candidate, compiling or "
                         "not")
    ap.add_argument("--signature", metavar="TARGET:KIND",
                    help="with a case, the failure to keep (default: the "
                         "first the case shows)")
    ap.add_argument("--tools", metavar="DIR",
                    help="with a case, the build whose npcc the runner "
                         "uses (smith.run.check_case's tools)")
    ap.add_argument("--c-flag", action="append", default=[],
                    metavar="FLAG",
                    help="with a case, an npcc flag for the C target's "
                         "build only, as `npsmith run --c-flag` "
                         "(repeatable)")
    ap.add_argument("-j", "--jobs", type=int, default=1, metavar="N",
                    help="test up to N candidates at once (the result is "
                         "the same as with one)")
    ap.add_argument("-q", "--quiet", action="store_true",
                    help="no progress on stderr")
    args = ap.parse_args(argv)
    args.command = command
    return args, ap


def fail(message):
    sys.stderr.write(f"npsmith-reduce: error: {message}\n")
    return 1


def find_npcc(args):
    if args.npcc:
        return args.npcc
    if os.environ.get("NPCC"):
        return os.environ["NPCC"]
    # The build/bin/npsmith-reduce wrapper names the npcc next to it.
    near = os.path.join(os.environ.get("NPSMITH_BIN_DIR", ""), "npcc")
    if os.environ.get("NPSMITH_BIN_DIR") and os.path.exists(near):
        return near
    found = shutil.which("npcc")
    if found:
        return found
    here = os.path.dirname(os.path.abspath(__file__))
    built = os.path.join(here, "..", "..", "..", "..", "build", "bin",
                         "npcc")
    return built if os.path.exists(built) else None


def case_setup(args, run_module):
    """(program path, predicate, npcc flags) for a case directory."""
    case = args.input
    manifest_path = os.path.join(case, "manifest.json")
    if not os.path.exists(manifest_path):
        raise UserError(f"'{case}' is a directory without manifest.json")
    with open(manifest_path) as f:
        manifest = json.load(f)
    prog = os.path.join(case, manifest.get("program", "prog.np"))
    flags = [f"-D{d}" for d in manifest.get("defines", [])]
    if manifest.get("top"):
        flags.append(f"--top={manifest['top']}")
    if args.c_flag:
        from ..tools import Tools
        args.tools = Tools(args.tools, c_flags=args.c_flag)
    if args.signature:
        target, _, kind = args.signature.partition(":")
        signature = (target, kind)
    else:
        if run_module is None:
            from .. import run as run_module
        found = signatures(run_module.check_case(case, tools=args.tools))
        if not found:
            raise UserError(f"case '{case}' shows no failure: nothing to "
                            f"reduce")
        signature = found[0]
    note(args, f"keeping the failure {signature[0]}:{signature[1]}")
    return prog, case_predicate(case, signature, args.tools, run_module), \
        flags


class UserError(Exception):
    """Bad input: reported with its message, exit status 1."""


def note(args, text):
    if not args.quiet:
        sys.stderr.write(f"npsmith-reduce: {text}\n")


def cand_dir(prog, tree):
    """Where candidates live: next to the program when it imports a file
    relative to itself, else a directory of their own."""
    home = os.path.dirname(os.path.abspath(prog))
    for decl in tree.decls:
        if decl.kind == "import" and os.path.exists(
                os.path.join(home, decl.path[1:-1])):
            return home, False
    return tempfile.mkdtemp(prefix="npsmith-reduce-"), True


def main(argv=None, run_module=None):
    """Runs npsmith-reduce; `run_module` stands in for smith.run in
    tests."""
    args, ap = parse_args(sys.argv[1:] if argv is None else argv)
    stop_on_sigterm()
    try:
        return reduce(args, ap, run_module)
    except UserError as e:
        return fail(str(e))


def write_atomically(path, text):
    """Writes `text` to `path` so that a reader (or a kill) never sees half
    of it."""
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def reduce(args, ap, run_module):
    """Checks the input, reduces it and writes the result; UserError for
    input that cannot be reduced."""
    if os.path.isdir(args.input):
        if args.command:
            raise UserError("a case directory takes no command")
        prog, predicate, flags = case_setup(args, run_module)
        output = args.output or os.path.join(args.input, "reduced.np")
    else:
        if not os.path.exists(args.input):
            raise UserError(f"no such file: '{args.input}'")
        if not args.command:
            ap.print_usage(sys.stderr)
            raise UserError("a program needs an interestingness command "
                            "after `--`")
        prog, flags = args.input, []
        predicate = command_predicate(args.command, args.timeout)
        stem = prog[:-3] if prog.endswith(".np") else prog
        output = args.output or stem + ".reduced.np"
    try:
        with open(prog) as f:
            original = f.read()
        tree = parse(original)
    except OSError as e:
        raise UserError(f"cannot read '{prog}': {e.strerror}")
    except (ParseError, LexError) as e:
        raise UserError(f"{prog}: {e}")

    home, own = cand_dir(prog, tree)
    # In a directory of its own a candidate has the program's name, so
    # that a test reading npcc's messages sees the same file name.
    cands = []
    for k in range(max(1, args.jobs)):
        if own:
            os.makedirs(os.path.join(home, str(k)))
            cands.append(os.path.join(home, str(k), os.path.basename(prog)))
        else:
            cands.append(os.path.join(
                home, f".npsmith-reduce-{os.getpid()}-{k}.np"))
    cand = cands[0]
    npcc = None if args.no_compile_check else find_npcc(args)
    if not args.no_compile_check and npcc is None:
        raise UserError("npcc not found: put it on PATH or pass --npcc")
    test = Interestingness(predicate, cands, npcc, args.timeout, flags)
    started = time.monotonic()
    try:
        text = program(tree)
        if npcc:
            with open(cand, "w") as f:
                f.write(text)
            if not test.compiles_ok():
                note(args, "the program does not compile to np IR: "
                           "candidates are not compiled first")
                test.npcc = None
        if not test(text):
            with open(cand, "w") as f:
                f.write(original)
            if predicate(cand):
                raise UserError(f"'{prog}' is interesting, but not once "
                                f"printed without its comments and layout")
            raise UserError(f"'{prog}' is not interesting to start with "
                            f"(the test fails on it)")
        engine = Engine(tree, test, None if args.quiet else sys.stderr,
                        keep=lambda text: write_atomically(output, text))
        result = engine.run()
    finally:
        for path in cands:
            if os.path.exists(path):
                os.remove(path)
        if own:
            shutil.rmtree(home, ignore_errors=True)
    write_atomically(output, result)
    (t0, l0), (t1, l1) = size(text), size(result)
    note(args, f"done in {time.monotonic() - started:.1f} s: {t0} -> {t1} "
               f"tokens, {l0} -> {l1} lines, {test.runs} tests and "
               f"{test.compiles} compiles; wrote {output}")
    return 0
