"""Parses every NPL file under the directories given, prints it, and
checks that the printed text parses to the same text again (the reducer's
parser reads any program npcc reads; its printer is stable)."""

import glob
import os
import sys

sys.path.insert(0, sys.argv[1])
from smith.reduce.parser import parse  # noqa: E402
from smith.reduce.printer import program  # noqa: E402

count = 0
for root in sys.argv[2:]:
    for path in sorted(glob.glob(os.path.join(root, "**", "*.np"),
                                 recursive=True)):
        with open(path) as f:
            text = program(parse(f.read()))
        if program(parse(text)) != text:
            print(f"unstable: {path}")
        count += 1
print(f"printed {count} files")
