// RUN: npcc-opt %s -split-input-file -np-fuse | FileCheck %s
// RUN: npcc-opt %s -split-input-file -np-fuse | npcc-opt -split-input-file | FileCheck %s

// A chain: every channel is fused. Each consumer gets a push body (its
// handler with the receive replaced by the argument), placed after the
// handler, and every send on a fused port, in every body, calls it.

// CHECK-LABEL: np.graph @Chain
// CHECK: np.connect fused @src::@o to @a::@i depth 64
// CHECK: np.connect fused @a::@o to @b::@i depth 64
// CHECK: np.connect fused @b::@o to @sink::@i depth 0
// CHECK-LABEL: np.element @Src
// CHECK: %[[P:.+]] = np.device_recv
// CHECK: np.fused_send @o, %[[P]] to @A::@i : !np.pkt
// CHECK-NOT: np.send
// CHECK-LABEL: np.element @A
// CHECK: np.handler {
// CHECK: %[[Q:.+]] = np.recv @i : !np.pkt
// CHECK: np.state_field
// CHECK: np.fused_send @o, %[[Q]] to @B::@i : !np.pkt
// CHECK: np.push @i {
// CHECK-NEXT: ^bb0(%[[SELF:.+]]: !np.self, %[[V:.+]]: !np.pkt):
// CHECK-NOT: np.recv
// CHECK: np.state_field %[[SELF]] @n
// CHECK: np.fused_send @o, %[[V]] to @B::@i : !np.pkt
// CHECK: np.timer
// CHECK: np.fused_send @o, %{{.+}} to @B::@i : !np.pkt
// CHECK-LABEL: np.element @B
// CHECK: np.push @i {
// CHECK: np.fused_send @o, %{{.+}} to @Sink::@i : !np.pkt
// CHECK-LABEL: np.element @Sink
// CHECK: np.push @i {
// CHECK-NEXT: ^bb0(%{{.+}}: !np.self, %[[W:.+]]: !np.pkt):
// CHECK: np.device_send %{{.+}}, %[[W]]
np.graph @Chain attributes {top} {
  np.instance @src of @Src
  np.instance @a of @A
  np.instance @b of @B
  np.instance @sink of @Sink
  np.connect @src::@o to @a::@i depth 64
  np.connect @a::@o to @b::@i depth 64
  np.connect @b::@o to @sink::@i depth 0
}
np.element @Src {
  np.port @o out : !np.pkt
  np.handler {
  ^bb0(%self: !np.self):
    %dev = arith.constant 0 : i32
    %p = np.device_recv %dev
    np.send @o, %p : !np.pkt
  }
}
np.element @A {
  np.port @i in : !np.pkt
  np.port @o out : !np.pkt
  np.state @n : memref<1xi64> = dense<0>
  np.handler {
  ^bb0(%self: !np.self):
    %p = np.recv @i : !np.pkt
    %m = np.state_field %self @n : memref<1xi64>
    np.send @o, %p : !np.pkt
  }
  np.timer attributes {period = 1000 : i64} {
  ^bb0(%self: !np.self):
    %len = arith.constant 60 : i32
    %p = np.pkt_new %len : i32
    np.send @o, %p : !np.pkt
  }
}
np.element @B {
  np.port @i in : !np.pkt
  np.port @o out : !np.pkt
  np.handler {
  ^bb0(%self: !np.self):
    %p = np.recv @i : !np.pkt
    np.send @o, %p : !np.pkt
  }
}
np.element @Sink {
  np.port @i in : !np.pkt
  np.handler {
  ^bb0(%self: !np.self):
    %dev = arith.constant 0 : i32
    %p = np.recv @i : !np.pkt
    np.device_send %dev, %p
  }
}

// -----

// Fan-out: each output of a Tee calls its own consumer. An integer port
// of odd width hands its value over as it is; a body before
// np-make-state-explicit (no !np.self) works as well.

// CHECK-LABEL: np.graph @FanOut
// CHECK: np.connect fused @src::@o to @t::@i depth 64
// CHECK: np.connect fused @t::@o0 to @x::@i depth 64
// CHECK: np.connect fused @t::@o1 to @y::@i depth 64
// CHECK: np.connect fused @y::@o to @n::@i depth 4
// CHECK-LABEL: np.element @Tee
// CHECK: np.push @i {
// CHECK: np.fused_send @o0, %{{.+}} to @X::@i : !np.pkt
// CHECK: np.fused_send @o1, %{{.+}} to @Y::@i : !np.pkt
// CHECK-LABEL: np.element @Y
// CHECK: np.fused_send @o, %{{.+}} to @N::@i : i13
// CHECK-LABEL: np.element @N
// CHECK: np.push @i {
// CHECK-NEXT: ^bb0(%[[V:.+]]: i13):
// CHECK: arith.addi %[[V]]
np.graph @FanOut attributes {top} {
  np.instance @src of @Src
  np.instance @t of @Tee
  np.instance @x of @X
  np.instance @y of @Y
  np.instance @n of @N
  np.connect @src::@o to @t::@i depth 64
  np.connect @t::@o0 to @x::@i depth 64
  np.connect @t::@o1 to @y::@i depth 64
  np.connect @y::@o to @n::@i depth 4
}
np.element @Src {
  np.port @o out : !np.pkt
  np.handler {
    %dev = arith.constant 0 : i32
    %p = np.device_recv %dev
    np.send @o, %p : !np.pkt
  }
}
np.element @Tee {
  np.port @i in : !np.pkt
  np.port @o0 out : !np.pkt
  np.port @o1 out : !np.pkt
  np.handler {
    %p = np.recv @i : !np.pkt
    %q = np.clone %p
    np.send @o0, %p : !np.pkt
    np.send @o1, %q : !np.pkt
  }
}
np.element @X {
  np.port @i in : !np.pkt
  np.handler {
    %p = np.recv @i : !np.pkt
    np.drop %p
  }
}
np.element @Y {
  np.port @i in : !np.pkt
  np.port @o out : i13
  np.handler {
    %p = np.recv @i : !np.pkt
    %c = arith.constant 5 : i13
    np.drop %p
    np.send @o, %c : i13
  }
}
np.element @N {
  np.port @i in : i13
  np.handler {
    %v = np.recv @i : i13
    %w = arith.addi %v, %v : i13
  }
}

// -----

// A lossy channel keeps dropping when full: never fused. Its producer is
// still pushed to (the settle rule looks at lossless outputs only). A
// channel between placements stays a channel too.

// CHECK-LABEL: np.graph @Lossy
// CHECK: np.connect fused @src::@o to @a::@i depth 64
// CHECK: np.connect lossy @a::@o to @b::@i depth 8
// CHECK: np.connect @b::@o to @f::@i depth 64
// CHECK: np.connect fused @f::@o to @sink::@i depth 64
// CHECK-LABEL: np.element @A
// CHECK: np.push @i
// CHECK: np.send @o
// CHECK-NOT: np.fused_send
// CHECK-LABEL: np.element @B
// CHECK-NOT: np.push
// CHECK: np.send @o
// CHECK-LABEL: np.element @F
// CHECK-NOT: np.push
// CHECK: np.fused_send @o, %{{.+}} to @Sink::@i
// CHECK-LABEL: np.element @Sink
// CHECK: np.push @i
np.graph @Lossy attributes {top} {
  np.instance @src of @Src
  np.instance @a of @A
  np.instance @b of @B
  np.instance @f of @F {placement = "fpga"}
  np.instance @sink of @Sink {placement = "fpga"}
  np.connect @src::@o to @a::@i depth 64
  np.connect lossy @a::@o to @b::@i depth 8
  np.connect @b::@o to @f::@i depth 64
  np.connect @f::@o to @sink::@i depth 64
}
np.element @Src {
  np.port @o out : !np.pkt
  np.handler {
    %dev = arith.constant 0 : i32
    %p = np.device_recv %dev
    np.send @o, %p : !np.pkt
  }
}
np.element @A {
  np.port @i in : !np.pkt
  np.port @o out : !np.pkt
  np.handler {
    %p = np.recv @i : !np.pkt
    np.send @o, %p : !np.pkt
  }
}
np.element @B {
  np.port @i in : !np.pkt
  np.port @o out : !np.pkt
  np.handler {
    %p = np.recv @i : !np.pkt
    np.send @o, %p : !np.pkt
  }
}
np.element @F {
  np.port @i in : !np.pkt
  np.port @o out : !np.pkt
  np.handler {
    %p = np.recv @i : !np.pkt
    np.send @o, %p : !np.pkt
  }
}
np.element @Sink {
  np.port @i in : !np.pkt
  np.handler {
    %p = np.recv @i : !np.pkt
    np.drop %p
  }
}

// -----

// Cycles stay channels: connections are fused in order unless the fused
// ones before already lead back, so of a -> b -> a the first is fused and
// the second is not; a loop on one instance is never fused.

// CHECK-LABEL: np.graph @Cycle
// CHECK: np.connect fused @a::@o to @b::@i depth 1
// CHECK: np.connect @b::@o to @a::@i depth 1
// CHECK: np.connect @c::@o to @c::@i depth 1
// CHECK-LABEL: np.element @A
// CHECK-NOT: np.push
// CHECK: np.fused_send @o, %{{.+}} to @B::@i
// CHECK-LABEL: np.element @B
// CHECK: np.push @i
// CHECK-NOT: np.fused_send
// CHECK-LABEL: np.element @C
// CHECK-NOT: np.push
// CHECK-NOT: np.fused_send
np.graph @Cycle attributes {top} {
  np.instance @a of @A
  np.instance @b of @B
  np.instance @c of @C
  np.connect @a::@o to @b::@i depth 1
  np.connect @b::@o to @a::@i depth 1
  np.connect @c::@o to @c::@i depth 1
}
np.element @A {
  np.port @i in : i32
  np.port @o out : i32
  np.handler {
    %v = np.recv @i : i32
    np.send @o, %v : i32
  }
}
np.element @B {
  np.port @i in : i32
  np.port @o out : i32
  np.handler {
    %v = np.recv @i : i32
    np.send @o, %v : i32
  }
}
np.element @C {
  np.port @i in : i32
  np.port @o out : i32
  np.handler {
    %v = np.recv @i : i32
    np.send @o, %v : i32
  }
}

// -----

// A consumer that starts with np.select (Merge) gets a push body per port:
// the select's answer for a value on that port (its position) folds the
// handler down to a plain receive from it.

// CHECK-LABEL: np.graph @Select
// CHECK: np.connect fused @s1::@o to @m::@a depth 64
// CHECK: np.connect fused @s2::@o to @m::@b depth 64
// CHECK: np.connect fused @m::@o to @sink::@i depth 64
// CHECK-LABEL: np.element @Src
// CHECK: np.fused_send @o, %{{.+}} to @Merge::@a
// CHECK-LABEL: np.element @Src2
// CHECK: np.fused_send @o, %{{.+}} to @Merge::@b
// CHECK-LABEL: np.element @Merge
// CHECK: np.handler {
// CHECK: np.select [@a, @b]
// CHECK: np.push @b {
// CHECK-NEXT: ^bb0([[B:%.+]]: !np.pkt):
// CHECK-NEXT: np.fused_send @o, [[B]] to @Sink::@i
// CHECK-NEXT: }
// CHECK: np.push @a {
// CHECK-NEXT: ^bb0([[A:%.+]]: !np.pkt):
// CHECK-NEXT: np.fused_send @o, [[A]] to @Sink::@i
// CHECK-NEXT: }
np.graph @Select attributes {top} {
  np.instance @s1 of @Src
  np.instance @s2 of @Src2
  np.instance @m of @Merge
  np.instance @sink of @Sink
  np.connect @s1::@o to @m::@a depth 64
  np.connect @s2::@o to @m::@b depth 64
  np.connect @m::@o to @sink::@i depth 64
}
np.element @Src {
  np.port @o out : !np.pkt
  np.handler {
    %dev = arith.constant 0 : i32
    %p = np.device_recv %dev
    np.send @o, %p : !np.pkt
  }
}
np.element @Src2 {
  np.port @o out : !np.pkt
  np.handler {
    %dev = arith.constant 1 : i32
    %p = np.device_recv %dev
    np.send @o, %p : !np.pkt
  }
}
np.element @Merge {
  np.port @a in : !np.pkt
  np.port @b in : !np.pkt
  np.port @o out : !np.pkt
  np.handler {
    %k = np.select [@a, @b]
    %c0 = arith.constant 0 : i32
    %is_a = arith.cmpi eq, %k, %c0 : i32
    scf.if %is_a {
      %p = np.recv @a : !np.pkt
      np.send @o, %p : !np.pkt
    } else {
      %p = np.recv @b : !np.pkt
      np.send @o, %p : !np.pkt
    }
  }
}
np.element @Sink {
  np.port @i in : !np.pkt
  np.handler {
    %p = np.recv @i : !np.pkt
    np.drop %p
  }
}

// -----

// A select whose answer does not decide which port is received from (here
// a local flag does) leaves no plain receive to replace: the channels into
// it stay channels, served by the runtime's pushed calls.

// CHECK-LABEL: np.graph @Undecided
// CHECK: np.connect @s1::@o to @m::@a depth 64
// CHECK: np.connect @s2::@o to @m::@b depth 64
// CHECK: np.connect fused @m::@o to @sink::@i depth 64
// CHECK-LABEL: np.element @Flagged
// CHECK-NOT: np.push
// CHECK: np.fused_send @o, %{{.+}} to @Sink::@i
// CHECK-NOT: np.push
// CHECK-LABEL: np.element @Sink
// CHECK: np.push @i
np.graph @Undecided attributes {top} {
  np.instance @s1 of @Src
  np.instance @s2 of @Src2
  np.instance @m of @Flagged
  np.instance @sink of @Sink
  np.connect @s1::@o to @m::@a depth 64
  np.connect @s2::@o to @m::@b depth 64
  np.connect @m::@o to @sink::@i depth 64
}
np.element @Src {
  np.port @o out : !np.pkt
  np.handler {
    %dev = arith.constant 0 : i32
    %p = np.device_recv %dev
    np.send @o, %p : !np.pkt
  }
}
np.element @Src2 {
  np.port @o out : !np.pkt
  np.handler {
    %dev = arith.constant 1 : i32
    %p = np.device_recv %dev
    np.send @o, %p : !np.pkt
  }
}
np.element @Flagged {
  np.port @a in : !np.pkt
  np.port @b in : !np.pkt
  np.port @o out : !np.pkt
  np.handler {
    %flag = memref.alloca() : memref<i1>
    %k = np.select [@a, @b]
    %f = memref.load %flag[] : memref<i1>
    scf.if %f {
      %p = np.recv @a : !np.pkt
      np.send @o, %p : !np.pkt
    } else {
      %p = np.recv @b : !np.pkt
      np.send @o, %p : !np.pkt
    }
  }
}
np.element @Sink {
  np.port @i in : !np.pkt
  np.handler {
    %p = np.recv @i : !np.pkt
    np.drop %p
  }
}

// -----

// An element in front of a queue that is not pushed to (its handler
// receives twice) may wait there for long: it stays a thread of its own,
// so neither channel around it is fused. Behind the queue, and in front
// of a lossy channel into another one, calls are fine.

// CHECK-LABEL: np.graph @Queue
// CHECK: np.connect @src::@o to @x::@i depth 64
// CHECK: np.connect @x::@o to @q::@i depth 64
// CHECK: np.connect fused @q::@o to @sink::@i depth 64
// CHECK: np.connect fused @src2::@o to @y::@i depth 64
// CHECK: np.connect lossy @y::@o to @q2::@i depth 64
// CHECK: np.connect fused @q2::@o to @sink2::@i depth 64
// CHECK-LABEL: np.element @X
// CHECK-NOT: np.push
// CHECK: np.send @o
// CHECK-LABEL: np.element @Y
// CHECK: np.push @i
np.graph @Queue attributes {top} {
  np.instance @src of @Src
  np.instance @x of @X
  np.instance @q of @Q
  np.instance @sink of @Sink
  np.instance @src2 of @Src2
  np.instance @y of @Y
  np.instance @q2 of @Q2
  np.instance @sink2 of @Sink2
  np.connect @src::@o to @x::@i depth 64
  np.connect @x::@o to @q::@i depth 64
  np.connect @q::@o to @sink::@i depth 64
  np.connect @src2::@o to @y::@i depth 64
  np.connect lossy @y::@o to @q2::@i depth 64
  np.connect @q2::@o to @sink2::@i depth 64
}
np.element @Src {
  np.port @o out : !np.pkt
  np.handler {
    %dev = arith.constant 0 : i32
    %p = np.device_recv %dev
    np.send @o, %p : !np.pkt
  }
}
np.element @Src2 {
  np.port @o out : !np.pkt
  np.handler {
    %dev = arith.constant 1 : i32
    %p = np.device_recv %dev
    np.send @o, %p : !np.pkt
  }
}
np.element @X {
  np.port @i in : !np.pkt
  np.port @o out : !np.pkt
  np.handler {
    %p = np.recv @i : !np.pkt
    np.send @o, %p : !np.pkt
  }
}
np.element @Y {
  np.port @i in : !np.pkt
  np.port @o out : !np.pkt
  np.handler {
    %p = np.recv @i : !np.pkt
    np.send @o, %p : !np.pkt
  }
}
np.element @Q {
  np.port @i in : !np.pkt
  np.port @o out : !np.pkt
  np.handler {
    %p = np.recv @i : !np.pkt
    %q = np.recv @i : !np.pkt
    np.send @o, %p : !np.pkt
    np.send @o, %q : !np.pkt
  }
}
np.element @Q2 {
  np.port @i in : !np.pkt
  np.port @o out : !np.pkt
  np.handler {
    %p = np.recv @i : !np.pkt
    %q = np.recv @i : !np.pkt
    np.send @o, %p : !np.pkt
    np.send @o, %q : !np.pkt
  }
}
np.element @Sink {
  np.port @i in : !np.pkt
  np.handler {
    %p = np.recv @i : !np.pkt
    np.drop %p
  }
}
np.element @Sink2 {
  np.port @i in : !np.pkt
  np.handler {
    %p = np.recv @i : !np.pkt
    np.drop %p
  }
}

// -----

// Before np-instantiate-elements an element may serve two instances; a
// call could not say which: nothing is fused.

// CHECK-LABEL: np.graph @Shared
// CHECK-NOT: fused
np.graph @Shared attributes {top} {
  np.instance @s1 of @Src
  np.instance @s2 of @Src
  np.instance @a of @Sink
  np.instance @b of @Sink
  np.connect @s1::@o to @a::@i depth 64
  np.connect @s2::@o to @b::@i depth 64
}
np.element @Src {
  np.port @o out : !np.pkt
  np.handler {
    %dev = arith.constant 0 : i32
    %p = np.device_recv %dev
    np.send @o, %p : !np.pkt
  }
}
np.element @Sink {
  np.port @i in : !np.pkt
  np.handler {
    %p = np.recv @i : !np.pkt
    np.drop %p
  }
}
