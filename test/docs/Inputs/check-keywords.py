#!/usr/bin/env python3
"""Checks the keyword list of docs/language.md against the grammar and npcc.

usage: check-keywords.py NPL.g4 language.md NPCC WORKDIR

The keywords are the word literals ('as', 'graph', ...) of the grammar's
parser rules; the doc lists them in the paragraph of backquoted words after
its `### Keywords` heading. Both sets must be equal, npcc must reject each
keyword as a variable name with a syntax error, and accept an ordinary name
in the same program (when the lists differ, only the listed words that are
not keywords are tried). Prints the keywords; exits 1 on a difference.
"""
import os
import re
import subprocess
import sys

PROGRAM = ("element E() { in i: u8; out o: u8; handler {\n"
           "  let %s = recv(i);\n  send(o, %s);\n} }\n")


def grammar_keywords(path):
    with open(path) as f:
        text = f.read()
    # Lexer rules (upper-case names) spell fragments such as '0x', not keywords.
    parser = re.sub(r"^[A-Z]\w*\s*:[^;]*;", "", text, flags=re.M)
    parser = re.sub(r"//[^\n]*", "", parser)
    return set(re.findall(r"'([A-Za-z_]\w*)'", parser))


def doc_keywords(path):
    with open(path) as f:
        lines = f.read().split("\n")
    try:
        k = lines.index("### Keywords")
    except ValueError:
        sys.exit("%s: no '### Keywords' section" % path)
    paras, cur = [], []
    for line in lines[k + 1:]:
        if line.startswith("#"):
            break
        if line.strip():
            cur.append(line)
        elif cur:
            paras.append(" ".join(cur))
            cur = []
    if cur:
        paras.append(" ".join(cur))
    for p in paras:
        if re.fullmatch(r"(`[A-Za-z_]\w*`\s*)+", p.strip()):
            return re.findall(r"`(\w+)`", p)
    sys.exit("%s: no paragraph of `keyword` words after '### Keywords'" % path)


def main():
    g4, doc, npcc, work = sys.argv[1:5]
    want = grammar_keywords(g4)
    listed = doc_keywords(doc)
    have = set(listed)
    bad = False
    for k in sorted(want - have):
        print("missing from the doc: %s" % k)
        bad = True
    for k in sorted(have - want):
        print("not a keyword of the grammar: %s" % k)
        bad = True
    if listed != sorted(listed) or len(listed) != len(have):
        print("the doc's list is not sorted or has duplicates")
        bad = True
    os.makedirs(work, exist_ok=True)
    # With the lists in agreement, try every keyword; else only the extra ones.
    names = sorted(have) + ["x"] if not bad else sorted(have - want)
    for name in names:
        src = os.path.join(work, "kw-%s.np" % name)
        with open(src, "w") as f:
            f.write(PROGRAM % (name, name))
        p = subprocess.run([npcc, src, "--target=mlir", "-o", os.devnull],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True)
        if name == "x":
            if p.returncode != 0:
                print("an ordinary name is rejected:\n" + p.stderr)
                bad = True
        elif p.returncode != 1 or ":2:7: error: syntax error" not in p.stderr:
            print("'%s' is accepted as a name or not a syntax error at 2:7:\n%s"
                  % (name, p.stderr))
            bad = True
    print("keywords: " + " ".join(sorted(have)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
