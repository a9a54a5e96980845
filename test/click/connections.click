// Connections: chains, `[port]` on either side, element sets (`a, b ->
// c`), comments and semicolons; Click port numbers count the NPL
// element's ports in declaration order, port arrays flattened.
// RUN: npcc %s --target=ast | FileCheck %s

/* a block
   comment */ src :: FromDevice(0)
cl :: Classifier(12/0800, // IPv4
                 12/0806, -)
len :: CheckLength(60)
src -> cl
cl[0] -> [0]len;  cl[1] -> t :: Tee(3)
len[1] -> Discard
len [0] -> x :: Paint(1)
t[2] -> Discard; t[0], t[1] -> y :: Counter -> Discard;
cl[2] -> ToDevice(0) x -> ToDevice(1)

// CHECK-LABEL: Graph connections() @1:1
// CHECK-NEXT:   Instance src = FromDevice(0) @7:15
// CHECK-NEXT:   Instance cl = Classifier("12/0800", "12/0806", "-") @8:1
// CHECK-NEXT:   Instance len = CheckLength(60, 2) @10:1
// CHECK-NEXT:   Instance t = Tee(3) @12:28
// CHECK-NEXT:   Instance Discard@5 = Discard() @13:11
// CHECK-NEXT:   Instance x = Paint(1) @14:12
// CHECK-NEXT:   Instance Discard@7 = Discard() @15:9
// CHECK-NEXT:   Instance y = Counter() @15:32
// CHECK-NEXT:   Instance Discard@9 = Discard() @15:48
// CHECK-NEXT:   Instance ToDevice@10 = ToDevice(0) @16:10
// CHECK-NEXT:   Instance ToDevice@11 = ToDevice(1) @16:27
// CHECK-NEXT:   Instance Merge:y[0] = Merge(2) @15:32
// CHECK-NEXT:   Connect src.o -> cl.i @11:5
// CHECK-NEXT:   Connect cl.o[0] -> len.i @12:7
// CHECK-NEXT:   Connect cl.o[1] -> t.i @12:25
// CHECK-NEXT:   Connect len.o[1] -> Discard@5.i @13:8
// CHECK-NEXT:   Connect len.o[0] -> x.i @14:9
// CHECK-NEXT:   Connect t.o[2] -> Discard@7.i @15:6
// CHECK-NEXT:   Connect t.o[0] -> Merge:y[0].i[0] @15:29
// CHECK-NEXT:   Connect t.o[1] -> Merge:y[0].i[1] @15:29
// CHECK-NEXT:   Connect Merge:y[0].o -> y.i @15:32
// CHECK-NEXT:   Connect y.o -> Discard@9.i @15:45
// CHECK-NEXT:   Connect cl.o[2] -> ToDevice@10.i @16:7
// CHECK-NEXT:   Connect x.o -> ToDevice@11.i @16:24
