// RUN: npcc-opt %s -np-flatten-graph=top=Second | FileCheck %s

// The `top` option picks the top graph, even over one marked `top`.

np.element @Loop {
  np.port @in in : !np.pkt
  np.port @out out : !np.pkt
  np.handler {}
}
np.graph @First attributes {top} {
  np.instance @l of @Loop
  np.connect @l::@out to @l::@in depth 1
}
np.graph @Second {
  np.instance @l of @Loop
  np.connect @l::@out to @l::@in depth 1
}

// CHECK-NOT: np.graph @First
// CHECK-LABEL: np.graph @Second attributes {top} {
// CHECK-NOT: np.graph @First
