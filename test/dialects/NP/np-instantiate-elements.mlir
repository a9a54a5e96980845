// RUN: npcc-opt %s -split-input-file -np-instantiate-elements | FileCheck %s
// RUN: npcc-opt %s -split-input-file -np-instantiate-elements | npcc-opt -split-input-file | FileCheck %s

// Three instances of @Count get three elements, each with its own state;
// the first keeps the name, the others are named after their instance and
// remember where they came from. @Unused is erased.
np.element @Count attributes {origin = "Counter"} {
  np.port @i in : !np.pkt
  np.port @o out : !np.pkt
  np.state @n : memref<1xi64> = dense<0>
  np.handler {
    %p = np.recv @i : !np.pkt
    np.send @o, %p : !np.pkt
  }
}
np.element @Plain {
  np.port @i in : !np.pkt
  np.port @o out : !np.pkt
  np.handler {
    %p = np.recv @i : !np.pkt
    np.send @o, %p : !np.pkt
  }
}
np.element @Unused {
  np.handler {}
}
np.graph @G attributes {top} {
  np.instance @a of @Count
  np.instance @b of @Count {placement = "fpga"}
  np.instance @c of @Count
  np.instance @d of @Plain
  np.connect @a::@o to @b::@i depth 1
  np.connect @b::@o to @c::@i depth 1
  np.connect @c::@o to @d::@i depth 1
  np.connect @d::@o to @a::@i depth 1
}
// CHECK-LABEL: np.element @Count attributes {origin = "Counter"}
// CHECK: np.state @n
// CHECK-LABEL: np.element @Count.c attributes {origin = "Counter"}
// CHECK: np.state @n
// CHECK-LABEL: np.element @Count.b attributes {origin = "Counter"}
// CHECK: np.state @n
// CHECK-LABEL: np.element @Plain {
// CHECK-NOT: @Unused
// CHECK-LABEL: np.graph @G
// CHECK-NEXT: np.instance @a of @Count
// CHECK-NEXT: np.instance @b of @Count.b {placement = "fpga"}
// CHECK-NEXT: np.instance @c of @Count.c
// CHECK-NEXT: np.instance @d of @Plain

// -----

// A clone's name that is taken is made unique; an element without
// `origin` gives its own name to the clones.
np.element @E {
  np.handler {}
}
np.element @E.b {
  np.handler {}
}
np.graph @G attributes {top} {
  np.instance @a of @E
  np.instance @b of @E
  np.instance @x of @E.b
}
// CHECK-LABEL: np.element @E {
// CHECK: np.element @{{"?E.b_[0-9]+"?}} attributes {origin = "E"}
// CHECK: np.element @E.b {
// CHECK: np.instance @a of @E
// CHECK-NEXT: np.instance @b of @{{"?E.b_[0-9]+"?}}
// CHECK-NEXT: np.instance @x of @E.b
