// RUN: npcc-opt %s --npcc-flatten | FileCheck %s

// The flatten pipeline is np-flatten-graph alone: a compound instance is
// replaced by the instances inside it (`outer/inner`), the channels across
// its boundary are stitched, and the compound graph is erased.
module {
  np.graph @Pair {
    np.port @in in : !np.pkt
    np.port @out out : !np.pkt
    np.instance @a of @Fwd
    np.instance @b of @Fwd
    np.connect @in to @a::@i depth 0
    np.connect @a::@o to @b::@i depth 4
    np.connect @b::@o to @out depth 0
  }
  np.graph @Top {
    np.instance @src of @Src
    np.instance @p of @Pair {placement = "fpga"}
    np.instance @dst of @Dst
    np.connect @src::@o to @p::@in depth 64
    np.connect lossy @p::@out to @dst::@i depth 8
  }
  np.element @Src {
    np.port @o out : !np.pkt
    np.handler {
      %c0 = arith.constant 0 : i32
      %0 = np.device_recv %c0
      np.send @o, %0 : !np.pkt
    }
  }
  np.element @Dst {
    np.port @i in : !np.pkt
    np.handler {
      %0 = np.recv @i : !np.pkt
      %c0 = arith.constant 0 : i32
      np.device_send %c0, %0
    }
  }
  np.element @Fwd {
    np.port @i in : !np.pkt
    np.port @o out : !np.pkt
    np.handler {
      %0 = np.recv @i : !np.pkt
      np.send @o, %0 : !np.pkt
    }
  }
}
// CHECK-NOT: np.graph @Pair
// CHECK-LABEL: np.graph @Top attributes {top}
// CHECK-NEXT: np.instance @src of @Src
// CHECK-NEXT: np.instance @"p/a" of @Fwd {placement = "fpga"}
// CHECK-NEXT: np.instance @"p/b" of @Fwd {placement = "fpga"}
// CHECK-NEXT: np.connect @"p/a"::@o to @"p/b"::@i depth 4
// CHECK-NEXT: np.instance @dst of @Dst
// CHECK-NEXT: np.connect @src::@o to @"p/a"::@i depth 64
// CHECK-NEXT: np.connect lossy @"p/b"::@o to @dst::@i depth 8
// CHECK-NEXT: }
// CHECK-NOT: np.graph @Pair
// CHECK-LABEL: np.element @Src
// CHECK-LABEL: np.element @Dst
// CHECK-LABEL: np.element @Fwd
