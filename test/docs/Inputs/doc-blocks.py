#!/usr/bin/env python3
"""Checks the fenced code blocks of Markdown documentation against the tools.

Every fence must carry a tag (the info string's first word) from TAGS, so
an NPL example cannot slip in unchecked. A `file=NAME` word after the tag
names the block for --extract, which tests use to run the docs' examples;
`sh run` marks commands that --run executes as a user would.

  npl           a complete NPL file. npcc --target=mlir must accept it without
                a diagnostic; if it declares a graph, npcc --target=c -S must
                compile it and the C must compile with the C compiler given
                (-Wall -Werror); if it declares a match program, npcc
                --target=ucode must compile it.
  npl-error     a complete NPL file npcc must reject (exit 1, no crash). Each
                line that ends in `// error: MESSAGE` (or `// note: MESSAGE`)
                must get an error (a note) at that line whose message contains
                MESSAGE, and every error and note in the block must be
                announced that way. Compiled with --target=c -S when it
                declares a graph, else --target=mlir.
  npl-fragment  part of a program (statements, an expression): not compiled.
  click         a complete Click configuration (docs/click.md): npcc
                --target=c -S must compile it and the C must compile.
  mua           match-unit assembly: muasm must assemble it, and mudis' text
                of the image must assemble to the same bytes.
  json          must parse as JSON.
  sh            commands: every `build/bin/TOOL` named must be a built tool.
  text          output, diagrams: not checked.

Prints one line per checked block and a summary `N blocks ok, N failed`; exits
1 when a block fails.
"""
import argparse
import glob
import json
import os
import re
import shlex
import shutil
import subprocess
import sys

from markdown_files import all_markdown

TAGS = ("npl", "npl-error", "npl-fragment", "click", "mua", "json", "sh",
        "text")
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})(.*)$")
DIAG = re.compile(r"^(.*?):(\d+):(\d+): (error|note): (.*)$")
EXPECT = re.compile(r"//\s*(error|note):\s*(.*?)\s*$")
GRAPH = re.compile(r"^\s*graph\s+[A-Za-z_]\w*\s*\(", re.M)
MATCH = re.compile(r"^\s*match\s+[A-Za-z_]\w*\s*\(", re.M)


class Block:
    def __init__(self, path, line, tag, text, attrs=None):
        self.path, self.line, self.tag, self.text = path, line, tag, text
        self.attrs = attrs or {}

    def where(self):
        return "%s:%d" % (self.path, self.line)


def blocks(path, display):
    """Yields the fenced blocks of a Markdown file (CommonMark fences)."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, info = m.group(1), m.group(2), m.group(3).strip()
        start = i + 1
        body = []
        i += 1
        while i < len(lines):
            s = lines[i].strip()
            if s.startswith(fence) and s.strip(fence[0]) == "":
                break
            line = lines[i]
            body.append(line[len(indent):] if line.startswith(indent) else line.lstrip())
            i += 1
        else:
            yield Block(display, start, None, "unterminated fence")
            return
        i += 1
        words = info.split()
        tag = words[0] if words else ""
        attrs = dict(w.split("=", 1) if "=" in w else (w, True) for w in words[1:])
        yield Block(display, start, tag, "\n".join(body) + "\n", attrs)


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, **kw)


def crashed(p):
    return p.returncode < 0 or p.returncode > 1


class Checker:
    def __init__(self, args):
        self.a = args
        self.n = 0

    def file(self, block, ext):
        self.n += 1
        base = re.sub(r"[^A-Za-z0-9]+", "-", block.where()).strip("-")
        path = os.path.join(self.a.work, "%s.%s" % (base, ext))
        with open(path, "w", encoding="utf-8") as f:
            f.write(block.text)
        return path

    def npcc(self, src, *args):
        return run([self.a.npcc, src] + list(args))

    def check_npl(self, b):
        src = self.file(b, "np")
        p = self.npcc(src, "--target=mlir", "-o", os.devnull)
        if p.returncode != 0:
            return "npcc --target=mlir failed:\n" + p.stderr
        if p.stderr.strip():
            return "npcc --target=mlir printed diagnostics:\n" + p.stderr
        done = ["mlir"]
        if GRAPH.search(b.text):
            c = src[:-3] + ".c"
            p = self.npcc(src, "--target=c", "-S", "-o", c)
            if p.returncode != 0:
                return "npcc --target=c -S failed:\n" + p.stderr
            p = run(shlex.split(self.a.cc) + ["-c", c, "-I", self.a.include,
                                              "-o", c[:-2] + ".o"])
            if p.returncode != 0:
                return "the C of npcc --target=c -S does not compile:\n" + p.stderr
            done.append("c")
        if MATCH.search(b.text):
            p = self.npcc(src, "--target=ucode", "-o", src[:-3] + ".mu")
            if p.returncode != 0:
                return "npcc --target=ucode failed:\n" + p.stderr
            done.append("ucode")
        if done == ["mlir"] and not re.search(r"^\s*(element|struct|header|const|import|fn|annotation)\b",
                                               b.text, re.M):
            return "an npl block declares nothing; tag a fragment npl-fragment"
        self.detail = ",".join(done)
        return None

    def check_npl_error(self, b):
        src = self.file(b, "np")
        expected = {}
        for k, line in enumerate(b.text.split("\n"), 1):
            m = EXPECT.search(line)
            if m:
                expected[k] = (m.group(1), m.group(2))
        if not any(kind == "error" for kind, _ in expected.values()):
            return "an npl-error block needs a `// error: MESSAGE` comment at the error"
        if GRAPH.search(b.text):
            p = self.npcc(src, "--target=c", "-S", "-o", os.devnull)
        else:
            p = self.npcc(src, "--target=mlir", "-o", os.devnull)
        if p.returncode == 0:
            return "npcc accepted a block marked npl-error"
        if crashed(p):
            return "npcc crashed (exit %d):\n%s" % (p.returncode, p.stderr)
        got = {}
        for line in p.stderr.split("\n"):
            m = DIAG.match(line)
            if m and os.path.basename(m.group(1)) == os.path.basename(src):
                got.setdefault(int(m.group(2)), []).append((m.group(4), m.group(5)))
        problems = []
        for k, (kind, msg) in sorted(expected.items()):
            if not any(gk == kind and msg in g for gk, g in got.get(k, [])):
                problems.append("line %d: expected %s containing '%s', got %s"
                                % (k, kind, msg, [g for _, g in got.get(k, [])] or "none"))
        for k, msgs in sorted(got.items()):
            if k not in expected:
                problems.append("line %d: unexpected %s '%s'" % (k, msgs[0][0], msgs[0][1]))
        if problems:
            return "\n".join(problems) + "\nnpcc said:\n" + p.stderr
        self.detail = "error"
        return None

    def check_click(self, b):
        src = self.file(b, "click")
        c = src[:-len(".click")] + ".c"
        p = self.npcc(src, "--target=c", "-S", "-o", c)
        if p.returncode != 0:
            return "npcc --target=c -S failed:\n" + p.stderr
        p = run(shlex.split(self.a.cc) + ["-c", c, "-I", self.a.include,
                                          "-o", c[:-2] + ".o"])
        if p.returncode != 0:
            return "the C of npcc --target=c -S does not compile:\n" + p.stderr
        self.detail = "click,c"
        return None

    def check_mua(self, b):
        src = self.file(b, "mua")
        img = src[:-4] + ".mu"
        p = run([self.a.muasm, src, "-o", img])
        if p.returncode != 0:
            return "muasm failed:\n" + p.stderr
        # docs/match-unit-isa.md: `muasm | mudis | muasm` is byte-identical.
        mudis = os.path.join(os.path.dirname(shutil.which(self.a.muasm) or self.a.muasm), "mudis")
        p = run([mudis, img])
        if p.returncode != 0:
            return "mudis failed:\n" + p.stderr
        dis = src[:-4] + ".dis.mua"
        with open(dis, "w") as f:
            f.write(p.stdout)
        p = run([self.a.muasm, dis, "-o", dis[:-4] + ".mu"])
        if p.returncode != 0:
            return "muasm failed on mudis' output:\n" + p.stderr
        with open(img, "rb") as f1, open(dis[:-4] + ".mu", "rb") as f2:
            if f1.read() != f2.read():
                return "muasm | mudis | muasm is not byte-identical"
        self.detail = "mua,round-trip"
        return None

    def check_json(self, b):
        try:
            json.loads(b.text)
        except ValueError as e:
            return "not JSON: %s" % e
        return None

    def check_sh(self, b):
        missing = sorted(set(t for t in re.findall(r"build/bin/([\w.-]+)", b.text)
                             if not os.access(os.path.join(self.a.bindir, t), os.X_OK)))
        if missing:
            return "no such tool in build/bin: " + ", ".join(missing)
        return None

    def check(self, b):
        self.detail = b.tag
        if b.tag is None:
            return b.text
        if b.tag == "":
            return "code block without a tag; use one of " + ", ".join(TAGS)
        if b.tag not in TAGS:
            return "unknown tag '%s'; use one of %s" % (b.tag, ", ".join(TAGS))
        fn = {"npl": self.check_npl, "npl-error": self.check_npl_error,
              "click": self.check_click,
              "mua": self.check_mua, "json": self.check_json, "sh": self.check_sh}.get(b.tag)
        return fn(b) if fn else None


def run_tutorial(a, paths):
    root = os.path.abspath(a.root)
    os.makedirs(os.path.join(a.run, "build"), exist_ok=True)
    npcc = shutil.which(a.npcc)
    if not npcc:
        print("error: no npcc at %s" % a.npcc)
        return 1
    links = {"build/bin": os.path.dirname(os.path.realpath(npcc)),
             "build/lib": os.path.join(os.path.dirname(os.path.dirname(
                 os.path.realpath(npcc))), "lib"),
             "examples": os.path.join(root, "examples"),
             "lib": os.path.join(root, "lib"),
             "runtime": os.path.join(root, "runtime")}
    for name, target in links.items():
        link = os.path.join(a.run, name)
        if not os.path.lexists(link):
            os.symlink(target, link)
    todo = []
    for path in paths:
        for b in blocks(path, os.path.relpath(path, a.root)):
            if "file" in b.attrs:
                with open(os.path.join(a.run, b.attrs["file"]), "w") as f:
                    f.write(b.text)
            if b.tag == "sh" and b.attrs.get("run"):
                todo.append(b)
    if not todo:
        print("error: no `sh run` block")
        return 1
    for b in todo:
        print("## %s" % b.where())
        sys.stdout.flush()
        p = subprocess.run(["bash", "-e", "-x", "-c", b.text], cwd=a.run,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True)
        sys.stdout.write(p.stdout)
        if p.returncode != 0:
            print("FAIL %s: exit %d" % (b.where(), p.returncode))
            return 1
    print("%d command blocks ran" % len(todo))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--npcc", default="npcc")
    ap.add_argument("--muasm", default="muasm")
    ap.add_argument("--cc", default="cc", help="C compiler command with its flags")
    ap.add_argument("--include", help="runtime/include (default: under --root)")
    ap.add_argument("--bindir", help="the tools' directory (default: npcc's)")
    ap.add_argument("--root", required=True, help="paths are printed relative to it")
    ap.add_argument("--work", help="scratch directory (required to check)")
    ap.add_argument("--list", action="store_true", help="only list the blocks")
    ap.add_argument("--extract", metavar="NAME",
                    help="print the block whose info string has file=NAME")
    ap.add_argument("--run", metavar="DIR",
                    help="write every file=NAME block of the files into DIR, then run "
                    "their `sh run` blocks there in order (bash -e; build/bin, "
                    "examples and lib are links into the tree and the build)")
    ap.add_argument("files", nargs="+",
                    help="Markdown files or globs under --root; ALL for every one")
    a = ap.parse_args()
    paths = all_markdown(a.root) if a.files == ["ALL"] else []
    for pat in (a.files if a.files != ["ALL"] else []):
        found = sorted(glob.glob(os.path.join(a.root, pat)))
        if not found:
            print("error: no file matches %s" % pat)
            return 1
        paths += found
    if a.extract:
        for path in paths:
            for b in blocks(path, path):
                if b.attrs.get("file") == a.extract:
                    sys.stdout.write(b.text)
                    return 0
        print("error: no block has file=%s" % a.extract, file=sys.stderr)
        return 1
    if a.run:
        return run_tutorial(a, paths)
    if a.list:
        for path in paths:
            for b in blocks(path, os.path.relpath(path, a.root)):
                print("%s %s" % (b.where(), b.tag))
        return 0
    if not a.work:
        print("error: --work is required")
        return 1
    a.include = a.include or os.path.join(a.root, "runtime", "include")
    os.makedirs(a.work, exist_ok=True)
    if not a.bindir:
        npcc = shutil.which(a.npcc)
        if not npcc:
            print("error: no npcc at %s" % a.npcc)
            return 1
        a.bindir = os.path.dirname(os.path.realpath(npcc))
    ck = Checker(a)
    passed = failed = 0
    for path in paths:
        display = os.path.relpath(path, a.root)
        for b in blocks(path, display):
            err = ck.check(b)
            if err:
                failed += 1
                print("FAIL %s [%s]: %s" % (b.where(), b.tag, err.rstrip()))
            else:
                passed += 1
                print("ok %s [%s]" % (b.where(), ck.detail))
    print("%d blocks ok, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
