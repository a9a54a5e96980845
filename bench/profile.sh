#!/usr/bin/env bash
# ===- profile.sh - where the router's time goes, in instructions ---------===#
#
# SPDX-License-Identifier: Apache-2.0
#
# ===----------------------------------------------------------------------===#
# Instructions per packet (valgrind's callgrind: deterministic, unlike the
# clock on a shared machine) of router.click compiled by npcc on one core,
# of the hand-written loop (bench/peers/router_loop.c), of the null graph
# (bench/null.click) and of bench/router-discard.click compiled by npcc,
# and of Click 2.1 running null.click, router.click and router-discard.click
# (built by bench/peers/build-click.sh), on 64-byte IPv4 frames to
# 192.168/16 (the bench's): the difference between runs on N and 2N
# frames, divided by N, so start-up costs drop out. Then issue 28's target
# (the compiled router at most 1.3x the hand loop's instructions per
# packet, recorded through bench/verdict.py) and the npcc programs' top
# functions by instructions of their own on the 2N-frame run, per packet.
#   bench/profile.sh [N]        (default 20000; NPCC_PROFILE_TOP rows)
#   NPCC_PROFILE_CLICK_FRAMES   N for Click's rows (default 10000)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export NPCC_BENCH_DIR="$root/bench"
bin="$root/build/bin"
work="$root/build/bench/profile"
n="${1:-20000}"
top="${NPCC_PROFILE_TOP:-12}"
cn="${NPCC_PROFILE_CLICK_FRAMES:-10000}"
command -v valgrind >/dev/null ||
  NPCC_EXTRA_PACKAGES=valgrind bash "$root/scripts/bootstrap.sh"
mkdir -p "$work/out" "$work/loop-out" "$work/click-out"
click="$("$root/bench/peers/build-click.sh" click | tail -1)"

for count in $(printf "%s\n" "$n" $((2 * n)) "$cn" $((2 * cn)) | sort -un); do
  "$bin/npgen" -o "$work/in-$count.pcap" --count "$count" --seed 1 \
    --size 64 --mix ipv4=1 --quiet
done
cc -std=c11 -O2 -g "$root/bench/peers/router_loop.c" -o "$work/router_loop"
NPCC_CFLAGS="-g" "$bin/npcc" "$root/examples/ipv4-router/router.click" \
  --target=c -o "$work/router" -D IN=in.pcap -D O="$work/out"
NPCC_CFLAGS="-g" "$bin/npcc" "$root/bench/null.click" --target=c \
  -o "$work/null" -D IN=in.pcap
NPCC_CFLAGS="-g" "$bin/npcc" "$root/bench/router-discard.click" --target=c \
  -o "$work/discard" -D IN=in.pcap

# callgrind NAME COUNT CMD...: writes $work/NAME-COUNT.cg, prints total Ir.
callgrind() {
  local name=$1 count=$2
  shift 2
  valgrind --tool=callgrind --callgrind-out-file="$work/$name-$count.cg" \
    "$@" >/dev/null 2>"$work/$name-$count.log"
  callgrind_annotate "$work/$name-$count.cg" 2>/dev/null |
    awk '/PROGRAM TOTALS/ && !done { gsub(",", "", $1); print $1; done = 1 }'
}

printf '\n%-34s %8s %14s %14s %10s\n' "program (64-byte frames)" "N" "Ir, N" \
  "Ir, 2N" "Ir/packet"
declare -A ipp
for prog in router loop null discard click-null click-router click-discard; do
  irs=()
  m=$n
  case $prog in click-*) m=$cn ;; esac
  for count in "$m" $((2 * m)); do
    in="$work/in-$count.pcap"
    case $prog in
    router) irs+=("$(callgrind router "$count" "$work/router" IN="$in" --quiet)") ;;
    loop) irs+=("$(callgrind loop "$count" "$work/router_loop" "$in" "$work/loop-out")") ;;
    null) irs+=("$(callgrind null "$count" "$work/null" IN="$in" --quiet)") ;;
    discard) irs+=("$(callgrind discard "$count" "$work/discard" IN="$in" --quiet)") ;;
    click-null) irs+=("$(callgrind click-null "$count" "$click" \
      "$root/bench/null.click" IN="$in")") ;;
    click-router) irs+=("$(callgrind click-router "$count" "$click" \
      "$root/examples/ipv4-router/router.click" IN="$in" O="$work/click-out")") ;;
    click-discard) irs+=("$(callgrind click-discard "$count" "$click" \
      "$root/bench/router-discard.click" IN="$in")") ;;
    esac
  done
  ipp[$prog]=$(python3 -c "import sys; print(f'{(int(sys.argv[2]) - int(sys.argv[1])) / int(sys.argv[3]):.1f}')" \
    "${irs[0]}" "${irs[1]}" "$m")
  name=$prog
  case $prog in
  router) name="npcc router.click" ;;
  loop) name="hand loop (router_loop.c)" ;;
  null) name="npcc null.click" ;;
  discard) name="npcc router-discard.click" ;;
  click-null) name="Click null.click" ;;
  click-router) name="Click router.click" ;;
  click-discard) name="Click router-discard.click" ;;
  esac
  printf '%-34s %8s %14s %14s %10s\n' "$name" "$m" "${irs[0]}" "${irs[1]}" \
    "${ipp[$prog]}"
done

echo
python3 - "${ipp[router]}" "${ipp[loop]}" "${ipp[null]}" "${ipp[click-null]}" \
  "${ipp[click-router]}" "${ipp[discard]}" "${ipp[click-discard]}" <<'PY'
import os, sys
sys.path.insert(0, os.path.join(os.environ["NPCC_BENCH_DIR"]))
import verdict
router, loop, null, cnull, crouter, discard, cdiscard = map(float, sys.argv[1:])
verdict.add("instructions per packet: npcc router.click / hand loop "
            "(callgrind, 64 B)", router / loop, "<=", 1.3, "x",
            f"{router:.0f} against {loop:.0f}")
verdict.info("instructions per packet: npcc / Click (callgrind, 64 B)",
             f"null {null:.0f} / {cnull:.0f} = {null / cnull:.2f}x; "
             f"router.click {router:.0f} / {crouter:.0f} = "
             f"{router / crouter:.2f}x; Discard sinks {discard:.0f} / "
             f"{cdiscard:.0f} = {discard / cdiscard:.2f}x")
PY
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
