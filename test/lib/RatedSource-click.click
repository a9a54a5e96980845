// Click's own spellings reach RatedSource: positional DATA (with \<hex>
// quoting), RATE, LIMIT, and the keywords RATE, LIMIT, LENGTH, DATASIZE,
// ACTIVE and STOP. Both targets, against the model of Click's RatedSource
// (clickref.py: the same four sources as RatedSource.np, time stamps
// included); the program ends by itself after LIMIT packets each.
// RUN: rm -rf %t && mkdir -p %t
// RUN: npcc %s --target=c -o %t/exe
// RUN: %t/exe --out %t/c0.pcap --out %t/c1.pcap --out %t/c2.pcap --out %t/c3.pcap > %t/c.txt
// RUN: npcc %s --target=interp --out %t/i0.pcap --out %t/i1.pcap --out %t/i2.pcap --out %t/i3.pcap > %t/i.txt
// RUN: diff %t/c.txt %t/i.txt
// RUN: cmp %t/c0.pcap %t/i0.pcap
// RUN: cmp %t/c3.pcap %t/i3.pcap
// RUN: python3 %S/Inputs/clickref.py source RatedSource %t/c0.pcap %t/c1.pcap %t/c2.pcap %t/c3.pcap | FileCheck %s
// CHECK: ok output 0: 12 packets
// CHECK: ok output 1: 30 packets
// CHECK: ok output 2: 40 packets
// CHECK: ok output 3: 4 packets
// RUN: not npcc %S/Inputs/ratedsource-bandwidth.click --target=mlir 2>&1 | FileCheck %s --check-prefix=BW
// BW: ratedsource-bandwidth.click:1:18: error: unknown keyword 'BANDWIDTH' for 'RatedSource'
RatedSource(abc, 10, 12) -> ToDevice(0);
RatedSource("0123456789", LIMIT 30, RATE 250, DATASIZE 25) -> ToDevice(1);
RatedSource(\<00 0a 09 23>, 3000, 40, LENGTH 3, ACTIVE true, STOP true)
  -> ToDevice(2);
RatedSource(RATE 7, LIMIT 4) -> ToDevice(3);
