#!/usr/bin/env bash
# PCSA accuracy (examples/pcsa): the estimate of the distinct IPv4 sources
# of npgen traces of 10^5 and 10^6 packets with 10^3, 10^4 and 10^5
# distinct sources, its relative error (bound: 3%) and the branch of the
# estimator, checked by examples/pcsa/check.py (exact count from the pcap,
# bit-exact model of the fixed point). Then the same 10^6-packet traces
# with fewer bitmaps (-D LOG2M) for comparison with 0.78/sqrt(M).
# Part of `make bench`, not of `make check`; test/examples/pcsa.test runs
# the 10^5-packet rows. Seeds: NPCC_PCSA_SEED (default 1) for the 10^5
# traces, NPCC_PCSA_SEED + 1 for the 10^6 ones (other source sets).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="$root/build/bin"
work="$root/build/bench/pcsa"
seed="${NPCC_PCSA_SEED:-1}"
mkdir -p "$work"

for k in 13 11 8; do
  "$bin/npcc" "$root/examples/pcsa/pcsa.np" -D LOG2M=$k --target=c \
    -o "$work/pcsa$k"
done

row() { # packets sources seed log2m bound
  local t="$work/t-$1-$2-$3.pcap"
  [ -f "$t" ] || "$bin/npgen" -o "$t" --count "$1" --distinct-sources "$2" \
    --seed "$3" --quiet
  local e
  e=$("$work/pcsa$4" --in "$t" --quiet -h pcsa.estimate)
  python3 "$root/examples/pcsa/check.py" --log2m "$4" --max-error "$5" \
    "$t" "$e" | python3 -c '
import re, sys
line = sys.stdin.read()
f = dict(re.findall(r"(\w+)=(\S+)", line))
branch = re.search(r"%, ([a-zA-Z ]+)\)", line).group(1)
print("%9s %8s %5d %9s %8s  %-15s %s" % (sys.argv[1], f["distinct"],
      1 << int(sys.argv[2]), f["estimate"], f["error"], branch,
      line.split()[-1]))' "$1" "$4"
}

echo "== PCSA: distinct IPv4 sources, M = 8192 bitmaps (0.78/sqrt(M) = 0.86%) =="
printf '%9s %8s %5s %9s %8s  %-15s %s\n' packets sources M estimate error \
  estimator "check(3%)"
status=0
for packets in 100000 1000000; do
  s=$seed
  [ "$packets" = 1000000 ] && s=$((seed + 1))
  for sources in 1000 10000 100000; do
    row "$packets" "$sources" "$s" 13 3 || status=1
  done
done
echo
echo "== fewer bitmaps on the 10^6-packet traces (bound: 3 x 0.78/sqrt(M)) =="
printf '%9s %8s %5s %9s %8s  %-15s %s\n' packets sources M estimate error \
  estimator check
for k in 11 8; do
  bound=$(python3 -c "print(round(3 * 78 / (1 << $k) ** 0.5, 1))")
  for sources in 1000 10000 100000; do
    row 1000000 "$sources" $((seed + 1)) "$k" "$bound" || true
  done
done
echo
echo "== spread over seeds: ${NPCC_PCSA_SEEDS:-20} traces per count (N packets, N sources) =="
printf '%5s %8s %8s %8s %8s %s\n' M sources mean rms "max|e|" ">3%"
for k in 13 11 8; do
  for sources in 1000 10000 100000; do
    for s in $(seq 1 "${NPCC_PCSA_SEEDS:-20}"); do
      t="$work/sweep.pcap"
      "$bin/npgen" -o "$t" --count "$sources" --distinct-sources "$sources" \
        --seed "$((1000 + s))" --quiet
      echo "$sources $("$work/pcsa$k" --in "$t" --quiet -h pcsa.estimate)"
    done | python3 -c '
import math, sys
rows = [tuple(map(int, l.split())) for l in sys.stdin]
e = [(est - n) / n * 100 for n, est in rows]
print("%5d %8d %+7.2f%% %7.2f%% %7.2f%% %d/%d" % (1 << int(sys.argv[1]),
      rows[0][0], sum(e) / len(e), math.sqrt(sum(x * x for x in e) / len(e)),
      max(map(abs, e)), sum(abs(x) > 3 for x in e), len(e)))' "$k"
  done
done
exit $status
