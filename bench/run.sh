#!/usr/bin/env bash
# make bench: programs compiled by npcc against peers measured in the same
# run (hand-written loops, Click 2.1 built from ../shared/peers, boost and
# DPDK rings, the match unit's hand-written microcode), each section
# printing its ratios. The targets of issue 28 are recorded as each section
# measures them (bench/verdict.py, into build/bench/verdicts.tsv) and
# printed together, each with its value and met / MISSED, at the end.
# bench/README.md describes every section.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="$root/build/bin"
work="$root/build/bench"
frames="${NPCC_BENCH_FRAMES:-2000000}"
runs="${NPCC_BENCH_RUNS:-3}"
mkdir -p "$work"
export NPCC_BENCH_DIR="$root/bench"
export NPCC_BENCH_VERDICTS="$work/verdicts.tsv"
: >"$NPCC_BENCH_VERDICTS"
load_start="$(cut -d' ' -f1-3 /proc/loadavg)"
echo "bench: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, load average" \
  "$load_start (1, 5, 15 min): with more runnable threads than CPUs, wall" \
  "clocks understate"
# Click 2.1, measured by the router and profile sections (built once).
"$root/bench/peers/build-click.sh" click >/dev/null

echo "bench: generating $frames 64-byte frames"
"$bin/npgen" -o "$work/in.pcap" --count "$frames" --seed 1 --size 64 --quiet
cc -std=c11 -O2 "$root/bench/peers/pcap_copy.c" -lpcap -o "$work/pcap_copy"
"$bin/npcc" "$root/examples/passthrough/passthrough.np" --target=c \
  -o "$work/passthrough"
"$bin/npcc" "$root/bench/chain8.np" --target=c -o "$work/chain8"

# Best of $runs wall-clock runs, in nanoseconds.
best() {
  local best=""
  for _ in $(seq "$runs"); do
    local t0 t1
    t0=$(date +%s%N)
    "$@" >/dev/null
    t1=$(date +%s%N)
    local d=$((t1 - t0))
    if [ -z "$best" ] || [ "$d" -lt "$best" ]; then best=$d; fi
  done
  echo "$best"
}

row() { # name npcc_ns peer_ns
  python3 - "$frames" "$@" <<'PY'
import sys
frames = int(sys.argv[1]); name = sys.argv[2]
ours, peer = int(sys.argv[3]), int(sys.argv[4])
mo, mp = frames / ours * 1e3, frames / peer * 1e3
print(f"{name:<28} {mo:8.2f} {mp:8.2f} {mo / mp:7.2f}")
PY
}

echo
printf '%-28s %8s %8s %7s\n' "benchmark" "npcc" "peer" "ratio"
printf '%-28s %8s %8s %7s\n' "" "Mpps" "Mpps" ""
p1=$(best "$work/pcap_copy" "$work/in.pcap" "$work/peer.pcap" 1)
n1=$(best "$work/passthrough" --in "$work/in.pcap" --out "$work/out.pcap" --quiet)
cmp -s "$work/in.pcap" "$work/out.pcap" || { echo "passthrough output differs" >&2; exit 1; }
row "passthrough (1 Counter)" "$n1" "$p1"
p8=$(best "$work/pcap_copy" "$work/in.pcap" "$work/peer.pcap" 8)
n8=$(best "$work/chain8" --in "$work/in.pcap" --out "$work/out8.pcap" --quiet)
row "chain of 8 Counters" "$n8" "$p8"
# The null graph (FromDump -> Discard): the runtime's floor.
"$bin/npcc" "$root/bench/null.click" --target=c -o "$work/null" \
  -D IN="$work/in.pcap"
cc -std=c11 -O2 "$root/bench/peers/pcap_read.c" -lpcap -o "$work/pcap_read"
pn=$(best "$work/pcap_read" "$work/in.pcap")
nn=$(best "$work/null" --quiet)
row "null (FromDump -> Discard)" "$nn" "$pn"
echo
echo "peer: bench/peers/pcap_copy.c, one libpcap loop doing the same counting"
echo "      (the null graph: bench/peers/pcap_read.c, a libpcap read loop)"

echo
echo "== channels: npcc's ring vs boost::lockfree::spsc_queue and DPDK's rte_ring, 2 threads =="
"$root/bench/chan/run.sh"

echo
"$root/bench/router.sh"

echo
echo "== instructions per packet (callgrind): npcc, the hand loop, Click 2.1 =="
"$root/bench/profile.sh"

echo
echo "== match unit: the paper's experiment (section 5.1), 64 headers per run =="
"$bin/muasm" "$root/examples/portals-match/portals.mua" -o "$work/portals.mu"
"$bin/npcc" "$root/examples/portals-match/portals.np" --target=ucode \
  -o "$work/portals-compiled.mu"
"$bin/musim" "$work/portals.mu" --bench=paper --json > "$work/portals-hand.json"
"$bin/musim" "$work/portals-compiled.mu" --bench=paper --json \
  > "$work/portals-compiled.json"
"$bin/portals-native-bench" 200 > "$work/portals-native.json"
python3 "$root/bench/portals_table.py" "$work/portals-hand.json" \
  "$work/portals-compiled.json" "$work/portals-native.json"
echo "hw ratio: total cycles / (8-cycle header + 8 cycles per item pushed)"
echo
echo "== match unit: differential test, 1,000,000 random headers =="
"$bin/portals-diff" "$work/portals.mu" --lists 50000 --headers 20 --seed 7
"$bin/portals-diff" "$work/portals-compiled.mu" --lists 50000 --headers 20 --seed 7

echo
echo "== compile time: --target=c on chains of N stateful Counters =="
# shellcheck disable=SC2086 # a list of sizes
"$root/bench/compile-time/run.sh" ${NPCC_BENCH_COMPILE_SIZES:-200 1000 2000 5000}

echo
"$root/bench/pcsa.sh"

echo
"$root/bench/npsim.sh"

echo
echo "== musim: against the 32ef19f build, same run (bench/musim.sh) =="
musim_target="musim: simulation speed / the 32ef19f build's, same cycle counts (>= 2x)"
if [ -x "$root/bench/musim.sh" ]; then
  before=$(wc -l <"$NPCC_BENCH_VERDICTS")
  "$root/bench/musim.sh" | tee "$work/musim.out"
  # musim.sh may record its verdicts itself (bench/verdict.py); if it did
  # not, its own verdict lines (met / MISSED) go into the summary as printed.
  if [ "$(wc -l <"$NPCC_BENCH_VERDICTS")" = "$before" ]; then
    python3 - "$work/musim.out" "$musim_target" <<'PY'
import os, re, sys
sys.path.insert(0, os.path.join(os.environ["NPCC_BENCH_DIR"]))
import verdict
lines = [l.strip() for l in open(sys.argv[1])
         if re.search(r"\b(met|MISSED|missed)\b", l)]
for l in lines:
    verdict.line("musim (bench/musim.sh)", l,
                 "MISSED" if re.search(r"\b(MISSED|missed)\b", l) else "met")
if not lines:
    verdict.line(sys.argv[2], "bench/musim.sh printed no verdict", "MISSED")
PY
  fi
else
  echo "bench/musim.sh is not there: musim's target is not measured"
  python3 "$root/bench/verdict.py" line "$musim_target" \
    "not measured (no bench/musim.sh)" MISSED
fi

echo
python3 "$root/bench/verdict.py" summary "$NPCC_BENCH_VERDICTS"
load_end="$(cut -d' ' -f1-3 /proc/loadavg)"
echo "load average: $load_start at the start, $load_end at the end ($(nproc) CPUs)"
if python3 -c "import sys; sys.exit(not max(float(sys.argv[1]), float(sys.argv[2])) > float(sys.argv[3]))" \
  "${load_start%% *}" "${load_end%% *}" "$(nproc)"; then
  echo "the machine was busy (more runnable threads than CPUs): wall-clock rates"
  echo "and verdicts understate, the CPU-time ratios beside them less so;"
  echo "instruction counts and sizes do not depend on the load"
fi
