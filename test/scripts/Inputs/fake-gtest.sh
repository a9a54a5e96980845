#!/usr/bin/env bash
# A stand-in for a GoogleTest binary: FAKE_MODE says how it ends.
#   pass      complete report, 2 tests passed, exit 0
#   fail      complete report, 1 of 2 failed, exit 1
#   segv      killed by SIGSEGV before writing a report
#   late-segv complete report without failures, then killed by SIGSEGV
#             (a crash in a destructor, or a sanitizer report at exit)
#   exit1     complete report without failures, then exit 1
#   truncated half a report, exit 0
#   stale     exit 0 without writing a report (an old one may be there)
for a in "$@"; do
  case "$a" in --gtest_output=xml:*) xml="${a#--gtest_output=xml:}" ;; esac
done
report() { # failures
  cat >"$xml" <<XML
<?xml version="1.0" encoding="UTF-8"?>
<testsuites tests="2" failures="$1" disabled="0" errors="0" time="0" name="AllTests">
  <testsuite name="Fake" tests="2" failures="$1" disabled="0" errors="0" time="0">
    <testcase name="A" status="run" result="completed" time="0" classname="Fake" />
    <testcase name="B" status="run" result="completed" time="0" classname="Fake" />
  </testsuite>
</testsuites>
XML
}
case "$FAKE_MODE" in
pass) report 0 ;;
fail) report 1; exit 1 ;;
segv) kill -SEGV $$ ;;
late-segv) report 0; kill -SEGV $$ ;;
exit1) report 0; exit 1 ;;
truncated) report 0; head -c 120 "$xml" >"$xml.part"; mv "$xml.part" "$xml" ;;
stale) ;;
esac
exit 0
