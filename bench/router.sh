#!/usr/bin/env bash
# ===- router.sh - the IPv4 router against Click 2.1 and the hand loop ----===#
#
# SPDX-License-Identifier: Apache-2.0
#
# ===----------------------------------------------------------------------===#
# Part of make bench (bench/run.sh). On 64-byte and 1514-byte IPv4 frames to
# 192.168/16 (each goes through the whole forwarding path: check, lookup,
# options, TTL, fragmenter, encapsulation, out1), in one run, pinned:
#  - Click 2.1's null configuration (bench/null.click: FromDump -> Discard)
#    run by Click against the same file compiled by npcc;
#  - examples/ipv4-router/router.click writing its six outputs, run by
#    Click and compiled by npcc, and bench/router-discard.click (the same
#    with Discard sinks), run by both;
#  - bench/peers/router_loop.c, the same work as one hand-written C loop,
#    writing the same outputs;
#  - the compiled router on 2 cores, each mapping.
# Before timing, the outputs must be the same: Click's six files and the
# hand loop's are compared with npcc's on both traces (bench/pcap_same.py:
# byte for byte, Click's nanosecond time stamps read as microseconds), and
# Click's with npcc's on the router's bundled traffic.pcap, which reaches
# ARP, ICMP errors and IP options (there leaving out the fields Click
# fills from the host's clock). A difference fails the bench.
# bench/router_table.py then times, tabulates and records the verdicts.
#   NPCC_BENCH_RUNS          repetitions (default 5)
#   NPCC_BENCH_ROUTER_FRAMES 64-byte frames per run (default 2000000);
#                            a fifth as many 1514-byte frames
#   NPCC_BENCH_FASTCLICK=1   build FastClick (no DPDK, about 12 minutes
#                            the first time) and add its rows; they are
#                            also there when it was built before
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="$root/build/bin"
work="$root/build/bench/router"
runs="${NPCC_BENCH_RUNS:-5}"
small="${NPCC_BENCH_ROUTER_FRAMES:-2000000}"
big=$((small / 5 > 0 ? small / 5 : 1))
rm -rf "$work/check"
mkdir -p "$work/check"

echo "== the IPv4 router (examples/ipv4-router/router.click) against Click 2.1 =="
click="$("$root/bench/peers/build-click.sh" click | tail -1)"
fastclick=""
if [ "${NPCC_BENCH_FASTCLICK:-0}" = 1 ] ||
  [ "$(cat "$root/build/peers/fastclick-done" 2>/dev/null)" = "done 0" ]; then
  fastclick="$("$root/bench/peers/build-click.sh" fastclick | tail -1)" || {
    echo "router.sh: FastClick did not build; its rows are left out" >&2
    fastclick=""
  }
fi
for spec in "64:$small" "1514:$big"; do
  "$bin/npgen" -o "$work/in-${spec%%:*}.pcap" --count "${spec#*:}" --seed 1 \
    --size "${spec%%:*}" --mix ipv4=1 --quiet
done
cc -std=c11 -O2 "$root/bench/peers/router_loop.c" -o "$work/router_loop"
"$bin/npcc" "$root/examples/ipv4-router/router.click" --target=c \
  -o "$work/router" -D IN="$work/in-64.pcap" -D O=.
"$bin/npcc" "$root/bench/router-discard.click" --target=c \
  -o "$work/discard" -D IN="$work/in-64.pcap"
"$bin/npcc" "$root/bench/null.click" --target=c -o "$work/null" \
  -D IN="$work/in-64.pcap"

# same TRACE DIR1 DIR2 [ARGS]: the six outputs of DIR1 against npcc's in
# DIR2 (pcap_same.py ARGS).
same() {
  local trace=$1 a=$2 b=$3
  shift 3
  for f in out0 out1 tohost bad arpin other; do
    python3 "$root/bench/pcap_same.py" "$@" "$a/$f.pcap" "$b/$f.pcap" \
      >"$work/check/same.log" || {
      cat "$work/check/same.log" >&2
      echo "router.sh: $(basename "$a")'s $f.pcap is not npcc's on" \
        "$(basename "$trace"): the bench stops here" >&2
      exit 1
    }
  done
}
check() { # TRACE [pcap_same.py ARGS]: Click, npcc and the loop on TRACE
  local trace=$1 name
  shift
  name=$(basename "$trace" .pcap)
  local c="$work/check/click-$name" n="$work/check/npcc-$name"
  local l="$work/check/loop-$name"
  mkdir -p "$c" "$n" "$l"
  "$click" "$root/examples/ipv4-router/router.click" IN="$trace" O="$c" \
    2>"$c.log"
  (cd "$n" && "$work/router" IN="$trace" --quiet)
  "$work/router_loop" "$trace" "$l"
  same "$trace" "$l" "$n"
  same "$trace" "$c" "$n" "$@"
}
check "$work/in-64.pcap"
check "$work/in-1514.pcap"
echo "same outputs: Click, npcc and the hand loop, byte for byte, on both traces"
t0=$(date +%s.%N)
check "$root/examples/ipv4-router/traffic.pcap" --click-clock "$t0"
echo "same outputs: Click and npcc on examples/ipv4-router/traffic.pcap but for"
echo "  the fields Click takes from the host's clock (the time stamps of the ARP"
echo "  replies and ICMP errors it makes, the times in IP time stamp options)"

python3 "$root/bench/router_table.py" "$work" "$runs" "$click" $fastclick \
  -- "64:$small" "1514:$big"
