#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks an --hls-report file: at least MIN elements, every one at II=1.

  ii_all_one.py REPORT.json MIN
"""
import json
import sys

elements = json.load(open(sys.argv[1]))["elements"]
above = [f"{e['name']} ({e['element']}): II={e['ii']}" for e in elements
         if e["ii"] != 1]
if len(elements) < int(sys.argv[2]):
    sys.exit(f"{len(elements)} elements in the report, expected at least "
             f"{sys.argv[2]}")
if above:
    sys.exit("above II=1: " + "; ".join(above))
print(f"{len(elements)} elements, all II=1")
