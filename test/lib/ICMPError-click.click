// ICMPError's symbolic types and codes from a Click configuration: the
// codes tosnet and toshost are 2 and 3 for redirect, 11 and 12 for
// unreachable; keyword PMTU and SET_FIX_ANNO; positional BADADDRS. The
// four number their errors with one counter, in the order they are made:
// the first packet's errors are 1, 2 and 3; needfrag's first (no error
// for 18.26.7.5, the first five packets' destination: ids 1-15) is the
// sixth packet's fourth, 19.
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/clickip.py gen ip %t/in.pcap
// RUN: npcc %s -I %S --target=c -o %t/exe
// RUN: %t/exe --in %t/in.pcap --out %t/c0.pcap --out %t/c1.pcap --out %t/c2.pcap --out %t/c3.pcap > %t/c.txt
// RUN: npcc %s -I %S --target=interp --in %t/in.pcap --out %t/i0.pcap --out %t/i1.pcap --out %t/i2.pcap --out %t/i3.pcap > %t/i.txt
// RUN: diff %t/c.txt %t/i.txt
// RUN: cmp %t/c0.pcap %t/i0.pcap
// RUN: cmp %t/c3.pcap %t/i3.pcap
// RUN: FileCheck %s < %t/c.txt
// RUN: npdump --hex %t/c0.pcap | FileCheck %s --check-prefix=A
// RUN: npdump --hex %t/c1.pcap | FileCheck %s --check-prefix=B
// RUN: npdump --hex %t/c2.pcap | FileCheck %s --check-prefix=C
// RUN: npdump --hex %t/c3.pcap | FileCheck %s --check-prefix=D
require(library "Inputs/annotest.np")

FromDevice(0) -> Strip(14) -> CheckIPHeader -> t :: Tee(4);
t[0] -> ICMPError(18.26.4.24, redirect, tosnet) -> ShowAnno -> ToDevice(0);
t[1] -> ICMPError(18.26.4.24, unreachable, toshost) -> ShowAnno -> ToDevice(1);
t[2] -> ICMPError(18.26.4.24, sourcequench, SET_FIX_ANNO false) -> ShowAnno -> ToDevice(2);
t[3] -> e :: ICMPError(18.26.4.24, unreachable, needfrag, 18.26.7.5 1.2.3.4, PMTU 576)
  -> ShowAnno -> ToDevice(3);
// The 47 packets of the 60 answered by the others that go to 18.26.7.5 or
// 1.2.3.4 get no needfrag error (the bad addresses).
// CHECK: e{{ +}}ICMPError{{ +}}83{{ +}}13{{ +}}83
// A: 0000: 12 1a 04 09 01 00 00 00 45 00 00 3a 00 01 00 00
// A-NEXT: 0010: c8 01 {{.. ..}} 12 1a 04 18 12 1a 04 09 05 02
// B: 0000: 12 1a 04 09 01 00 00 00 45 00 00 3a 00 02 00 00
// B-NEXT: 0010: c8 01 {{.. ..}} 12 1a 04 18 12 1a 04 09 03 0c
// C: 0000: 12 1a 04 09 00 00 00 00 45 00 00 3a 00 03 00 00
// C-NEXT: 0010: c8 01 {{.. ..}} 12 1a 04 18 12 1a 04 09 04 00
// D: 0000: 0a 00 00 01 01 00 00 00 45 00 00 3a 00 13 00 00
// D-NEXT: 0010: c8 01 {{.. ..}} 12 1a 04 18 0a 00 00 01 03 04 {{.. ..}}
// D-NEXT: 0020: 00 00 02 40 45 00
