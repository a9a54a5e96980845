#!/bin/sh
# usage: check_construct.sh PROGRAM.np LIST HEADERS WORKDIR
# Compiles PROGRAM with npcc --target=ucode (the translation validator must
# prove it), runs it on musim, and compares every header's answer with
# npcc --target=interp (the reference interpreter); prints the answers.
# Exits non-zero on any difference.
set -e
np=$1 list=$2 headers=$3 work=$4
base=$work/$(basename "$np" .np)
npcc "$np" --target=ucode -o "$base.mu" --validate 2> "$base.validate"
grep -q ": proved" "$base.validate" || { cat "$base.validate" >&2; exit 1; }
musim "$base.mu" --list "$list" --headers "$headers" | sed 's/ cycles [0-9]*$//' > "$base.musim"
npcc "$np" --target=interp --list "$list" --headers "$headers" -o "$base.interp"
diff "$base.interp" "$base.musim"
cat "$base.musim"
