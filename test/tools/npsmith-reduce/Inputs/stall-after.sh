#!/bin/sh
# Usage: stall-after.sh STATE N CANDIDATE
# Interesting while the candidate instantiates Mark, for the first N
# calls; from then on it hangs (as a test would on a candidate that never
# ends), its pid in STATE.pid.
state="$1" n="$2" cand="$3"
count=$(cat "$state.count" 2>/dev/null || echo 0)
echo $((count + 1)) > "$state.count"
if [ "$count" -ge "$n" ]; then
  echo $$ > "$state.pid"
  exec sleep 600
fi
grep -q "= Mark(" "$cand"
