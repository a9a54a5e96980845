// RUN: npcc-opt %s -split-input-file | npcc-opt -split-input-file | FileCheck %s
// RUN: npcc-opt %s -split-input-file --mlir-print-op-generic \
// RUN:   | npcc-opt -split-input-file | FileCheck %s

// CHECK-LABEL: np.element @Counter_0
// CHECK-SAME: attributes {origin = "Counter", params = {width = 64 : i64}}
// CHECK: np.port @in in : !np.pkt
// CHECK: np.port @out out : !np.pkt
// CHECK: np.port @ctl out : i32
// CHECK: np.state @count : memref<1xi64> = dense<0>
// CHECK: np.state @hits : memref<4xi32> merge "sum"
// CHECK: np.state @table : memref<4xi32>{{$}}
// CHECK: np.init {
// CHECK: np.handler {
// CHECK: %[[P:.+]] = np.recv @in : !np.pkt
// CHECK: np.send @out, %[[P]] : !np.pkt
// CHECK: np.signal {
// CHECK-NEXT: ^bb0(%[[MSG:.+]]: i64):
// CHECK: memref.store %[[MSG]]
np.element @Counter_0 attributes {origin = "Counter", params = {width = 64 : i64}} {
  np.port @in in : !np.pkt
  np.port @out out : !np.pkt
  np.port @ctl out : i32
  np.state @count : memref<1xi64> = dense<0>
  np.state @hits : memref<4xi32> merge "sum"
  np.state @table : memref<4xi32>
  np.init {
    %m = np.state_ref @table : memref<4xi32>
    %c0 = arith.constant 0 : index
    %v = arith.constant 7 : i32
    memref.store %v, %m[%c0] : memref<4xi32>
  }
  np.handler {
    %p = np.recv @in : !np.pkt
    np.send @out, %p : !np.pkt
  }
  np.signal {
  ^bb0(%msg: i64):
    %m = np.state_ref @count : memref<1xi64>
    %c0 = arith.constant 0 : index
    memref.store %msg, %m[%c0] : memref<1xi64>
  }
}

// -----

// Shared state: one copy for @Stamp and @Stamp_1 (source name "Stamp").
// CHECK-LABEL: np.element @Stamp
// CHECK: np.state @mine : memref<1xi32>{{$}}
// CHECK: np.state shared @next : memref<1xi16> = dense<1>
// CHECK: np.state shared @seen : memref<4xi8>{{$}}
// CHECK: np.state_ref @next : memref<1xi16>
// CHECK-LABEL: np.element @Stamp_1
// CHECK: np.state shared @next : memref<1xi16> = dense<1>
np.element @Stamp {
  np.state @mine : memref<1xi32>
  np.state shared @next : memref<1xi16> = dense<1>
  np.state shared @seen : memref<4xi8>
  np.handler {
    %m = np.state_ref @next : memref<1xi16>
  }
}
np.element @Stamp_1 attributes {origin = "Stamp"} {
  np.state shared @seen : memref<4xi8>
  np.state shared @next : memref<1xi16> = dense<1>
  np.handler {}
}

// -----

// CHECK-LABEL: np.element @Channels
// CHECK: %[[OK:.+]], %[[V:.+]] = np.try_recv @a : !np.pkt
// CHECK: %[[IDX:.+]] = np.select [@a, @b]
// CHECK: %[[N:.+]] = np.recv @b : i32
// CHECK: np.send @o, %[[V]] : !np.pkt
// CHECK: np.send @n, %[[N]] : i32
np.element @Channels {
  np.port @a in : !np.pkt
  np.port @b in : i32
  np.port @o out : !np.pkt
  np.port @n out : i32
  np.handler {
    %ok, %v = np.try_recv @a : !np.pkt
    %idx = np.select [@a, @b]
    %n = np.recv @b : i32
    np.send @o, %v : !np.pkt
    np.send @n, %n : i32
  }
}

// -----

// CHECK-LABEL: np.element @Packets
// CHECK: %[[P:.+]] = np.device_recv %[[DEV:.+]]
// CHECK: %[[LEN:.+]] = np.pkt_len %[[P]]
// CHECK: %[[T:.+]] = np.pkt_get %[[P]], %[[OFF:.+]] {field = "type", header = "eth", width = 16 : i32} : i16
// CHECK: np.pkt_set %[[P]], %[[OFF]], %[[T]] {width = 16 : i32} : i16
// CHECK: %[[PAINT:.+]] = np.meta_get %[[P]] "paint" : i32
// CHECK: np.meta_set %[[P]] "out_port", %[[PAINT]] : i32
// CHECK: %[[ANNO:.+]] = np.meta_get %[[P]] "anno" : i64
// CHECK: np.meta_set %[[P]] "anno", %[[ANNO]] : i64
// CHECK: %{{.+}} = np.pkt_pull %[[P]], %[[C14:.+]]
// CHECK: %{{.+}} = np.pkt_push %[[P]], %[[C14]]
// CHECK: np.pkt_truncate %[[P]], %[[LEN]]
// CHECK: %[[Q:.+]] = np.clone %[[P]]
// CHECK: %[[R:.+]] = np.pkt_new %[[LEN]] : i32
// CHECK: np.drop %[[Q]]
// CHECK: np.drop %[[R]]
// CHECK: np.device_send %[[DEV]], %[[P]]
np.element @Packets {
  np.handler {
    %dev = arith.constant 0 : i32
    %p = np.device_recv %dev
    %len = np.pkt_len %p
    %off = arith.constant 12 : i64
    %t = np.pkt_get %p, %off {width = 16 : i32, header = "eth", field = "type"} : i16
    np.pkt_set %p, %off, %t {width = 16 : i32} : i16
    %paint = np.meta_get %p "paint" : i32
    np.meta_set %p "out_port", %paint : i32
    %anno = np.meta_get %p "anno" : i64
    np.meta_set %p "anno", %anno : i64
    %c14 = arith.constant 14 : i32
    %ok1 = np.pkt_pull %p, %c14
    %ok2 = np.pkt_push %p, %c14
    np.pkt_truncate %p, %len
    %q = np.clone %p
    %r = np.pkt_new %len : i32
    np.drop %q
    np.drop %r
    np.device_send %dev, %p
  }
}

// -----

np.element @Fwd {
  np.port @in in : !np.pkt
  np.port @out out : !np.pkt
  np.handler {
    %p = np.recv @in : !np.pkt
    np.send @out, %p : !np.pkt
  }
}

// CHECK-LABEL: np.graph @Pair {
// CHECK: np.port @in in : !np.pkt
// CHECK: np.connect @in to @a::@in depth 0
// CHECK: np.connect @b::@out to @out depth 0
np.graph @Pair {
  np.port @in in : !np.pkt
  np.port @out out : !np.pkt
  np.instance @a of @Fwd
  np.instance @b of @Fwd
  np.connect @in to @a::@in depth 0
  np.connect @a::@out to @b::@in depth 4
  np.connect @b::@out to @out depth 0
}

// CHECK-LABEL: np.graph @Top attributes {top} {
// CHECK: np.instance @x of @Fwd
// CHECK-NOT: placement
// CHECK: np.instance @p of @Pair {args = [64, "eth0"], placement = "fpga"}
// CHECK: np.instance @y of @Fwd {placement = "host"}
// CHECK: np.connect @x::@out to @p::@in depth 64
// CHECK: np.connect lossy @p::@out to @y::@in depth 8
// CHECK: np.connect @y::@out to @x::@in depth 0
np.graph @Top attributes {top} {
  np.instance @x of @Fwd {placement = "npu"}
  np.instance @p of @Pair {args = [64, "eth0"], placement = "fpga"}
  np.instance @y of @Fwd {placement = "host"}
  np.connect @x::@out to @p::@in depth 64
  np.connect lossy @p::@out to @y::@in depth 8
  np.connect @y::@out to @x::@in depth 0
}

// -----

// The terminator is implicit in the custom form and explicit in the generic.
// CHECK-LABEL: np.element @ExplicitYield
// CHECK: np.handler {
// CHECK-NEXT: }
np.element @ExplicitYield {
  np.handler {
    np.yield
  }
}

// -----

// np.exit_loop_if sits directly in an scf.for.
// CHECK-LABEL: np.element @EarlyExit
// CHECK: scf.for
// CHECK-NEXT: np.exit_loop_if %{{.*}}
np.element @EarlyExit {
  np.handler {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c1 = arith.constant 1 : index
    %done = arith.constant false
    scf.for %i = %c0 to %c8 step %c1 {
      np.exit_loop_if %done
    }
  }
}

// -----

// A handler that is a receive and then its push body (c-convert-np-to-emitc).
// CHECK-LABEL: np.element @CallsPush
// CHECK: %[[P:.*]] = np.recv @i : !np.pkt
// CHECK-NEXT: np.call_push @i(%{{.*}}, %[[P]]) : !np.pkt
np.element @CallsPush {
  np.port @i in : !np.pkt
  np.handler {
  ^bb0(%self: !np.self):
    %p = np.recv @i : !np.pkt
    np.call_push @i(%self, %p) : !np.pkt
  }
  np.push @i {
  ^bb0(%self: !np.self, %p: !np.pkt):
    np.drop %p
  }
}
