#!/usr/bin/env python3
"""Checks the concrete claims of Markdown docs against the build.

usage: check-claims.py --root SRC --program EXE [--bindir BIN] [--makefile MK]
                       [--pipeline DOC --npcc-program NP] FILE.md...

Looks at every command (a line of a ```sh block, or an inline `code` span
that starts with a tool name) and at every inline path:

  * a command of one of our tools (npcc, npgen, ..., with or without
    build/bin/) or of a compiled program (`./name`, `prog`) uses only
    options its --help lists, and for an option with listed values
    (--target=<value>) only those values;
  * `make TARGET` names a target of the Makefile (`make -C DIR ...`, the
    Makefile of a directory npcc writes, is not checked);
  * a path under one of the source directories, or build/bin/TOOL,
    build/lib/FILE, exists.

With --pipeline, the pass column of the table in DOC (rows `| N | `pass` |`)
is the sequence of passes `npcc NP --target=c -S --mlir-print-ir-after-all`
runs. Prints each wrong claim and `claims: N checked, M wrong`; exits 1 if
any is wrong.
"""
import argparse
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys

from markdown_files import all_markdown

TOOLS = ("npcc", "npcc-opt", "npcc-translate", "npgen", "npdump", "muasm",
         "mudis", "musim", "portals-diff", "portals-native-bench", "ucode-opt",
         "ucode-translate", "nprt-unittests", "mu-isa-unittests", "npsmith",
         "npsmith-reduce", "npcc-test-interp", "npsim", "npsim-config",
         "npsim-unittests")
SRC_DIRS = ("compiler", "dialects", "targets", "runtime", "lib", "examples",
            "tools", "docs", "test", "bench", "scripts")
FENCE = re.compile(r"^\s*(`{3,}|~{3,})\s*(\S*)")


class Claims:
    def __init__(self, a):
        self.a = a
        self.checked = 0
        self.wrong = []
        self.helps = {}
        with open(a.makefile or os.path.join(a.root, "Makefile")) as f:
            self.make_targets = set(re.findall(r"^([\w.-]+)\s*:", f.read(), re.M))

    def ok(self, where, what):
        self.checked += 1
        if self.a.verbose:
            print("ok %s: %s" % (where, what))

    def bad(self, where, msg):
        self.wrong.append("%s: %s" % (where, msg))

    def help(self, tool):
        if tool not in self.helps:
            exe = self.a.program if tool == "<program>" else os.path.join(self.a.bindir, tool)
            text = ""
            for flag in ("--help", "--help-hidden"):
                try:
                    p = subprocess.run([exe, flag], stdout=subprocess.PIPE,
                                       stderr=subprocess.STDOUT, universal_newlines=True,
                                       timeout=60)
                except OSError as e:
                    self.helps[tool] = None
                    return None
                if p.returncode == 0:
                    text += p.stdout
                if "--help-hidden" not in text:
                    break  # only LLVM's option parser has hidden options
            self.helps[tool] = text
        return self.helps[tool]

    def option_ok(self, help_text, opt):
        name, _, value = opt.partition("=")
        if name == "--help":
            return None  # help() got text only if --help exits 0
        lines = help_text.split("\n")
        pat = re.compile(r"(?<![\w-])%s(?![\w-])" % re.escape(name))
        hits = [i for i, l in enumerate(lines) if pat.search(l)]
        if not hits:
            return "option %s is not in its --help" % name
        if not value or "<" in value or value.isupper():
            return None
        # Values are listed under the line that defines the option, not
        # under another option's description that mentions it.
        for i in hits:
            if not re.match(r"^\s*%s(?![\w-])" % re.escape(name), lines[i]):
                continue
            values = []
            for l in lines[i + 1:]:
                m = re.match(r"^\s+=(\S+)", l)
                if not m:
                    break
                values.append(m.group(1))
            if values:
                for v in value.split("|"):
                    if v not in values:
                        return "%s=%s: not one of %s" % (name, v, ", ".join(values))
        return None

    def command(self, where, text):
        text = text.replace("\\|", "|")
        try:
            toks = shlex.split(text, comments=True)
        except ValueError:
            toks = text.split()
        cmds, cur = [], []
        for t in toks:
            if t in ("|", "&&", ";", ">", "<", "2>&1"):
                cmds.append(cur)
                cur = []
            else:
                cur.append(t)
        cmds.append(cur)
        for c in cmds:
            if not c:
                continue
            head = c[0]
            if head == "make" and len(c) > 1 and c[1] == "-C":
                # Another directory's Makefile (a project npcc writes).
                self.ok(where, "make -C " + " ".join(c[2:3]))
                continue
            if head == "make" and len(c) > 1:
                self.ok(where, "make " + c[1])
                if c[1] not in self.make_targets:
                    self.bad(where, "make has no target '%s'" % c[1])
                continue
            if head.startswith("build/bin/"):
                self.path(where, head)
                head = head[len("build/bin/"):]
            if head in TOOLS:
                tool = head
            elif re.match(r"^\./[a-z][\w-]*$", head) or head == "prog":
                tool = "<program>"
            else:
                continue
            h = self.help(tool)
            self.ok(where, tool)
            if not h:
                self.bad(where, "%s has no working --help" % tool)
                continue
            for t in c[1:]:
                if re.match(r"^--?[A-Za-z][\w-]*(=.*)?$", t) and not t.startswith("-std"):
                    self.ok(where, "%s %s" % (tool, t))
                    err = self.option_ok(h, t.rstrip(".,"))
                    if err:
                        self.bad(where, "%s: %s" % (tool, err))

    def bare_option(self, where, opt, tool):
        """An option named on its own: in a tool's table row it is that
        tool's, elsewhere it must be an option of one of the tools."""
        candidates = [tool] if tool else list(TOOLS) + ["<program>"]
        self.ok(where, "%s %s" % (tool or "any tool", opt))
        errs = []
        for t in candidates:
            h = self.help(t)
            err = self.option_ok(h, opt) if h else "%s has no --help" % t
            if not err:
                return
            errs.append(err)
        self.bad(where, "%s: %s" % (tool or "no tool", errs[0] if tool else
                                    "option %s is in no tool's --help" % opt))

    def path(self, where, p):
        p = p.rstrip(".,:")
        if "<" in p or "*" in p or "{" in p:
            return
        if p.startswith("build/"):
            sub = p[len("build/"):]
            if not (sub.startswith("bin/") or sub.startswith("lib/")):
                return
            full = os.path.join(os.path.dirname(self.a.bindir), sub)
        elif p.split("/")[0] in SRC_DIRS and "/" in p:
            full = os.path.join(self.a.root, p)
        else:
            return
        self.ok(where, p)
        # A README may name files relative to its own directory.
        local = os.path.join(self.a.root, os.path.dirname(where.split(":")[0]), p)
        if not os.path.exists(full) and not os.path.exists(local):
            self.bad(where, "no such file or directory: %s" % p)

    def markdown(self, path):
        rel = os.path.relpath(path, self.a.root)
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        fence = None
        for n, line in enumerate(lines, 1):
            where = "%s:%d" % (rel, n)
            m = FENCE.match(line)
            if m:
                fence = None if fence else m.group(2)
                continue
            if fence is not None:
                if fence == "sh":
                    self.command(where, line)
                continue
            spans = re.findall(r"`([^`]+)`", line)
            row_tool = None
            if line.startswith("|") and spans:
                first = spans[0].split()[0]
                row_tool = first if first in TOOLS else None
            for span in spans:
                words = span.split()
                first = words[0] if words else ""
                if first in TOOLS or first.startswith("build/bin/") or first == "make" \
                        or first.startswith("./") and " " in span:
                    self.command(where, span)
                elif re.match(r"^(--[A-Za-z][\w-]*(=\S*)?|-[A-Z])$", first):
                    self.bare_option(where, first, row_tool)
                for word in words:
                    self.path(where, word)

    def pipeline(self, doc, program, npcc):
        with open(doc) as f:
            text = f.read()
        rows = re.findall(r"^\|\s*\d+\s*\|\s*([^|]*)\|", text, re.M)
        documented = []
        for r in rows:
            documented += re.findall(r"`([a-z][\w-]*)`", r)
        p = subprocess.run([npcc, program, "--target=c", "-S", "-o", os.devnull,
                            "--mlir-print-ir-after-all"], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, universal_newlines=True)
        ran = re.findall(r"IR Dump After \w+ \(([\w-]+)\)", p.stdout)
        rel = os.path.relpath(doc, self.a.root)
        self.ok(rel, "pipeline " + " ".join(ran))
        if documented != ran:
            self.bad(rel, "the pipeline table lists %s; npcc runs %s"
                     % (" ".join(documented), " ".join(ran)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True)
    ap.add_argument("--bindir", help="the tools (default: npcc's directory)")
    ap.add_argument("--makefile", help="default: the Makefile under --root")
    ap.add_argument("--program", required=True, help="a program built by npcc")
    ap.add_argument("--pipeline", help="doc with the C pipeline table")
    ap.add_argument("--npcc-program", help="NPL program for --pipeline")
    ap.add_argument("--verbose", action="store_true", help="print every claim checked")
    ap.add_argument("files", nargs="+", help="Markdown files or globs under --root; "
                    "ALL for every one")
    a = ap.parse_args()
    if not a.bindir:
        npcc = shutil.which("npcc")
        if not npcc:
            print("error: no npcc on PATH")
            return 1
        a.bindir = os.path.dirname(os.path.realpath(npcc))
    c = Claims(a)
    if a.files == ["ALL"]:
        for path in all_markdown(a.root):
            c.markdown(path)
    for pat in (a.files if a.files != ["ALL"] else []):
        found = sorted(glob.glob(os.path.join(a.root, pat)))
        if not found:
            print("error: no file matches %s" % pat)
            return 1
        for path in found:
            c.markdown(path)
    if a.pipeline:
        c.pipeline(os.path.join(a.root, a.pipeline), a.npcc_program,
                   os.path.join(a.bindir, "npcc"))
    for w in c.wrong:
        print("WRONG " + w)
    print("claims: %d checked, %d wrong" % (c.checked, len(c.wrong)))
    return 1 if c.wrong else 0


if __name__ == "__main__":
    sys.exit(main())
