#!/usr/bin/env python3
"""Checks the tree against the map in docs/architecture.md.

  check_architecture.py layers --root R [--doc D]
      Every #include (and TableGen include) of a source file under R goes to
      its own component or to a lower layer of the doc's "Layers" table.
  check_architecture.py map --root R [--doc D] [--folders-from git|walk]
      Every source folder of R is a row of the doc's "Map" table, and every
      folder the table names exists.
  check_architecture.py pass-tests --root R --help-text FILE...
      Every pass (Pass<"flag"> in a Passes.td) and pass pipeline
      (PassPipelineRegistration) of R is registered in one of the tools
      whose --help text is given and has a lit test named after its flag
      (test/**/<flag>.mlir).
  check_architecture.py runtime-layers --root R [--runtime DIR]
      The C runtime's own layers (R/DIR, runtime/nprt by default): every
      .c and .h of DIR is placed in a row of the "Layers" table of its
      README.md (a row per layer, bottom first, "| N. name | files | ... |";
      a name without an ending stands for its .c and .h, one ending in *
      for a prefix), every file a row places exists, and no file includes
      a header of a higher layer. Findings are "UNPLACED file", "MISSING
      name" and "UPWARD file:line: includes header"; the last line is
      "layers: N files, M includes, K wrong".

Each finding is a line "WRONG path:line: why" (runtime-layers: as above);
the last line counts them, and the exit status is 1 when there is any.
"""
import argparse
import os
import re
import subprocess
import sys

SOURCE_SUFFIXES = (".c", ".h", ".cpp", ".def", ".inc", ".td", ".g4")
INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"([^"]+)"|^\s*include\s+"([^"]+)"')
CELL_PATH_RE = re.compile(r"`([^`]+)`")


def section_rows(doc_path, heading):
    """The table rows (lists of cells) of the section titled `heading`."""
    rows, inside, line_no = [], False, 0
    with open(doc_path, encoding="utf-8") as f:
        for line_no, line in enumerate(f, 1):
            if line.startswith("#"):
                inside = line.lstrip("#").strip().lower() == heading.lower()
                continue
            if inside and line.startswith("|"):
                cells = [c.strip() for c in line.strip().strip("|").split("|")]
                if cells and not set(cells[0]) <= set("-: "):
                    rows.append((line_no, cells))
    if not rows:
        sys.exit(f"{doc_path}: no table under a heading '{heading}'")
    return rows[1:]  # the first row is the header


def read_layers(doc_path):
    """{folder: layer} from the Layers table: | N | `a`, `b` | ... |"""
    layers = {}
    for _, cells in section_rows(doc_path, "Layers"):
        if len(cells) < 2 or not cells[0].isdigit():
            continue
        for folder in CELL_PATH_RE.findall(cells[1]):
            layers[folder.rstrip("/")] = int(cells[0])
    return layers


def component_of(path, layers):
    """The longest folder of the Layers table that holds `path`."""
    best = None
    for folder in layers:
        if path == folder or path.startswith(folder + "/"):
            if best is None or len(folder) > len(best):
                best = folder
    return best


def tree_files(root):
    """Every file of the checkout (git's view when it is one, else a walk)."""
    out = subprocess.run(["git", "-C", root, "ls-files", "--cached", "--others",
                          "--exclude-standard"], capture_output=True, text=True)
    if out.returncode == 0 and out.stdout:
        files = out.stdout.split()
    else:
        files = []
        for d, dirs, names in os.walk(root):
            dirs[:] = [x for x in dirs if x != ".git" and not x.startswith("build")]
            files += [os.path.relpath(os.path.join(d, n), root) for n in names]
    return sorted(f for f in files if os.path.isfile(os.path.join(root, f)))


def source_files(root):
    return [f for f in tree_files(root) if f.endswith(SOURCE_SUFFIXES)]


def resolve(root, includer, target, layers):
    """The tree path an include names, or None for a system/LLVM header."""
    rooted = target.split("/")[0]
    if any(f.split("/")[0] == rooted for f in layers) and "/" in target:
        return target
    # Public headers of the runtime, included through its include folders.
    for folder in ("runtime/include", "runtime/hls/include"):
        if os.path.exists(os.path.join(root, folder, target)) or \
                os.path.exists(os.path.join(root, folder, target + ".in")):
            return os.path.join(folder, target)
    local = os.path.normpath(os.path.join(os.path.dirname(includer), target))
    if os.path.exists(os.path.join(root, local)):
        return local
    return None


def check_layers(root, doc):
    layers = read_layers(doc)
    wrong = checked = 0
    for path in source_files(root):
        if path.startswith("test/") and not path.startswith("test/unit/"):
            continue
        src = component_of(path, layers)
        with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
            for line_no, line in enumerate(f, 1):
                m = INCLUDE_RE.match(line)
                if not m:
                    continue
                target = resolve(root, path, m.group(1) or m.group(2), layers)
                if target is None:
                    continue
                checked += 1
                dst = component_of(target, layers)
                if src is None:
                    print(f"WRONG {path}:{line_no}: '{path}' is in no layer of {doc}")
                    wrong += 1
                    break
                if dst is None:
                    print(f"WRONG {path}:{line_no}: '{target}' is in no layer of {doc}")
                    wrong += 1
                elif dst != src and layers[dst] >= layers[src]:
                    print(f"WRONG {path}:{line_no}: {src} (layer {layers[src]}) includes "
                          f"{target} of {dst} (layer {layers[dst]}): "
                          f"{'a sibling' if layers[dst] == layers[src] else 'a higher layer'}")
                    wrong += 1
    print(f"layers: {checked} includes checked, {wrong} wrong")
    return wrong


def tracked_folders(root):
    folders = set()
    for path in tree_files(root):
        if path.startswith("test/"):  # the suites mirror the tree
            folders.add("test")
            continue
        if path.startswith(".") and not path.startswith(".ci/"):
            continue
        d = os.path.dirname(path)
        while d:
            folders.add(d)
            d = os.path.dirname(d)
    return folders


def check_map(root, doc):
    listed = {}
    for line_no, cells in section_rows(doc, "Map"):
        paths = CELL_PATH_RE.findall(cells[0])
        if paths:
            listed[paths[0].rstrip("/")] = line_no
    wrong = 0
    doc_name = os.path.relpath(doc, root)
    for folder, line_no in sorted(listed.items()):
        if not os.path.isdir(os.path.join(root, folder)):
            print(f"WRONG {doc_name}:{line_no}: folder '{folder}' does not exist")
            wrong += 1
    for folder in sorted(tracked_folders(root)):
        if folder not in listed:
            print(f"WRONG {doc_name}: folder '{folder}' is not in the map")
            wrong += 1
    print(f"map: {len(listed)} folders listed, {wrong} wrong")
    return wrong


def check_pass_tests(root, help_files):
    flags = {}
    for path in source_files(root):
        if path.startswith("test/"):
            continue
        text = open(os.path.join(root, path), encoding="utf-8", errors="replace").read()
        if path.endswith(".td"):
            for m in re.finditer(r'Pass<\s*"([\w-]+)"', text):
                flags[m.group(1)] = f"{path}:{text.count(chr(10), 0, m.start()) + 1}"
        for m in re.finditer(r'PassPipelineRegistration(?:<[^>]*>)?\s*\(\s*"([\w-]+)"', text):
            flags[m.group(1)] = f"{path}:{text.count(chr(10), 0, m.start()) + 1}"
    registered = set()
    for h in help_files:
        registered |= set(re.findall(r"^\s+--([\w-]+)\s", open(h).read(), re.M))
    tests = {}  # test name -> the lower-case folder names above it
    for d, _, names in os.walk(os.path.join(root, "test")):
        folders = set(os.path.relpath(d, root).lower().split(os.sep))
        for n in names:
            if n.endswith(".mlir"):
                tests.setdefault(n[:-len(".mlir")], set()).update(folders)
    wrong = 0
    for flag, where in sorted(flags.items()):
        if flag not in registered:
            print(f"WRONG {where}: --{flag} is in no tool's --help")
            wrong += 1
        # Tests sit in the folder of their dialect or target, which may
        # stand for the flag's first word: test/dialects/NP/fuse.mlir.
        first, short = flag.split("-", 1)
        if flag not in tests and first not in tests.get(short, ()):
            print(f"WRONG {where}: --{flag} has no test named {flag}.mlir "
                  f"(or {short}.mlir in a folder named {first})")
            wrong += 1
    print(f"pass-tests: {len(flags)} passes and pipelines, {wrong} wrong")
    return wrong


def read_runtime_layers(readme):
    """{file name or prefix*: rank} from the runtime's Layers table."""
    order, rank = {}, 0
    for _, cells in section_rows(readme, "Layers"):
        if len(cells) < 2 or not re.match(r"\d+\.", cells[0]):
            continue
        for name in CELL_PATH_RE.findall(cells[1]):
            if name.endswith("*") or "." in name:
                order[name] = rank  # a prefix (table_*) or a whole name
            else:
                order[name + ".c"] = rank
                order[name + ".h"] = rank
        rank += 1
    return order


def runtime_rank(order, name):
    if name in order:
        return order[name]
    for key, rank in order.items():
        if key.endswith("*") and name.startswith(key[:-1]):
            return rank
    return None


def check_runtime_layers(runtime_dir):
    order = read_runtime_layers(os.path.join(runtime_dir, "README.md"))
    files = sorted(f for f in os.listdir(runtime_dir) if f.endswith((".c", ".h")))
    wrong = includes = 0
    for f in files:
        mine = runtime_rank(order, f)
        if mine is None:
            print(f"UNPLACED {f}")
            wrong += 1
            continue
        for n, line in enumerate(open(os.path.join(runtime_dir, f)), 1):
            m = re.match(r'\s*#\s*include\s+"(?:runtime/nprt/)?([\w.]+)"', line)
            if not m or not os.path.exists(os.path.join(runtime_dir, m.group(1))):
                continue
            includes += 1
            theirs = runtime_rank(order, m.group(1))
            if theirs is not None and theirs > mine:
                print(f"UPWARD {f}:{n}: includes {m.group(1)}")
                wrong += 1
    for key in order:
        if not key.endswith("*") and key not in files:
            # "graph" names graph.c and graph.h; only one may exist.
            other = key[:-1] + ("h" if key.endswith(".c") else "c")
            if other not in files or not re.search(r"\.(c|h)$", key):
                print(f"MISSING {key}")
                wrong += 1
    print(f"layers: {len(files)} files, {includes} includes, {wrong} wrong")
    return wrong


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("what", choices=["layers", "map", "pass-tests", "runtime-layers"])
    ap.add_argument("--root", required=True)
    ap.add_argument("--doc", default="docs/architecture.md")
    ap.add_argument("--help-text", nargs="*", default=[])
    ap.add_argument("--runtime", default="runtime/nprt")
    args = ap.parse_args()
    doc = os.path.join(args.root, args.doc)
    if args.what == "layers":
        wrong = check_layers(args.root, doc)
    elif args.what == "map":
        wrong = check_map(args.root, doc)
    elif args.what == "runtime-layers":
        wrong = check_runtime_layers(os.path.join(args.root, args.runtime))
    else:
        wrong = check_pass_tests(args.root, args.help_text)
    sys.exit(1 if wrong else 0)


if __name__ == "__main__":
    main()
