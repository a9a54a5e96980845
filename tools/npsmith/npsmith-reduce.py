#!/usr/bin/env python3
"""npsmith-reduce: shrink an NPL program that shows a bug (see --help and
docs/npsmith.md, "Reducing")."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))

from smith.reduce.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
