#!/usr/bin/env bash
# Runs the GoogleTest units, then the lit suite, and closes with one
# "N passed, N failed" line covering both. A unit binary or lit that
# crashes, or leaves no complete report, counts as a failure.
set -uo pipefail
build="$1"
testbin="$2"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
lit=/usr/lib/llvm-19/build/utils/lit/lit.py

# Sanitizer builds: a report aborts the process, so that `not` and the exit
# status checks see a crash, never an ordinary error exit. The lit suite
# sets the same defaults (lit.cfg.py).
export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1:allow_user_poisoning=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:abort_on_error=1}"
export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1:abort_on_error=1:second_deadlock_stack=1}"

g_pass=0 g_fail=0 g_ok=1
for bin in "$build/bin/nprt-unittests" "$build/bin/npsim-unittests"; do
  out="$(bash "$here/run-gtest.sh" "$bin" "$testbin/$(basename "$bin")-results.xml")" || g_ok=0
  echo "$out"
  read -r p f < <(echo "$out" | tail -1 | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed$/\1 \2/')
  g_pass=$((g_pass + p)) g_fail=$((g_fail + f))
done
echo "GoogleTest: $g_pass passed, $g_fail failed"

lit_json="$testbin/lit-results.json"
rm -f "$lit_json"
# lit's default order runs the slowest tests first, by the times of the
# last run (build's test/.lit_test_times.txt) or, in a fresh build, by the
# times kept in test/.lit_test_times.txt: a long test started last would
# leave the other worker idle until it ends.
python3 "$lit" -sv -o "$lit_json" "$testbin"
lit_rc=$?
read -r l_pass l_fail < <(python3 - "$lit_json" <<'PY'
import json, sys
try:
    r = json.load(open(sys.argv[1]))["tests"]
except (OSError, ValueError, KeyError):
    print(0, 1)  # lit itself failed before writing its report
    sys.exit()
ok = {"PASS", "XFAIL", "UNSUPPORTED"}
print(sum(t["code"] in ok for t in r), sum(t["code"] not in ok for t in r))
PY
)
if [ "$lit_rc" -ne 0 ] && [ "$l_fail" -eq 0 ]; then
  echo "lit: exited with status $lit_rc"
  l_fail=1
fi
echo "lit: $l_pass passed, $l_fail failed"
echo "check-npcc: $((g_pass + l_pass)) passed, $((g_fail + l_fail)) failed"
[ "$g_ok" -eq 1 ] && [ "$lit_rc" -eq 0 ]
