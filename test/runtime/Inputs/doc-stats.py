#!/usr/bin/env python3
# Keeps the statistics samples of docs/runtime.md real: runs the commands of
# the ```sh block that writes stats.json, in a fresh directory, and compares
#  - the block right after it with what the last command printed (exact);
#  - the ```json block after that with stats.json: the same keys in the
#    same order at every level, the same types and list lengths, and the
#    same values except the scheduler-dependent counters in VARYING.
#   doc-stats.py DOC.md REPO_ROOT WORKDIR
import json
import os
import re
import shutil
import subprocess
import sys

VARYING = {"iterations", "max_occupancy", "high_water"}

doc, root, work = sys.argv[1:4]
blocks = re.findall(r"^```(\w*)\n(.*?)^```", open(doc).read(), re.M | re.S)
start = next((i for i, (lang, text) in enumerate(blocks)
              if lang == "sh" and "--stats-json stats.json" in text), None)
if start is None or start + 2 >= len(blocks) or blocks[start + 2][0] != "json":
    sys.exit("%s: no ```sh block with '--stats-json stats.json' followed by "
             "the printed table and a ```json block" % doc)
commands = [l for l in blocks[start][1].splitlines() if l.strip()]
table, sample = blocks[start + 1][1], blocks[start + 2][1]

shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
os.symlink(os.path.join(root, "examples"), os.path.join(work, "examples"))
out = ""
for c in commands:
    r = subprocess.run(c, shell=True, cwd=work, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("'%s' failed (%d): %s" % (c, r.returncode, r.stderr))
    out = r.stdout
errors = []
if out != table:
    errors.append("the printed table differs from the doc:\n--- doc\n%s"
                  "--- real\n%s" % (table, out))


def compare(doc_v, real_v, path):
    if type(doc_v) != type(real_v):
        errors.append("%s: %s in the doc, %s in the output" %
                      (path, type(doc_v).__name__, type(real_v).__name__))
    elif isinstance(doc_v, dict):
        if list(doc_v) != list(real_v):
            errors.append("%s: keys %s in the doc, %s in the output" %
                          (path, list(doc_v), list(real_v)))
            return
        for k in doc_v:
            if k in VARYING and isinstance(doc_v[k], int):
                if not isinstance(real_v[k], int) or real_v[k] < 0:
                    errors.append("%s.%s: not a count" % (path, k))
                continue
            compare(doc_v[k], real_v[k], "%s.%s" % (path, k))
    elif isinstance(doc_v, list):
        if len(doc_v) != len(real_v):
            errors.append("%s: %d entries in the doc, %d in the output" %
                          (path, len(doc_v), len(real_v)))
            return
        for i, (a, b) in enumerate(zip(doc_v, real_v)):
            compare(a, b, "%s[%d]" % (path, i))
    elif doc_v != real_v:
        errors.append("%s: %r in the doc, %r in the output" %
                      (path, doc_v, real_v))


real_text = open(os.path.join(work, "stats.json")).read()
compare(json.loads(sample), json.loads(real_text), "$")
if errors:
    sys.exit("%s is out of date:\n%s\nreal stats.json:\n%s" %
             (doc, "\n".join(errors), real_text))
print("doc-stats: %d commands, table and %d JSON keys match" %
      (len(commands), len(re.findall(r'"\w+":', sample))))
