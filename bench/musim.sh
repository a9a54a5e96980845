#!/usr/bin/env bash
# musim's speed (issue 28, item 6): the paper benchmark (`musim PROG.mu
# --bench=paper --json`, field sim_cycles_per_second) with this tree's musim
# and with the musim of commit 32ef19f, side by side in one run, on the
# hand-written Portals program and on the one npcc compiles from NPL.
# Target: at least 2x the 32ef19f build, with identical cycle counts.
#
# The old musim is built once from `git archive 32ef19f` into
# build/bench/musim-32ef19f/ (only its musim target; cached by commit).
# Runs are paired, old then new, NPCC_BENCH_RUNS times (default 5); the
# table shows the medians. Exits non-zero if any cycle figure differs.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
old_rev=32ef19f
runs="${NPCC_BENCH_RUNS:-5}"
work="$root/build/bench/musim-$old_rev"
bin="$root/build/bin"

# Builds through the shared build's lock when there is one.
locked() {
  if command -v flock >/dev/null && [ -d "$root/build" ]; then
    flock "$root/build/.lock" "$@"
  else
    "$@"
  fi
}

# This tree's tools.
[ -f "$root/build/build.ninja" ] || bash "$root/scripts/bootstrap.sh"
locked cmake --build "$root/build" --target musim muasm npcc >/dev/null

# The old musim, from the commit's own CMake, configured as scripts/
# bootstrap.sh configures build/ (its top level needs MLIR to configure,
# but only musim and the ISA library it links are built).
sha="$(git -C "$root" rev-parse "$old_rev^{commit}")"
old="$work/obj/bin/musim"
if [ ! -x "$old" ] || [ "$(cat "$work/stamp" 2>/dev/null)" != "$sha" ]; then
  echo "musim: building the $old_rev musim in ${work#"$root"/}/"
  rm -rf "$work"
  mkdir -p "$work/src"
  git -C "$root" archive "$sha" | tar -x -C "$work/src"
  launcher=()
  if command -v ccache >/dev/null; then
    env="$(command -v cmake);-E;env;CCACHE_BASEDIR=$work/src;CCACHE_NOHASHDIR=1;ccache"
    launcher=("-DCMAKE_C_COMPILER_LAUNCHER=$env"
      "-DCMAKE_CXX_COMPILER_LAUNCHER=$env")
  fi
  cmake -S "$work/src" -B "$work/obj" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    "${launcher[@]}" >"$work/configure.log"
  cmake --build "$work/obj" --target musim >"$work/build.log"
  echo "$sha" >"$work/stamp"
fi

mkdir -p "$work/programs"
"$bin/muasm" "$root/examples/portals-match/portals.mua" \
  -o "$work/programs/portals.mu"
"$bin/npcc" "$root/examples/portals-match/portals.np" --target=ucode \
  -o "$work/programs/portals-compiled.mu"

python3 - "$old" "$bin/musim" "$runs" "$work/programs/portals.mu" \
  "$work/programs/portals-compiled.mu" <<'PY'
import json, statistics, subprocess, sys

old, new, runs, programs = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]

def bench(musim, program):
    out = subprocess.run([musim, program, "--bench=paper", "--json"],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)

print(f"musim: paper benchmark, median of {runs} paired runs (old, new)")
print(f"{'program':<22} {'old Mcyc/s':>11} {'new Mcyc/s':>11} {'ratio':>7}")
ratios, same = [], True
for program in programs:
    speed = {old: [], new: []}
    figures = None
    for _ in range(runs):
        for musim in (old, new):
            result = bench(musim, program)
            speed[musim].append(result["sim_cycles_per_second"] / 1e6)
            # Every figure but the timing: cycles, cycles per item, ratios.
            if figures is None:
                figures = result["runs"]
            elif result["runs"] != figures:
                same = False
                print(f"musim: {program}: {musim} simulates other cycle "
                      "counts than the other build", file=sys.stderr)
    o, n = statistics.median(speed[old]), statistics.median(speed[new])
    ratios.append(n / o)
    name = program.rsplit("/", 1)[-1]
    print(f"{name:<22} {o:11.1f} {n:11.1f} {n / o:7.2f}")
print("cycle counts: " + ("identical" if same else "DIFFER"))
worst = min(ratios)
print(f"musim: {worst:.2f}x the 32ef19f build (target >= 2x): "
      + ("met" if worst >= 2 else "MISSED"))
sys.exit(0 if same else 1)
PY
