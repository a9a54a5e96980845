// RUN: npcc-opt %s -np-check-synthesizable | FileCheck %s
// RUN: not npcc-opt %s -np-check-synthesizable=all-elements=true 2>&1 | FileCheck %s --check-prefix=ALL
// RUN: not npcc-opt %s -np-check-synthesizable="max-queued-packets=7 max-state-bytes=792" 2>&1 | FileCheck %s --check-prefix=LIMITS
// RUN: not npcc-opt %s -np-check-synthesizable="max-state-bytes=791" 2>&1 | FileCheck %s --check-prefix=STATE

// What the FPGA can run passes unchanged: constant and declared loop
// bounds, fixed-size local arrays, a packet queue and a table in state,
// new and cloned packets, devices, the clock.
// CHECK-LABEL: np.element @Fine
np.element @Fine {
  np.port @i in : !np.pkt
  np.port @o out : !np.pkt
  np.port @c out : !np.pkt
  // LIMITS: :[[@LINE+2]]:3: error: element 'Fine' (instance 'f') cannot run on the FPGA: packet queue 'q' holds up to 8 packets, more than the 7 frame buffers
  // LIMITS-NOT: error
  np.state @q : memref<10xi64>
  // STATE: :[[@LINE+1]]:3: error: element 'Fine' (instance 'f') cannot run on the FPGA: state 't' takes 792 bytes, more than the 791 bytes
  np.state @t : memref<99xi64>
  np.handler {
  ^bb0(%self: !np.self):
    %p = np.recv @i : !np.pkt
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %buf = memref.alloca() : memref<8xi8>
    scf.for %k = %c0 to %c8 step %c1 {
    }
    %len = np.pkt_len %p
    %n = arith.index_cast %len : i32 to index
    scf.for %k = %c0 to %n step %c1 {
    } {np.bound = 64 : i64}
    %t = np.state_field %self @t : memref<99xi64>
    %a = arith.constant 1 : i32
    %hit = np.table lookup lpm %t(%a) {capacity = 16 : i32, key_words = 1 : i32, value_words = 1 : i32} : memref<99xi64> -> i1
    %q = np.state_field %self @q : memref<10xi64>
    %w = np.pkt_to_word %p
    memref.store %w, %q[%c0] : memref<10xi64>
    %w2 = memref.load %q[%c0] : memref<10xi64>
    %p2 = np.word_to_pkt %w2
    %copy = np.clone %p2
    np.send @c, %copy : !np.pkt
    %l60 = arith.constant 60 : i32
    %fresh = np.pkt_new %l60 : i32
    %now = np.now
    np.anno_set %fresh "ts" 0, %now : i64
    np.drop %fresh
    np.send @o, %p2 : !np.pkt
  }
}

// An instance placed on the host is not checked, unless all-elements.
// CHECK-LABEL: np.element @HostOnly
// ALL: error: element 'HostOnly' (instance 'src') cannot run on the FPGA: loop 'scf.while' has no bound
// ALL-NOT: error
np.element @HostOnly {
  np.port @o out : !np.pkt
  np.handler {
    scf.while : () -> () {
      %c = arith.constant true
      scf.condition(%c)
    } do {
      scf.yield
    }
    %d = arith.constant 0 : i32
    %p = np.device_recv %d
    np.send @o, %p : !np.pkt
  }
}
np.element @Sink {
  np.port @i in : !np.pkt
  np.port @j in : !np.pkt
  np.handler {
    %p = np.recv @i : !np.pkt
    %d = arith.constant 0 : i32
    np.device_send %d, %p
  }
}
np.graph @Top attributes {top} {
  np.instance @src of @HostOnly {placement = "host"}
  np.instance @f of @Fine {placement = "fpga"}
  np.instance @sink of @Sink
  np.connect @src::@o to @f::@i depth 4
  np.connect @f::@o to @sink::@i depth 4
  np.connect @f::@c to @sink::@j depth 4
}
