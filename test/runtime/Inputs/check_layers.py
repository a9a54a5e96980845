"""Checks the runtime's includes against its layers.

usage: check_layers.py RUNTIME_DIR

Reads the "Layers" table of RUNTIME_DIR/README.md (a row per layer,
bottom first; a name without an ending stands for its .c and .h) and every
#include "runtime/nprt/..." of the files in RUNTIME_DIR. Prints a line for
each file the table does not place, each placed file that does not exist,
and each include of a higher layer's header; then "layers: N files, M
includes, K wrong".
"""
import os
import re
import sys


def layers(readme):
    text = open(readme).read()
    section = text.split("## Layers", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if re.match(r"\| \d+\.", line)]
    order = {}
    for rank, row in enumerate(rows):
        files = row.split("|")[2]
        for name in re.findall(r"`([^`]+)`", files):
            if name.endswith("*"):
                order[name] = rank  # a prefix: table_*
            elif "." in name:
                order[name] = rank
            else:
                order[name + ".c"] = rank
                order[name + ".h"] = rank
    return order


def rank_of(order, name):
    if name in order:
        return order[name]
    for key, rank in order.items():
        if key.endswith("*") and name.startswith(key[:-1]):
            return rank
    return None


def main():
    root = sys.argv[1]
    order = layers(os.path.join(root, "README.md"))
    files = sorted(f for f in os.listdir(root) if f.endswith((".c", ".h")))
    wrong = includes = 0
    for f in files:
        mine = rank_of(order, f)
        if mine is None:
            print(f"UNPLACED {f}")
            wrong += 1
            continue
        for n, line in enumerate(open(os.path.join(root, f)), 1):
            m = re.match(r'\s*#\s*include\s+"(?:runtime/nprt/)?([\w.]+)"', line)
            if not m or not os.path.exists(os.path.join(root, m.group(1))):
                continue
            includes += 1
            theirs = rank_of(order, m.group(1))
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


main()
