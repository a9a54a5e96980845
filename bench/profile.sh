#!/usr/bin/env bash
# ===- profile.sh - where the router's time goes, in instructions ---------===#
#
# SPDX-License-Identifier: Apache-2.0
#
# ===----------------------------------------------------------------------===#
# Instructions per packet (valgrind's callgrind: deterministic, unlike the
# clock on a shared machine) of router.click compiled by npcc on one core,
# of the hand-written loop (bench/peers/router_loop.c) and of the null
# graph (bench/null.click), on 64-byte IPv4 frames to 192.168/16 (the
# bench's): the difference between runs on N and 2N frames, divided by N,
# so start-up costs drop out. Then each program's top functions by
# instructions of their own on the 2N-frame run, per packet.
#   bench/profile.sh [N]        (default 20000; NPCC_PROFILE_TOP rows)
# Uses the programs bench/router.sh builds when they are there.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="$root/build/bin"
work="$root/build/bench/profile"
n="${1:-20000}"
top="${NPCC_PROFILE_TOP:-12}"
command -v valgrind >/dev/null ||
  NPCC_EXTRA_PACKAGES=valgrind bash "$root/scripts/bootstrap.sh"
mkdir -p "$work/out" "$work/loop-out"

for count in "$n" $((2 * n)); do
  "$bin/npgen" -o "$work/in-$count.pcap" --count "$count" --seed 1 \
    --size 64 --mix ipv4=1 --quiet
done
cc -std=c11 -O2 -g "$root/bench/peers/router_loop.c" -o "$work/router_loop"
NPCC_CFLAGS="-g" "$bin/npcc" "$root/examples/ipv4-router/router.click" \
  --target=c -o "$work/router" -D IN=in.pcap -D O="$work/out"
NPCC_CFLAGS="-g" "$bin/npcc" "$root/bench/null.click" --target=c \
  -o "$work/null" -D IN=in.pcap

# callgrind NAME COUNT CMD...: writes $work/NAME-COUNT.cg, prints total Ir.
callgrind() {
  local name=$1 count=$2
  shift 2
  valgrind --tool=callgrind --callgrind-out-file="$work/$name-$count.cg" \
    "$@" >/dev/null 2>"$work/$name-$count.log"
  callgrind_annotate "$work/$name-$count.cg" 2>/dev/null |
    awk '/PROGRAM TOTALS/ && !done { gsub(",", "", $1); print $1; done = 1 }'
}

printf '\n%-34s %14s %14s %10s\n' "program (64-byte frames)" "Ir, $n" \
  "Ir, $((2 * n))" "Ir/packet"
for prog in router loop null; do
  irs=()
  for count in "$n" $((2 * n)); do
    in="$work/in-$count.pcap"
    case $prog in
    router) irs+=("$(callgrind router "$count" "$work/router" IN="$in" --quiet)") ;;
    loop) irs+=("$(callgrind loop "$count" "$work/router_loop" "$in" "$work/loop-out")") ;;
    null) irs+=("$(callgrind null "$count" "$work/null" IN="$in" --quiet)") ;;
    esac
  done
  printf '%-34s %14s %14s %10.1f\n' "$prog" "${irs[0]}" "${irs[1]}" \
    "$(((irs[1] - irs[0]) * 10 / n))e-1"
done

for prog in router loop null; do
  echo
  echo "== $prog: top $top functions, own instructions per packet ($((2 * n)) frames) =="
  callgrind_annotate --inclusive=no "$work/$prog-$((2 * n)).cg" 2>/dev/null |
    awk -v frames=$((2 * n)) -v top="$top" '
      /PROGRAM TOTALS/ { next }
      /^ *[0-9,]+ +\( *[0-9.]+%\) +[^ ]+:/ && shown < top {
        ir = $1; gsub(",", "", ir)
        fn = $0; sub(/^ *[0-9,]+ +\( *[0-9.]+%\) +/, "", fn)
        sub(/ \[[^]]*\]$/, "", fn)
        printf "%9.1f  %s\n", ir / frames, fn
        shown++
      }'
done
