#!/usr/bin/env python3
"""Compares the outputs of a multicore run with a reference run (the
interpreter, or one core), port by port:

  flowcmp.py REF_DIR RUN_DIR FILE...

For every FILE (a pcap in both directories) the two must hold the same
multiset of records (time stamp, length and bytes), and within each flow
the same order; the flow rule is npsmith's (tools/npsmith/smith/flows.py),
which its differential runner applies to every multicore run. Prints one
'ok' line per file, or the first difference and exits 1."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "tools", "npsmith"))
from smith import flows  # noqa: E402


def main():
    if len(sys.argv) < 4:
        raise SystemExit(__doc__)
    ref_dir, run_dir, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    bad = False
    for f in files:
        err = flows.compare_files("%s/%s" % (ref_dir, f),
                                  "%s/%s" % (run_dir, f))
        if err:
            print("%s: %s" % (f, err))
            bad = True
        else:
            print("ok %s" % f)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
