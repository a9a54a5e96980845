#!/usr/bin/env bash
# Compile time and size of the C emitted against the number of stateful
# instances: a chain of N Counters (each with its own state) between a
# FromDevice and a ToDevice, for N in 200 2000 1000 5000 10000 20000 (or
# the sizes given as arguments), compiled with --target=c -S. Prints
# seconds, seconds per 1,000 instances (linear compile time keeps that
# column flat) and lines of C. Then issue 28's compile targets, recorded
# through bench/verdict.py: the C for 2,000 Counters at most 3x the lines
# of 200's (when both sizes ran), and examples/ipv4-router/router.click
# compiled to an executable, C compiler included, in under 2 s (wall
# clock, median of NPCC_BENCH_COMPILE_RUNS, default 3).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
bin="${NPCC_BIN:-$root/build/bin}"
work="${NPCC_BENCH_WORK:-$root/build/bench/compile-time}"
runs="${NPCC_BENCH_COMPILE_RUNS:-3}"
mkdir -p "$work"
sizes=("$@")
((${#sizes[@]})) || sizes=(200 2000 1000 5000 10000 20000)

gen() { # n file
  python3 - "$1" "$2" <<'PY'
import sys
n, path = int(sys.argv[1]), sys.argv[2]
with open(path, "w") as f:
    f.write('import "std.np";\n\ngraph Chain() {\n  src = FromDevice(0);\n')
    for i in range(n):
        f.write(f"  c{i} = Counter();\n")
    f.write("  sink = ToDevice(0);\n  src -> c0;\n")
    for i in range(n - 1):
        f.write(f"  c{i} -> c{i + 1};\n")
    f.write(f"  c{n - 1} -> sink;\n}}\n")
PY
}

declare -A lines
printf '%-10s %10s %14s %12s\n' "instances" "seconds" "s/1000 inst" "lines of C"
for n in "${sizes[@]}"; do
  src="$work/chain$n.np"
  gen "$n" "$src"
  t0=$(date +%s%N)
  "$bin/npcc" "$src" --target=c -S -o "$work/chain$n.c"
  t1=$(date +%s%N)
  lines[$n]=$(wc -l <"$work/chain$n.c")
  python3 -c "import sys; n=int(sys.argv[1]); s=int(sys.argv[2])/1e9; print(f'{n:<10} {s:10.2f} {s*1000/n:14.3f} {int(sys.argv[3]):12,}')" \
    "$n" "$((t1 - t0))" "${lines[$n]}"
done

if [ -n "${lines[200]:-}" ] && [ -n "${lines[2000]:-}" ]; then
  python3 "$root/bench/verdict.py" add \
    "C emitted: 2,000 Counters / 200 Counters, lines (-S)" \
    "$(python3 -c "print(${lines[2000]} / ${lines[200]})")" "<=" 3 x \
    "${lines[2000]} against ${lines[200]} lines"
fi

echo
echo "examples/ipv4-router/router.click to an executable (npcc --target=c -o X," \
  "C compiler included), $runs runs:"
python3 - "$bin/npcc" "$root/examples/ipv4-router/router.click" "$work" \
  "$runs" <<'PY'
import os, statistics, subprocess, sys, time
sys.path.insert(0, os.path.join(os.path.dirname(sys.argv[2]), "..", "..",
                                "bench"))
import verdict
npcc, src, work, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
walls = []
for i in range(runs):
    exe = os.path.join(work, "router")
    t0 = time.perf_counter()
    subprocess.run([npcc, src, "--target=c", "-o", exe, "-D", "IN=in.pcap",
                    "-D", "O=."], check=True)
    walls.append(time.perf_counter() - t0)
print("seconds: " + " ".join(f"{w:.2f}" for w in walls))
verdict.add("router.click to an executable, C compiler included "
            f"(median of {runs})", statistics.median(walls), "<", 2.0, " s",
            f"load average {os.getloadavg()[0]:.2f}")
PY
