// Click's INTERFACES keyword reaches CheckIPHeader's interfaces (a struct
// of prefixes, one per word), and the unconnected output 1 drops what it
// rejects, as Click kills it.
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/clickip.py gen ip %t/in.pcap
// RUN: npcc %s -I %S --target=c -o %t/exe
// RUN: %t/exe --in %t/in.pcap --out %t/c0.pcap > %t/c.txt
// RUN: npcc %s -I %S --target=interp --in %t/in.pcap --out %t/i0.pcap > %t/i.txt
// RUN: diff %t/c.txt %t/i.txt
// RUN: cmp %t/c0.pcap %t/i0.pcap
// RUN: FileCheck %s < %t/c.txt
// RUN: python3 %S/Inputs/clickip.py check CheckIPHeaderClick %t/in.pcap %t/c0.pcap | FileCheck %s --check-prefix=REF
require(library "Inputs/annotest.np")

FromDevice(0) -> Strip(14)
  -> ck :: CheckIPHeader(INTERFACES 18.26.4.24/24 18.26.7.1/24)
  -> Unstrip(14) -> ShowAnno -> ToDevice(0);
// Output 1 is not connected: the element has one output and drops (and
// counts) the 14 bad packets, as Click kills them.
// CHECK: ck{{ +}}CheckIPHeader{{ +}}93{{ +}}79{{ +}}14
// REF: ok output 0: 79 packets
