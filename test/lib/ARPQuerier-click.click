// ARPQuerier from a Click configuration: a bare address (/32, so only
// 255.255.255.255 is broadcast), Click's keywords, input 1 for ARP
// frames, and one output (NOUTPUTS 1), which then carries the queries
// too. (Click counts the connected outputs; the Click front end does not
// set noutputs from the connections yet, so a configuration that connects
// only output 0, as Click's IP router does, needs NOUTPUTS 1, or the
// queries go to the Discard made for output 1.)
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/clickip.py gen arpq %t/in.pcap
// RUN: npcc %s --target=c -o %t/exe
// RUN: %t/exe --in %t/in.pcap --out %t/c0.pcap > %t/c.txt
// RUN: npcc %s --target=interp --in %t/in.pcap --out %t/i0.pcap > %t/i.txt
// RUN: diff %t/c.txt %t/i.txt
// RUN: cmp %t/c0.pcap %t/i0.pcap
// RUN: FileCheck %s < %t/c.txt
// RUN: python3 %S/Inputs/clickip.py check ARPQuerierClick %t/in.pcap %t/c0.pcap | FileCheck %s --check-prefix=REF
c :: Classifier(12/0806, 12/0800);
arpq :: ARPQuerier(18.26.4.24, 00:00:C0:AE:67:EF, CAPACITY 4, ENTRY_CAPACITY 2,
                   ENTRY_PACKET_CAPACITY 3, TIMEOUT 2, POLL_TIMEOUT 1,
                   BROADCAST_POLL true, NOUTPUTS 1);
FromDevice(0) -> c;
c[0] -> [1]arpq;
c[1] -> Strip(14) -> GetIPAddress(16) -> arpq -> ToDevice(0);
// CHECK: arpq{{ +}}ARPQuerier{{ +}}52{{ +}}26{{ +}}40
// CHECK-NOT: Discard:arpq
// REF: ok output 0: 26 packets
