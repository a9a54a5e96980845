// RUN: npcc-opt %s -split-input-file -np-flatten-graph | FileCheck %s

np.element @Src {
  np.port @out out : !np.pkt
  np.handler {}
}
np.element @Fwd {
  np.port @in in : !np.pkt
  np.port @out out : !np.pkt
  np.handler {}
}
np.element @Dst {
  np.port @in in : !np.pkt
  np.handler {}
}

// Two levels of compounds: Top instantiates Quad, which instantiates Pair
// twice. Stitched channels keep the outer depth and are lossy if either
// side is; default placements inherit the compound's.
np.graph @Pair {
  np.port @in in : !np.pkt
  np.port @out out : !np.pkt
  np.instance @a of @Fwd
  np.instance @b of @Fwd
  np.connect @in to @a::@in depth 0
  np.connect lossy @a::@out to @b::@in depth 4
  np.connect lossy @b::@out to @out depth 2
}
np.graph @Quad {
  np.port @in in : !np.pkt
  np.port @out out : !np.pkt
  np.instance @p1 of @Pair
  np.instance @p2 of @Pair {placement = "host"}
  np.connect @in to @p1::@in depth 1
  np.connect @p1::@out to @p2::@in depth 16
  np.connect @p2::@out to @out depth 1
}
np.graph @Top {
  np.instance @src of @Src
  np.instance @q of @Quad {placement = "fpga"}
  np.instance @dst of @Dst
  np.connect @src::@out to @q::@in depth 64
  np.connect @q::@out to @dst::@in depth 8
}

// CHECK-NOT: np.graph @Pair
// CHECK-NOT: np.graph @Quad
// CHECK-LABEL: np.graph @Top attributes {top} {
// CHECK-DAG: np.instance @src of @Src{{$}}
// CHECK-DAG: np.instance @"q/p1/a" of @Fwd {placement = "fpga"}
// CHECK-DAG: np.instance @"q/p1/b" of @Fwd {placement = "fpga"}
// CHECK-DAG: np.instance @"q/p2/a" of @Fwd {placement = "host"}
// CHECK-DAG: np.instance @"q/p2/b" of @Fwd {placement = "host"}
// CHECK-DAG: np.instance @dst of @Dst{{$}}
// CHECK-DAG: np.connect @src::@out to @"q/p1/a"::@in depth 64{{$}}
// CHECK-DAG: np.connect lossy @"q/p1/a"::@out to @"q/p1/b"::@in depth 4{{$}}
// CHECK-DAG: np.connect lossy @"q/p1/b"::@out to @"q/p2/a"::@in depth 16{{$}}
// CHECK-DAG: np.connect lossy @"q/p2/a"::@out to @"q/p2/b"::@in depth 4{{$}}
// CHECK-DAG: np.connect lossy @"q/p2/b"::@out to @dst::@in depth 8{{$}}
// CHECK-NOT: np.instance
// CHECK-NOT: np.connect
// CHECK: }
// CHECK-NOT: np.graph

// -----

np.element @Src {
  np.port @out out : !np.pkt
  np.handler {}
}
np.element @Dst {
  np.port @in in : !np.pkt
  np.handler {}
}

// A boundary input wired straight to a boundary output: the two outer
// connections become one channel with the larger depth.
np.graph @Wire {
  np.port @in in : !np.pkt
  np.port @out out : !np.pkt
  np.connect @in to @out depth 3
}
np.graph @Top {
  np.instance @src of @Src
  np.instance @w of @Wire
  np.instance @dst of @Dst
  np.connect @src::@out to @w::@in depth 2
  np.connect lossy @w::@out to @dst::@in depth 5
}

// CHECK-NOT: np.graph @Wire
// CHECK-LABEL: np.graph @Top attributes {top} {
// CHECK-NEXT: np.instance @src of @Src
// CHECK-NEXT: np.instance @dst of @Dst
// CHECK-NEXT: np.connect lossy @src::@out to @dst::@in depth 5
// CHECK-NEXT: }

// -----

np.element @Fwd {
  np.port @in in : !np.pkt
  np.port @out out : !np.pkt
  np.handler {}
}

// The top graph's own boundary ports stay; connections to the compound's
// boundary are stitched to them.
np.graph @Inner {
  np.port @in in : !np.pkt
  np.port @out out : !np.pkt
  np.instance @f of @Fwd {placement = "fpga"}
  np.connect @in to @f::@in depth 0
  np.connect @f::@out to @out depth 0
}
np.graph @Outer {
  np.port @rx in : !np.pkt
  np.port @tx out : !np.pkt
  np.instance @i of @Inner {placement = "host"}
  np.connect @rx to @i::@in depth 32
  np.connect @i::@out to @tx depth 0
}

// CHECK-LABEL: np.graph @Outer attributes {top} {
// CHECK-NEXT: np.port @rx in : !np.pkt
// CHECK-NEXT: np.port @tx out : !np.pkt
// CHECK-NEXT: np.instance @"i/f" of @Fwd {placement = "fpga"}
// CHECK-NEXT: np.connect @rx to @"i/f"::@in depth 32
// CHECK-NEXT: np.connect @"i/f"::@out to @tx depth 0
// CHECK-NEXT: }

// -----

np.element @Loop {
  np.port @in in : !np.pkt
  np.port @out out : !np.pkt
  np.handler {}
}

// The graph marked `top` wins over other graphs no graph instantiates;
// those are erased.
np.graph @Other {
  np.instance @l of @Loop
  np.connect @l::@out to @l::@in depth 1
}
np.graph @Main attributes {top} {
  np.instance @l of @Loop
  np.connect @l::@out to @l::@in depth 1
}

// CHECK-NOT: np.graph @Other
// CHECK-LABEL: np.graph @Main attributes {top} {
// CHECK-NOT: np.graph @Other

// -----

// A module without graphs is left alone.
// CHECK-LABEL: np.element @Lonely
np.element @Lonely {
  np.handler {}
}
