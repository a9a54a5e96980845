// elementclass: a compound graph per distinct argument list, named after
// the class (`Name@2` for the second), with boundary port arrays
// `in input[n]` and `out output[m]` sized by the uses of `input` and
// `output` inside; formals ($n) are substituted into the configurations as
// Click does; classes are scoped (Inner is visible only inside Outer) and
// `elementclass A B` makes a synonym. Flattened, the instances are named
// as Click names them (`outer/inner`).
// RUN: npcc %s --target=ast | FileCheck %s
// RUN: npcc %s --target=mlir --flatten | FileCheck %s --check-prefix=FLAT

elementclass StripCount { $n |
  input -> Strip($n) -> Counter -> output;
}
elementclass Split {
  input -> c :: Classifier(12/0800, -);
  c[0] -> [0]output;
  c[1] -> [1]output;
}
elementclass Outer { $color |
  elementclass Inner { $c | input -> Paint($c) -> output }
  input -> Inner($color) -> output;
}
elementclass Sink ToDevice

src :: FromDevice(0);
src -> sp :: Split;
sp[0] -> StripCount(14) -> Outer(2) -> Sink(0);
sp[1] -> StripCount(14) -> StripCount(0x10) -> Sink(1);

// CHECK-LABEL: Graph Split() @14:14
// CHECK-NEXT: Port in input[1]: pkt @14:14
// CHECK-NEXT: Port out output[2]: pkt @14:14
// CHECK-NEXT: Instance c = Classifier("12/0800", "-") @15:12
// CHECK-NEXT: Connect input[0] -> c.i @15:9
// CHECK-NEXT: Connect c.o[0] -> output[0] @16:8
// CHECK-NEXT: Connect c.o[1] -> output[1] @17:8
// CHECK-LABEL: Graph StripCount() @11:14
// CHECK: Instance Strip@1 = Strip(14)
// CHECK-LABEL: Graph Inner() @20:16
// CHECK: Instance Paint@1 = Paint(2)
// CHECK-LABEL: Graph Outer() @19:14
// CHECK: Instance Inner@1 = Inner()
// CHECK-LABEL: Graph StripCount@2() @11:14
// CHECK: Instance Strip@1 = Strip(16)
// CHECK-LABEL: Graph elementclass() @1:1
// CHECK-NEXT: Instance src = FromDevice(0) @25:1
// CHECK-NEXT: Instance sp = Split() @26:8
// CHECK-NEXT: Instance StripCount@3 = StripCount() @27:10
// CHECK-NEXT: Instance Outer@4 = Outer() @27:28
// CHECK-NEXT: Instance Sink@5 = ToDevice(0) @27:40
// CHECK-NEXT: Instance StripCount@6 = StripCount() @28:10
// CHECK-NEXT: Instance StripCount@7 = StripCount@2() @28:28
// CHECK-NEXT: Instance Sink@8 = ToDevice(1) @28:48
// CHECK-NEXT: Connect src.o -> sp.input[0] @26:5
// CHECK-NEXT: Connect sp.output[0] -> StripCount@3.input[0] @27:7

// FLAT-DAG: np.instance @"sp/c" of @Classifier
// FLAT-DAG: np.instance @"StripCount@3/Strip@1" of @Strip {args = [14]}
// FLAT-DAG: np.instance @"Outer@4/Inner@1/Paint@1" of @Paint {args = [2]}
// FLAT-DAG: np.instance @"StripCount@7/Strip@1" of @Strip_1 {args = [16]}
// FLAT-DAG: np.connect @"Outer@4/Inner@1/Paint@1"::@o to @"Sink@5"::@i

// Every packet reaches a device, on the C target and the interpreter
// alike; the counters inside the compounds count.
// RUN: npgen -o %t.in.pcap --count 40 --seed 5 --mix ipv4=1,arp=1 --quiet
// RUN: npcc %s --target=c -o %t.exe
// RUN: %t.exe --in %t.in.pcap --out %t.c0.pcap --out %t.c1.pcap | FileCheck %s --check-prefix=STATS
// RUN: npcc %s --target=interp --in %t.in.pcap --out %t.i0.pcap --out %t.i1.pcap --quiet
// RUN: cmp %t.c0.pcap %t.i0.pcap
// RUN: cmp %t.c1.pcap %t.i1.pcap
// STATS-DAG: {{^}}StripCount@3/Counter@2{{ +}}Counter{{ +}}[[V4:[1-9][0-9]*]]{{ +}}[[V4]]{{ +}}0
// STATS-DAG: {{^}}StripCount@7/Counter@2{{ +}}Counter{{ +}}[[ARP:[1-9][0-9]*]]{{ +}}[[ARP]]{{ +}}0
// STATS-DAG: pool: 40 allocated, 40 freed, 0 leaked
