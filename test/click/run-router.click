// A Click configuration and its hand-written NPL equivalent
// (Inputs/run-router.np) give the same bytes on both output devices, on
// the C target and on the reference interpreter: IPv4 frames have their
// TTL decremented (expired ones and too-long ones are dropped through the
// unconnected outputs), ARP frames are painted and stripped, the rest is
// re-encapsulated.
// RUN: npgen -o %t.in.pcap --count 200 --seed 7 --mix ipv4=6,arp=2,ipv6=1,other=1 --size-mix 64:3,200:1 --ttl-mix 1:1,64:4 --quiet
// RUN: npcc %s --target=c -o %t.click.exe
// RUN: npcc %S/Inputs/run-router.np --target=c -o %t.np.exe
// RUN: %t.click.exe --in %t.in.pcap --out %t.c0.pcap --out %t.c1.pcap | FileCheck %s
// RUN: %t.np.exe --in %t.in.pcap --out %t.n0.pcap --out %t.n1.pcap --quiet
// RUN: npcc %s --target=interp --in %t.in.pcap --out %t.i0.pcap --out %t.i1.pcap --quiet
// RUN: cmp %t.c0.pcap %t.n0.pcap
// RUN: cmp %t.c1.pcap %t.n1.pcap
// RUN: cmp %t.c0.pcap %t.i0.pcap
// RUN: cmp %t.c1.pcap %t.i1.pcap

define($ETH 00:00:c0:ae:67:ef)

src :: FromDevice(0);
cl :: Classifier(12/0800, 12/0806, -);
src -> Counter -> cl;
cl[0] -> CheckLength(150) -> Strip(14) -> ttl :: DecIPTTL -> Unstrip(14)
      -> ToDevice(0);
cl[1] -> Paint(5) -> Strip(14) -> EtherEncap(0x0806, $ETH, ff:ff:ff:ff:ff:ff)
      -> out1 :: ToDevice(1);
cl[2] -> Strip(14) -> EtherEncap(0x88b5, $ETH, DST 1:2:3:4:5:6) -> out1;

// Output 1 of CheckLength and DecIPTTL is not connected: as in Click, the
// element has one output and drops (and counts) what would go to output 1.
// CHECK-DAG: {{^}}CheckLength@4{{ +}}CheckLength{{ +}}120{{ +}}89{{ +}}31
// CHECK-DAG: {{^}}ttl{{ +}}DecIPTTL{{ +}}89{{ +}}68{{ +}}21
// CHECK-DAG: {{^}}Merge:out1[0]{{ +}}Merge
