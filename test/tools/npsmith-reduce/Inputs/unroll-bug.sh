#!/bin/sh
# npsmith-reduce's test of the planted bug: interesting when program $1
# runs on the interpreter after test-np-unroll-off-by-one with outputs
# other than the interpreter's on the program itself, for the input $IN.
p=$1
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
npcc "$p" --target=mlir -o "$d/p.mlir" 2>/dev/null || exit 1
npcc "$p" --target=interp --quiet --in "$IN" --out "0=$d/g0.pcap" \
  --out "1=$d/g1.pcap" >/dev/null 2>&1 || exit 1
npcc-test-interp "$d/p.mlir" --passes=test-np-unroll-off-by-one -- --quiet \
  --in "$IN" --out "0=$d/b0.pcap" --out "1=$d/b1.pcap" >/dev/null 2>&1 ||
  exit 1
for k in 0 1; do
  if [ -e "$d/g$k.pcap" ] || [ -e "$d/b$k.pcap" ]; then
    cmp -s "$d/g$k.pcap" "$d/b$k.pcap" || exit 0
  fi
done
exit 1
