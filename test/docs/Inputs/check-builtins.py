"""Every builtin of Builtins.def is documented in docs/language.md.

Usage: check-builtins.py Builtins.def language.md
Prints the number of builtins, then each one the doc never shows called
(`name(`); exits 1 if there is one.
"""
import re
import sys

table = open(sys.argv[1]).read()
doc = open(sys.argv[2]).read()
names = re.findall(r'^NPL_BUILTIN\(\w+, "(\w+)"', table, re.M)
missing = [n for n in names if "`" + n + "(" not in doc]
print("builtins:", len(names))
for n in missing:
    print("undocumented builtin:", n)
sys.exit(1 if missing else 0)
