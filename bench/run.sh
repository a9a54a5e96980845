#!/usr/bin/env bash
# make bench: throughput of programs compiled by npcc against a hand-written
# libpcap loop doing the same work, measured in the same run. Prints Mpps
# for both and their ratio (npcc / peer; 1.0 means as fast as hand-written).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="$root/build/bin"
work="$root/build/bench"
frames="${NPCC_BENCH_FRAMES:-2000000}"
runs="${NPCC_BENCH_RUNS:-3}"
mkdir -p "$work"

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
"$root/bench/compile-time/run.sh"

echo
"$root/bench/pcsa.sh"

echo
"$root/bench/npsim.sh"
