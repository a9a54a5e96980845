#!/usr/bin/env bash
# make demo: compiles the passthrough example, runs it on generated
# traffic, prints the per-element packet counts and checks that the output
# capture is byte-identical to the input. Then splits a protocol mix with
# the ethertype-split example.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
bin="$root/build/bin"
out="$root/build/demo"
mkdir -p "$out"

echo "== npgen: 10000 frames, IPv4/ARP/IPv6/other mix =="
"$bin/npgen" -o "$out/in.pcap" --count 10000 --seed 42 \
  --mix ipv4=70,arp=10,ipv6=10,other=10 --size-mix imix \
  --report "$out/report.json" --quiet
cat "$out/report.json"; echo

echo "== npcc examples/passthrough/passthrough.np --target=c -o passthrough =="
"$bin/npcc" "$root/examples/passthrough/passthrough.np" --target=c \
  -o "$out/passthrough"
"$out/passthrough" --in "$out/in.pcap" --out "$out/out.pcap" \
  --stats-json "$out/passthrough.json"
if cmp -s "$out/in.pcap" "$out/out.pcap"; then
  echo "output pcap is byte-identical to the input"
else
  echo "error: output pcap differs from the input" >&2
  exit 1
fi

echo
echo "== npcc examples/ethertype-split/ethertype-split.np: IPv4 -> 0, ARP -> 1, rest -> 2 =="
"$bin/npcc" "$root/examples/ethertype-split/ethertype-split.np" --target=c \
  -o "$out/ethertype-split"
"$out/ethertype-split" --in "$out/in.pcap" --out "$out/ipv4.pcap" \
  --out "$out/arp.pcap" --out "$out/rest.pcap"
echo "files in $out"
