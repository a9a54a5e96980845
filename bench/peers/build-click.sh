#!/usr/bin/env bash
# ===- build-click.sh - Click 2.1 (or FastClick) from ../shared/peers ------===#
#
# SPDX-License-Identifier: Apache-2.0
#
# ===----------------------------------------------------------------------===#
# Builds the userlevel driver of a peer the benchmarks measure against, from
# the source archive kept beside the checkout (../shared/peers, see its
# README), into build/peers/NAME:
#   bench/peers/build-click.sh [click|fastclick]     (default: click)
# and prints the driver's path on its last line:
#   build/peers/click/userlevel/click        Click 2.1 (about 6 minutes)
#   build/peers/fastclick/userlevel/click    FastClick, no DPDK (about 12)
# Idempotent: a finished build (build/peers/NAME-done says "done 0" and the
# driver is there) is reused at once; an unfinished or failed one is resumed
# (make picks up where it stopped). A lock (build/peers/.NAME.lock) keeps
# two builds of one peer from running at once. Progress goes to stderr
# every 30 s; the logs are build/peers/NAME-{configure,make}.log.
#   NPCC_PEERS_SRC   where the archives are (default: $root/../shared/peers)
#   NPCC_PEERS_JOBS  make -j (default 2)
# Never part of make check: only make bench (scripts/bootstrap.sh bench)
# and the bench scripts call it.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
name="${1:-click}"
src="${NPCC_PEERS_SRC:-$root/../shared/peers}"
jobs="${NPCC_PEERS_JOBS:-2}"
peers="$root/build/peers"
case $name in
click)
  archive="$src/click-9197a59.tar.gz"
  flags=(--disable-linuxmodule --enable-userlevel)
  minutes=6
  ;;
fastclick)
  archive="$src/fastclick-93ca5a6.tar.gz"
  flags=(--disable-linuxmodule --enable-userlevel --disable-dpdk
    --enable-batch --disable-verbose-batch)
  minutes=12
  ;;
*)
  echo "build-click.sh: unknown peer '$name' (click or fastclick)" >&2
  exit 2
  ;;
esac
dir="$peers/$name"
driver="$dir/userlevel/click"
done_file="$peers/$name-done"

built() { [ -x "$driver" ] && [ "$(cat "$done_file" 2>/dev/null)" = "done 0" ]; }

mkdir -p "$peers"
if built; then
  echo "$driver"
  exit 0
fi
exec 9>"$peers/.$name.lock"
if ! flock -n 9; then
  echo "build-click.sh: another build of $name is running; waiting for it" >&2
  flock 9
fi
if built; then # built by whoever held the lock
  echo "$driver"
  exit 0
fi

if [ ! -f "$dir/configure" ]; then
  [ -f "$archive" ] || {
    echo "build-click.sh: $archive not found (NPCC_PEERS_SRC names the" \
      "directory of the peers' archives)" >&2
    exit 1
  }
  echo "build-click.sh: unpacking $(basename "$archive") into $dir" >&2
  rm -rf "$dir"
  tar -xzf "$archive" -C "$peers"
  [ -f "$dir/configure" ] || {
    echo "build-click.sh: $archive did not unpack into $name/" >&2
    exit 1
  }
fi

echo "build-click.sh: building $name (about $minutes minutes on 2 cores," \
  "make -j$jobs; logs in $peers/$name-*.log)" >&2
rm -f "$done_file"
start=$SECONDS
if [ ! -f "$dir/config.status" ] || [ ! -f "$dir/userlevel/Makefile" ]; then
  echo "build-click.sh: configure ${flags[*]}" >&2
  if ! (cd "$dir" && ./configure "${flags[@]}") >"$peers/$name-configure.log" 2>&1; then
    echo "done 1" >"$done_file"
    echo "build-click.sh: configure failed; the end of" \
      "$peers/$name-configure.log:" >&2
    tail -20 "$peers/$name-configure.log" >&2
    exit 1
  fi
fi

# Progress: objects compiled so far, every 30 s, while make runs (without
# the lock, and taking its sleep along when it is stopped).
(
  exec 9>&-
  s=""
  trap 'kill $s 2>/dev/null; exit 0' TERM
  while :; do
    sleep 30 &
    s=$!
    wait $s
    n=$(find "$dir" -name '*.o' -newer "$dir/config.status" 2>/dev/null | wc -l)
    echo "build-click.sh: $name: $n objects compiled, $(((SECONDS - start) / 60)) min" >&2
  done
) &
progress=$!
(cd "$dir" && exec make -j"$jobs") >"$peers/$name-make.log" 2>&1 &
make_pid=$!
# Interrupted: stop make and the progress loop (a rerun resumes the build).
trap 'kill "$progress" "$make_pid" 2>/dev/null || true' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
rc=0
wait "$make_pid" || rc=$?
kill "$progress" 2>/dev/null || true
wait "$progress" 2>/dev/null || true
trap - EXIT
echo "done $rc" >"$done_file"
if [ "$rc" -ne 0 ] || [ ! -x "$driver" ]; then
  echo "build-click.sh: make failed ($rc); the end of $peers/$name-make.log:" >&2
  tail -20 "$peers/$name-make.log" >&2
  exit 1
fi
echo "build-click.sh: $name built in $(((SECONDS - start) / 60)) min" >&2
echo "$driver"
