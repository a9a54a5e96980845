#!/usr/bin/env bash
# Runs one GoogleTest binary and prints "NAME: N passed, N failed".
#   run-gtest.sh BINARY XML
# The counts come from the XML report, but the exit status decides too: a
# binary that crashes, is killed, or exits non-zero without a complete
# report (or with one that lists no failure) counts one more failure. Exits
# non-zero unless every test passed and the binary exited 0.
set -uo pipefail
bin="$1"
xml="$2"
name="$(basename "$bin")"

rm -f "$xml" # a report left by an earlier run must not count
# The tests' scratch files go to a directory of this run, removed after it
# (GoogleTest's TempDir() honours TEST_TMPDIR).
scratch="$(mktemp -d "${TMPDIR:-/tmp}/$name.XXXXXX")"
TEST_TMPDIR="$scratch/" "$bin" --gtest_brief=1 --gtest_output="xml:$xml"
rc=$?
rm -rf "$scratch"
read -r passed failed < <(python3 - "$xml" "$rc" "$name" <<'PY'
import sys
import xml.etree.ElementTree as ET

path, rc, name = sys.argv[1], int(sys.argv[2]), sys.argv[3]
passed = failed = 0
why = None
try:
    root = ET.parse(path).getroot()
    total = int(root.get("tests")) - int(root.get("disabled", "0"))
    failed = int(root.get("failures")) + int(root.get("errors", "0"))
    passed = total - failed
    if total <= 0:
        why = "the report lists no test"
except (OSError, ET.ParseError, TypeError, ValueError) as e:
    why = "no complete XML report (%s)" % e.__class__.__name__
if rc != 0 and failed == 0 and why is None:
    why = "exited with status %d after a report without failures" % rc
if rc > 128:
    why = (why + "; " if why else "") + "killed by signal %d" % (rc - 128)
if why:
    print("%s: %s" % (name, why), file=sys.stderr)
    if failed == 0:
        failed = 1
print(passed, failed)
PY
)
echo "$name: $passed passed, $failed failed"
[ "$rc" -eq 0 ] && [ "$failed" -eq 0 ]
