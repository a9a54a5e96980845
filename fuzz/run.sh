#!/usr/bin/env bash
# Builds the libFuzzer targets in build-fuzz/ (clang-19, ASan+UBSan,
# assertions) and runs each in turn, one process at a time, for
# FUZZ_SECONDS seconds (default 60) or FUZZ_RUNS executions if set.
#   fuzz/run.sh [fuzzer...]      (default: all of them)
# Seed corpora come from the test suite and the examples, dictionaries from
# the NPL grammar and the match-unit ISA; both are regenerated on each run.
# Corpora grow in build-fuzz/fuzz/corpus/<fuzzer>/, crashes land in
# build-fuzz/fuzz/artifacts/<fuzzer>/, logs in build-fuzz/fuzz/logs/.
# Exit status: non-zero if any fuzzer found a crash.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build-fuzz"
seconds="${FUZZ_SECONDS:-60}"
runs="${FUZZ_RUNS:-}"
all=(fuzz-frontend fuzz-npcc-opt fuzz-muasm fuzz-musim-image fuzz-musim-lists
  fuzz-pcap)
fuzzers=("$@")
((${#fuzzers[@]})) || fuzzers=("${all[@]}")

# clang and the libFuzzer runtime are needed only here, not by make check.
missing=()
for p in clang-19 libclang-rt-19-dev; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
if ((${#missing[@]})); then
  echo "fuzz: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if [ ! -f "$build/build.ninja" ]; then
  jar="$HOME/.m2/repository/org/antlr/antlr4/4.9/antlr4-4.9-complete.jar"
  launcher=()
  # Paths relative to the checkout in the cache key: clones at other paths
  # (CI's fresh clone, worktrees) hit the same cache entries.
  ccache_env="$(command -v cmake);-E;env;CCACHE_BASEDIR=$root;CCACHE_NOHASHDIR=1;ccache"
  command -v ccache >/dev/null &&
    launcher=("-DCMAKE_C_COMPILER_LAUNCHER=$ccache_env" "-DCMAKE_CXX_COMPILER_LAUNCHER=$ccache_env")
  echo "fuzz: configuring build-fuzz/"
  # -O1 and line tables: fast enough to fuzz, readable stack traces.
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 \
    "-DCMAKE_C_FLAGS_RELEASE=-O1 -gline-tables-only" \
    "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -gline-tables-only" \
    -DNPCC_SANITIZE=fuzzer-no-link,address,undefined \
    -DNPCC_ENABLE_ASSERTIONS=ON -DNPCC_BUILD_FUZZERS=ON \
    -DANTLR_JAR="$jar" "${launcher[@]}" >/dev/null
fi
cmake --build "$build" --target "${fuzzers[@]}" muasm

work="$build/fuzz"
mkdir -p "$work/seeds" "$work/dict" "$work/logs"

# Dictionaries: every literal of the grammar; every mnemonic of the ISA
# and the directives and operand spellings the .mua files use.
grep -o "'[^']*'" "$root/compiler/frontend/NPL.g4" | sort -u |
  sed -e "s/^'//" -e "s/'\$//" -e 's/\\\\/\\\\\\\\/g' -e 's/"/\\"/g' |
  awk 'length > 0 { print "\"" $0 "\"" }' >"$work/dict/npl.dict"
{
  grep -oE 'MU_(OP|ENUM)\([^"]*"[^"]+"' "$root/runtime/isa/MatchUnit.def" |
    grep -oE '"[^"]+"$'
  cat $(find "$root/test" "$root/examples" -name '*.mua') |
    sed 's/;.*//' | grep -oE '\.?[A-Za-z_][A-Za-z0-9_.]*|[][,:=#@+-]' |
    sort -u | sed 's/.*/"&"/'
} | sort -u >"$work/dict/mua.dict"

# Seeds. Files with several `// -----` sections give one seed per section.
seed() { # fuzzer, files...
  local dir="$work/seeds/$1"
  shift
  rm -rf "$dir"
  mkdir -p "$dir"
  local f
  for f in "$@"; do
    local base
    base="$(echo "${f#"$root"/}" | tr '/' '_')"
    awk -v out="$dir/$base" 'BEGIN { n = 0; file = out "." n }
      /^\/\/ -----/ { n++; file = out "." n; next }
      { print > file }' "$f"
  done
}
seed fuzz-frontend $(find "$root/test" "$root/examples" "$root/lib" -name '*.np')
seed fuzz-npcc-opt $(find "$root/test" -name '*.mlir')
seed fuzz-muasm $(find "$root/test" "$root/examples" -name '*.mua')
seed fuzz-musim-lists $(find "$root/test/runtime/musim" -name '*.txt')
rm -rf "$work/seeds/fuzz-musim-image"
mkdir -p "$work/seeds/fuzz-musim-image"
for f in "$work/seeds/fuzz-muasm"/*; do
  "$build/bin/muasm" "$f" -o "$work/seeds/fuzz-musim-image/$(basename "$f").mu" \
    2>/dev/null || true
done
rm -rf "$work/seeds/fuzz-pcap"
mkdir -p "$work/seeds/fuzz-pcap"
python3 "$root/fuzz/pcap_seeds.py" "$work/seeds/fuzz-pcap"

status=0
for f in "${fuzzers[@]}"; do
  corpus="$work/corpus/$f"
  artifacts="$work/artifacts/$f"
  mkdir -p "$corpus" "$artifacts"
  dict=()
  case "$f" in
  fuzz-frontend) dict=(-dict="$work/dict/npl.dict") ;;
  fuzz-muasm) dict=(-dict="$work/dict/mua.dict") ;;
  esac
  limit=(-max_total_time="$seconds")
  what="$seconds s"
  if [ -n "$runs" ]; then
    limit=(-runs="$runs")
    what="$runs executions"
  fi
  log="$work/logs/$f.log"
  echo "fuzz: $f ($what), log $log"
  # -timeout: an input that takes longer is a hang; -rss_limit_mb: a flood.
  if "$build/fuzz/$f" "${limit[@]}" "${dict[@]}" -timeout=10 \
    -rss_limit_mb=2048 -max_len="${FUZZ_MAX_LEN:-4096}" -print_final_stats=1 \
    -artifact_prefix="$artifacts/" "$corpus" "$work/seeds/$f" >"$log" 2>&1; then
    echo "fuzz: $f: $(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | grep -o '[0-9]*$') executions, no crash"
  else
    echo "fuzz: $f: FAILED, see $log and $artifacts/"
    status=1
  fi
done
exit $status
