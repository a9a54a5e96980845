// Click's IPClassifier syntax through the Click front end: unquoted
// patterns with spaces are whole arguments; each output leaves on its own
// device, both targets agree, and the outputs match the model
// (Inputs/ipclassify.py, set "click").
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/ipclassify.py gen %t/in.pcap
// RUN: npcc %s --target=c -o %t/exe
// RUN: %t/exe --in %t/in.pcap --out %t/c0.pcap --out %t/c1.pcap --out %t/c2.pcap > %t/c.txt
// RUN: npcc %s --target=interp --in %t/in.pcap --out %t/i0.pcap --out %t/i1.pcap --out %t/i2.pcap > %t/i.txt
// RUN: diff %t/c.txt %t/i.txt
// RUN: cmp %t/c0.pcap %t/i0.pcap
// RUN: cmp %t/c1.pcap %t/i1.pcap
// RUN: cmp %t/c2.pcap %t/i2.pcap
// RUN: FileCheck %s < %t/c.txt
// RUN: python3 %S/Inputs/ipclassify.py check click %t/in.pcap %t/c0.pcap %t/c1.pcap %t/c2.pcap | FileCheck %s --check-prefix=REF

FromDevice(0) -> Strip(14) -> ic :: IPClassifier(tcp dst port 80, udp, -);
ic[0] -> Unstrip(14) -> ToDevice(0);
ic[1] -> Unstrip(14) -> ToDevice(1);
ic[2] -> Unstrip(14) -> ToDevice(2);
// CHECK: ic{{ +}}IPClassifier{{ +}}345{{ +}}345{{ +}}0
// REF: ok click output 0: 17 packets
// REF: ok click output 1:
// REF: ok click output 2:
