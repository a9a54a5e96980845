#!/usr/bin/env bash
# Compile time of --target=c against the number of stateful instances: a
# chain of N Counters (each with its own state) between a FromDevice and a
# ToDevice, for N in 200 2000 1000 5000 10000 20000 (or the sizes given as
# arguments). Prints seconds per 1,000 instances; linear compile time keeps
# that column flat.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
bin="${NPCC_BIN:-$root/build/bin}"
work="${NPCC_BENCH_WORK:-$root/build/bench/compile-time}"
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

printf '%-10s %10s %14s\n' "instances" "seconds" "s/1000 inst"
for n in "${sizes[@]}"; do
  src="$work/chain$n.np"
  gen "$n" "$src"
  t0=$(date +%s%N)
  "$bin/npcc" "$src" --target=c -S -o "$work/chain$n.c"
  t1=$(date +%s%N)
  python3 -c "import sys; n=int(sys.argv[1]); s=int(sys.argv[2])/1e9; print(f'{n:<10} {s:10.2f} {s*1000/n:14.3f}')" "$n" "$((t1 - t0))"
done
