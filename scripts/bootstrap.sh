#!/usr/bin/env bash
# Installs what npcc needs on Debian 12 and configures build/. Idempotent:
# prints nothing when everything is already present and configured.
#   bootstrap.sh         build/: Release, assertions as NPCC_ENABLE_ASSERTIONS
#   bootstrap.sh asan    build-asan/: ASan+UBSan, assertions (make check-asan)
#   bootstrap.sh tsan    build-tsan/: libnprt and its units with TSan; lit there
#                        runs build/'s compiler (make check-tsan)
#   bootstrap.sh bench   the peers of the benchmarks: boost, DPDK, valgrind
#                        (make bench; Click 2.1 is built from ../shared/peers
#                        by bench/peers/build-click.sh, which needs only the
#                        compilers and make)
# NPCC_EXTRA_PACKAGES="a b" adds Debian packages to install.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

packages=(llvm-19-dev libmlir-19-dev mlir-19-tools llvm-19-tools
  libantlr4-runtime-dev libpcap-dev ninja-build cmake g++ googletest
  libgtest-dev default-jre-headless maven ccache python3 python3-pip libz3-dev)
# Packages a caller needs on top (bench/profile.sh: valgrind).
read -r -a extra <<<"${NPCC_EXTRA_PACKAGES:-}"
packages+=("${extra[@]}")
# bench/chan measures npcc's rings against boost::lockfree and rte_ring;
# bench/profile.sh counts instructions with valgrind; bench/router.sh pins
# runs with taskset (util-linux) and builds Click with make.
if [ "${1:-}" = bench ]; then
  packages+=(libboost-dev dpdk-dev pkg-config valgrind make util-linux)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
if ((${#missing[@]})); then
  echo "bootstrap: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# The ANTLR tool must match the 4.9 C++ runtime Debian ships.
jar="$HOME/.m2/repository/org/antlr/antlr4/4.9/antlr4-4.9-complete.jar"
if [ ! -f "$jar" ]; then
  echo "bootstrap: fetching ANTLR 4.9 tool"
  mvn -q dependency:get -Dartifact=org.antlr:antlr4:4.9:jar:complete >/dev/null
fi

# npsim's sweeps run on Ray and plot with matplotlib (docs/npsim.md,
# "Sweeps"); both from PyPI, pinned.
if ! python3 -c "import ray, matplotlib" 2>/dev/null; then
  echo "bootstrap: installing ray and matplotlib (PyPI)"
  python3 -m pip install --quiet --disable-pip-version-check \
    ray==2.60.0 matplotlib==3.11.2 >/dev/null 2>&1 ||
    python3 -m pip install --quiet --disable-pip-version-check \
      --break-system-packages ray==2.60.0 matplotlib==3.11.2 >/dev/null
fi

# Xilinx's open-source ap_types headers (ap_int.h, hls_stream.h; Apache
# 2.0), which the HLS target's C simulation compiles against, ship in the
# hls4ml wheel on PyPI: fetched without its dependencies, and only that
# directory kept (CMake's NPCC_AP_TYPES_DIR points here).
ap_types="$HOME/.cache/npcc/hls4ml-1.3.0/ap_types"
if [ ! -f "$ap_types/hls_stream.h" ]; then
  echo "bootstrap: fetching Xilinx's ap_types headers (hls4ml 1.3.0 from PyPI)"
  wheel_dir="$(mktemp -d)"
  python3 -m pip download --quiet --no-deps --only-binary=:all: \
    hls4ml==1.3.0 -d "$wheel_dir" >/dev/null
  python3 - "$wheel_dir" "$ap_types" <<'PY'
import glob, os, shutil, sys, zipfile
wheel = glob.glob(os.path.join(sys.argv[1], "hls4ml-1.3.0-*.whl"))[0]
prefix = "hls4ml/templates/vivado/ap_types/"
dest = sys.argv[2]
tmp = dest + ".partial"
shutil.rmtree(tmp, ignore_errors=True)
with zipfile.ZipFile(wheel) as z:
    for name in z.namelist():
        if name.startswith(prefix) and not name.endswith("/"):
            out = os.path.join(tmp, name[len(prefix):])
            os.makedirs(os.path.dirname(out), exist_ok=True)
            with open(out, "wb") as f:
                f.write(z.read(name))
if not os.path.isfile(os.path.join(tmp, "hls_stream.h")):
    sys.exit("bootstrap: the hls4ml wheel has no ap_types/hls_stream.h")
shutil.rmtree(dest, ignore_errors=True)
os.rename(tmp, dest)
PY
  rm -rf "$wheel_dir"
fi

dir=build
flavour=()
if [ "${1:-}" = asan ]; then
  dir=build-asan
  flavour=(-DNPCC_SANITIZE=address,undefined -DNPCC_ENABLE_ASSERTIONS=ON)
elif [ "${1:-}" = tsan ]; then
  # Only the runtime is multithreaded: the compiler stays build/'s, and
  # the programs it builds for lit link build-tsan/'s libnprt.
  dir=build-tsan
  flavour=(-DNPCC_SANITIZE=thread -DNPCC_ENABLE_ASSERTIONS=ON
    "-DNPCC_TEST_TOOLS_DIR=$root/build/bin")
fi
if [ ! -f "$root/$dir/build.ninja" ]; then
  launcher=()
  # Paths relative to the checkout in the cache key: clones at other paths
  # (CI's fresh clone, worktrees) hit the same cache entries.
  ccache_env="$(command -v cmake);-E;env;CCACHE_BASEDIR=$root;CCACHE_NOHASHDIR=1;ccache"
  command -v ccache >/dev/null &&
    launcher=("-DCMAKE_C_COMPILER_LAUNCHER=$ccache_env" "-DCMAKE_CXX_COMPILER_LAUNCHER=$ccache_env")
  echo "bootstrap: configuring $dir/"
  cmake -S "$root" -B "$root/$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DANTLR_JAR="$jar" "${launcher[@]}" "${flavour[@]}" >/dev/null
fi
