#!/usr/bin/env bash
# Channel throughput: npcc's SPSC ring (runtime/nprt/ring.h) against
# boost::lockfree::spsc_queue and DPDK's rte_ring, a producer and a
# consumer pinned to two CPUs; 8- and 64-byte messages, single and in
# bursts of 32. Prints the median (and the best) M msgs/s of each and
# npcc's ratios.
# The peers come from Debian (scripts/bootstrap.sh bench: libboost-dev,
# dpdk-dev). NPCC_CHAN_MESSAGES (default 20000000) messages per run,
# NPCC_CHAN_RUNS (default 5) runs per mode, NPCC_CHAN_CPUS (default 0,1).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
work="$root/build/bench/chan"
src="$root/bench/chan"
mkdir -p "$work"

# The same flags for every side; DPDK's headers add their own.
flags=(-O2 -Wall -I"$root")
gcc -std=c11 "${flags[@]}" -c "$root/runtime/nprt/ring.c" -o "$work/ring.o"
gcc -std=c11 "${flags[@]}" -c "$src/npcc_ring.c" -o "$work/npcc_ring.o"
# shellcheck disable=SC2046
gcc -std=c11 "${flags[@]}" $(pkg-config --cflags libdpdk) \
  -c "$src/dpdk_ring.c" -o "$work/dpdk_ring.o"
g++ -std=c++17 "${flags[@]}" -c "$src/boost_ring.cpp" -o "$work/boost_ring.o"
g++ -std=c++17 "${flags[@]}" "$src/chan_bench.cpp" "$work/ring.o" \
  "$work/npcc_ring.o" "$work/dpdk_ring.o" "$work/boost_ring.o" \
  -lrte_ring -lrte_eal -pthread -o "$work/chan-bench"

if [ "$(nproc)" -lt 2 ]; then
  echo "bench/chan: needs 2 CPUs, this machine has $(nproc): skipped"
  exit 0
fi
"$work/chan-bench" --messages "${NPCC_CHAN_MESSAGES:-20000000}" \
  --runs "${NPCC_CHAN_RUNS:-5}" --cpus "${NPCC_CHAN_CPUS:-0,1}"
