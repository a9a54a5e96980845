#!/usr/bin/env python3
"""Compiles NPL programs to C objects and lists every data object the
object file keeps in writable memory (objdump -t: sections .data*, .bss*
and common, except .data.rel.ro*, which is read-only once relocated).
Generated C must have none: state lives in per-instance objects and
tables are const.

usage: no_global_state.py NPCC CC INCLUDE WORKDIR PROGRAM.np...
"""
import os
import subprocess
import sys



def writable(section):
    if section.startswith(".data.rel.ro"):
        return False
    return section.startswith((".data", ".bss", ".sdata", ".sbss")) or \
        section == "*COM*"


def main():
    npcc, cc, include, work = sys.argv[1:5]
    os.makedirs(work, exist_ok=True)
    bad = 0
    for program in sys.argv[5:]:
        stem = os.path.join(work, os.path.basename(program))
        subprocess.run([npcc, program, "--target=c", "-S", "-o", stem + ".c"],
                       check=True)
        subprocess.run(cc.split() + ["-c", "-I", include, stem + ".c", "-o",
                                     stem + ".o"], check=True)
        table = subprocess.run(["objdump", "-t", stem + ".o"],
                               capture_output=True, text=True,
                               check=True).stdout
        objects = 0
        for line in table.splitlines():
            # addr flags(7 chars) section size name
            if len(line) < 26 or line[23] != "O" and "*COM*" not in line:
                continue
            objects += 1
            section = line[25:].split()[0]
            if writable(section):
                print("MUTABLE %s: %s" % (os.path.basename(program), line))
                bad += 1
        if objects == 0:
            print("NO-OBJECTS %s: the const tables are missing" %
                  os.path.basename(program))
            bad += 1
    print("programs: %d, mutable file-scope objects: %d" %
          (len(sys.argv) - 5, bad))
    return 1 if bad else 0


sys.exit(main())
