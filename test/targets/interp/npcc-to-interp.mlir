// RUN: npcc-opt %s -split-input-file --npcc-to-interp -verify-diagnostics | FileCheck %s
// RUN: npcc-opt %s -split-input-file --npcc-to-interp | npcc-opt -split-input-file | FileCheck %s

// npcc-to-interp: the np dialect `npcc --target=interp` runs. The graph is
// flattened (the compound @Pair becomes the instances "pair/a" and
// "pair/b"), every instance gets an element of its own ("Count.pair/b"),
// channels are checked, handlers reach their state through !np.self, and
// the top graph becomes an np.program table. Unlike npcc-to-c, channels are
// not fused: every send stays an np.send and no row is marked fused.
np.element @Src {
  np.port @out out : !np.pkt
  np.handler {}
}
np.element @Count {
  np.port @in in : !np.pkt
  np.port @out out : !np.pkt
  np.state @n : memref<1xi64> = dense<0>
  np.handler {
    %p = np.recv @in : !np.pkt
    %m = np.state_ref @n : memref<1xi64>
    np.send @out, %p : !np.pkt
  }
}
np.element @Dst {
  np.port @in in : !np.pkt
  np.handler {}
}
np.graph @Pair {
  np.port @in in : !np.pkt
  np.port @out out : !np.pkt
  np.instance @a of @Count
  np.instance @b of @Count
  np.connect @in to @a::@in depth 0
  np.connect @a::@out to @b::@in depth 0
  np.connect @b::@out to @out depth 0
}
np.graph @Top attributes {top} {
  np.instance @src of @Src
  np.instance @pair of @Pair
  np.instance @dst of @Dst
  np.connect @src::@out to @pair::@in depth 32
  np.connect @pair::@out to @dst::@in depth 0
}
// CHECK-LABEL: np.element @Count {
// CHECK: np.handler {
// CHECK-NEXT: ^bb0(%[[SELF:.*]]: !np.self):
// CHECK-NEXT: np.recv @in
// CHECK-NEXT: np.state_field %[[SELF]] @n : memref<1xi64>
// CHECK-NEXT: np.send @out
// CHECK-LABEL: np.element @"Count.pair/b" attributes {origin = "Count"}
// CHECK: np.send @out
// CHECK-LABEL: np.program @Top elements [@Src, @Count, @"Count.pair/b", @Dst]
// CHECK-SAME: names ["src", "pair/a", "pair/b", "dst"]
// CHECK-SAME: channels [array<i64: 1, 0, 2, 0, 0, 0, 0>, array<i64: 0, 0, 1, 0, 32, 0, 0>, array<i64: 2, 0, 3, 0, 0, 0, 0>]
// CHECK-NOT: np.graph
// CHECK-NOT: np.state_ref

// -----

// The channel check runs before the table is made: a channel shallower
// than what its producer sends per run is reported.
np.element @Burst {
  np.port @o out : i32
  np.handler {
    %c = arith.constant 1 : i32
    np.send @o, %c : i32
    np.send @o, %c : i32
  }
}
np.element @Sink {
  np.port @i in : i32
  np.handler {
    %v = np.recv @i : i32
  }
}
np.graph @Shallow attributes {top} {
  np.instance @b of @Burst
  np.instance @s of @Sink
  // expected-warning @+1 {{'b' may send 2 values on 'o' per run, but channel 'b.o' -> 's.i' has depth 1; inferred depth 2 [-Wchannel-depth]}}
  np.connect @b::@o to @s::@i depth 1
}
// CHECK-LABEL: np.program @Shallow elements [@Burst, @Sink]
// CHECK-SAME: channels [array<i64: 0, 0, 1, 0, 1, 0, 0>] {np.inferred_depths = array<i64: 2>}
