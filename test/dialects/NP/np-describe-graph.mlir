// RUN: npcc-opt %s -np-describe-graph | FileCheck %s
// RUN: npcc-opt %s -np-describe-graph | npcc-opt | FileCheck %s

// Instances in declaration order; ports numbered within their direction;
// each channel a row [src, src_port, dst, dst_port, depth, lossy, fused].
np.element @A {
  np.port @x in : i32
  np.port @p out : !np.pkt
  np.port @y out : i32
  np.handler {}
}
np.element @B {
  np.port @q in : !np.pkt
  np.port @r in : i32
  np.port @z out : i32
  np.handler {}
}
np.graph @Top attributes {top} {
  np.instance @a of @A {placement = "host"}
  np.instance @b of @B
  np.connect lossy @a::@p to @b::@q depth 8
  np.connect @a::@y to @b::@r depth 0
  np.connect @b::@z to @a::@x depth 2
}
// CHECK-LABEL: np.program @Top elements [@A, @B] names ["a", "b"] placements ["host", "npu"]
// CHECK-SAME: channels [array<i64: 0, 0, 1, 0, 8, 1, 0>, array<i64: 0, 1, 1, 1, 0, 0, 0>, array<i64: 1, 0, 0, 0, 2, 0, 0>]
// CHECK-NOT: np.graph
