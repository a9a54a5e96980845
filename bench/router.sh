#!/usr/bin/env bash
# ===- router.sh - the IPv4 router against its floor and its ceiling ------===#
#
# SPDX-License-Identifier: Apache-2.0
#
# ===----------------------------------------------------------------------===#
# Part of make bench (bench/run.sh). examples/ipv4-router/router.click,
# compiled by npcc, on 64-byte and 1514-byte IPv4 frames to 192.168/16
# (each goes through the whole forwarding path: check, lookup, options,
# TTL, fragmenter, encapsulation, out1), on --cores 1 and on 2 cores with
# each mapping; against the null graph (bench/null.click: FromDump ->
# Discard, the runtime's floor) and bench/peers/router_loop.c (the same
# work as one hand-written C loop, the ceiling). Prints median Mpps (wall
# clock and per CPU-second) and the ratios issue 9 sets as targets.
#   NPCC_BENCH_RUNS          runs per row (default 5)
#   NPCC_BENCH_ROUTER_FRAMES 64-byte frames per run (default 1000000);
#                            a fifth as many 1514-byte frames
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="$root/build/bin"
work="$root/build/bench/router"
runs="${NPCC_BENCH_RUNS:-5}"
small="${NPCC_BENCH_ROUTER_FRAMES:-1000000}"
big=$((small / 5 > 0 ? small / 5 : 1))
mkdir -p "$work/out" "$work/loop-out"

echo "== the IPv4 router (examples/ipv4-router/router.click) =="
for spec in "64:$small" "1514:$big"; do
  "$bin/npgen" -o "$work/in-${spec%%:*}.pcap" --count "${spec#*:}" --seed 1 \
    --size "${spec%%:*}" --mix ipv4=1 --quiet
done
cc -std=c11 -O2 "$root/bench/peers/router_loop.c" -o "$work/router_loop"
"$bin/npcc" "$root/examples/ipv4-router/router.click" --target=c \
  -o "$work/router" -D IN="$work/in-64.pcap" -D O="$work/out"
"$bin/npcc" "$root/bench/null.click" --target=c -o "$work/null" \
  -D IN="$work/in-64.pcap"

# The ceiling must do the router's work: same bytes on every output.
for size in 64 1514; do
  "$work/router" IN="$work/in-$size.pcap" --quiet
  "$work/router_loop" "$work/in-$size.pcap" "$work/loop-out"
  for f in out0 out1 tohost bad arpin other; do
    cmp -s "$work/out/$f.pcap" "$work/loop-out/$f.pcap" || {
      echo "router.sh: router_loop's $f.pcap differs on $size-byte frames" >&2
      exit 1
    }
  done
done

python3 "$root/bench/router_table.py" "$work" "$runs" "64:$small" "1514:$big"
echo "peers: bench/null.click (floor), bench/peers/router_loop.c (ceiling);"
echo "CPU s is user + sys of every thread: idle cores spinning count too"
