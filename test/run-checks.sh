#!/usr/bin/env bash
# Runs the GoogleTest units, then the lit suite, and closes with one
# "N passed, N failed" line covering both.
set -uo pipefail
build="$1"
testbin="$2"
lit=/usr/lib/llvm-19/build/utils/lit/lit.py

gtest_xml="$testbin/unit-results.xml"
"$build/bin/nprt-unittests" --gtest_brief=1 --gtest_output="xml:$gtest_xml"
gtest_rc=$?
g_total=$(grep -o 'tests="[0-9]*"' "$gtest_xml" | head -1 | grep -o '[0-9]*')
g_fail=$(grep -o 'failures="[0-9]*"' "$gtest_xml" | head -1 | grep -o '[0-9]*')
g_off=$(grep -o 'disabled="[0-9]*"' "$gtest_xml" | head -1 | grep -o '[0-9]*')
g_total=$((g_total - ${g_off:-0}))
echo "GoogleTest: $((g_total - g_fail)) passed, $g_fail failed"

lit_json="$testbin/lit-results.json"
python3 "$lit" -sv --order=lexical -o "$lit_json" "$testbin"
lit_rc=$?
read -r l_pass l_fail < <(python3 - "$lit_json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["tests"]
ok = {"PASS", "XFAIL", "UNSUPPORTED"}
print(sum(t["code"] in ok for t in r), sum(t["code"] not in ok for t in r))
PY
)
echo "lit: $l_pass passed, $l_fail failed"
echo "check-npcc: $((g_total - g_fail + l_pass)) passed, $((g_fail + l_fail)) failed"
[ "$gtest_rc" -eq 0 ] && [ "$lit_rc" -eq 0 ]
