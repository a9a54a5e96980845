// RUN: npcc-opt %s --np-header-window -split-input-file -verify-diagnostics | FileCheck %s

// An IP option walk: `oi < hlen` guards every access of the loop, and
// `hlen` is a 4-bit field times 4, at most 60. What the loop leaves in
// `last` is at most 124 (an invariant Houdini keeps), so `p[last + 2]`
// after it is inside too. `p[far]`, at any byte offset the packet gives,
// is not.

// CHECK-LABEL: np.element @Walk
// expected-remark @below {{3 packet accesses at computed offsets stay inside the 128-byte header window (1 may leave it)}}
np.element @Walk {
  np.port @i in : !np.pkt
  np.port @o out : !np.pkt
  np.handler {
  ^bb0(%self: !np.self):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c40 = arith.constant 40 : index
    %true = arith.constant true
    %c0_i64 = arith.constant 0 : i64
    %c1_i64 = arith.constant 1 : i64
    %c0_i8 = arith.constant 0 : i8
    %c1_i8 = arith.constant 1 : i8
    %c15_i8 = arith.constant 15 : i8
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c2_i32 = arith.constant 2 : i32
    %c4_i32 = arith.constant 4 : i32
    %c20_i32 = arith.constant 20 : i32
    %going = memref.alloca() : memref<1xi1>
    %last = memref.alloca() : memref<1xi32>
    %oi = memref.alloca() : memref<1xi32>
    %p = np.recv @i : !np.pkt
    // CHECK: np.pkt_get %{{.*}}, %{{.*}} {width = 8 : i32} : i8
    %b0 = np.pkt_get %p, %c0_i64 {width = 8 : i32} : i8
    %ihl = arith.andi %b0, %c15_i8 : i8
    %ihl32 = arith.extui %ihl : i8 to i32
    %hlen = arith.muli %ihl32, %c4_i32 : i32
    memref.store %c20_i32, %oi[%c0] : memref<1xi32>
    memref.store %c0_i32, %last[%c0] : memref<1xi32>
    memref.store %true, %going[%c0] : memref<1xi1>
    scf.for %k = %c0 to %c40 step %c1 {
      %g = memref.load %going[%c0] : memref<1xi1>
      %stop = arith.xori %g, %true : i1
      np.exit_loop_if %stop
      scf.if %g {
        %o = memref.load %oi[%c0] : memref<1xi32>
        %in = arith.cmpi ult, %o, %hlen : i32
        scf.if %in {
          memref.store %o, %last[%c0] : memref<1xi32>
          %off = arith.extui %o : i32 to i64
          // CHECK: np.pkt_get %{{.*}}, %{{.*}} {np.header_window, width = 8 : i32} : i8
          %v = np.pkt_get %p, %off {width = 8 : i32} : i8
          %w = arith.addi %v, %c1_i8 : i8
          // CHECK: np.pkt_set %{{.*}}, %{{.*}}, %{{.*}} {np.header_window, width = 8 : i32} : i8
          np.pkt_set %p, %off, %w {width = 8 : i32} : i8
          %next = arith.addi %o, %c1_i32 : i32
          memref.store %next, %oi[%c0] : memref<1xi32>
        } else {
          %false = arith.constant false
          memref.store %false, %going[%c0] : memref<1xi1>
        }
      }
    }
    %l = memref.load %last[%c0] : memref<1xi32>
    %l2 = arith.addi %l, %c2_i32 : i32
    %loff = arith.extui %l2 : i32 to i64
    // CHECK: np.pkt_set %{{.*}}, %{{.*}}, %{{.*}} {np.header_window, width = 8 : i32} : i8
    np.pkt_set %p, %loff, %c0_i8 {width = 8 : i32} : i8
    %b1 = np.pkt_get %p, %c1_i64 {width = 8 : i32} : i8
    %far = arith.extui %b1 : i8 to i64
    // CHECK: np.pkt_set %{{.*}}, %{{.*}}, %{{.*}} {width = 8 : i32} : i8
    np.pkt_set %p, %far, %c0_i8 {width = 8 : i32} : i8
    np.send @o, %p : !np.pkt
  }
}

// -----

// The same read without its guard: `oi` grows by one per iteration, 40
// times from 100, past the window; nothing is marked and no remark is
// made. A division by a packet byte may be a division by zero, which
// proves nothing either; a division by a non-zero constant is exact.

// CHECK-LABEL: np.element @Unguarded
np.element @Unguarded {
  np.port @i in : !np.pkt
  np.handler {
  ^bb0(%self: !np.self):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c40 = arith.constant 40 : index
    %c1_i32 = arith.constant 1 : i32
    %c100_i32 = arith.constant 100 : i32
    %c0_i64 = arith.constant 0 : i64
    %oi = memref.alloca() : memref<1xi32>
    %p = np.recv @i : !np.pkt
    memref.store %c100_i32, %oi[%c0] : memref<1xi32>
    scf.for %k = %c0 to %c40 step %c1 {
      %o = memref.load %oi[%c0] : memref<1xi32>
      %off = arith.extui %o : i32 to i64
      // CHECK: np.pkt_get %{{.*}}, %{{.*}} {width = 8 : i32} : i8
      %v = np.pkt_get %p, %off {width = 8 : i32} : i8
      %next = arith.addi %o, %c1_i32 : i32
      memref.store %next, %oi[%c0] : memref<1xi32>
    }
    %b = np.pkt_get %p, %c0_i64 {width = 8 : i32} : i8
    %b64 = arith.extui %b : i8 to i64
    %c4000_i64 = arith.constant 4000 : i64
    %q = arith.divui %c4000_i64, %b64 : i64
    // CHECK: np.pkt_get %{{.*}}, %{{.*}} {width = 8 : i32} : i8
    %x = np.pkt_get %p, %q {width = 8 : i32} : i8
    np.drop %p
  }
}

// -----

// Division by a non-zero constant and a 4-byte field: `(b / 4) + 8` is
// at most 71, so 32 bits from there end by byte 75.

// CHECK-LABEL: np.element @Divided
// expected-remark @below {{1 packet access at computed offsets stay inside the 128-byte header window}}
np.element @Divided {
  np.port @i in : !np.pkt
  np.handler {
  ^bb0(%self: !np.self):
    %c0_i64 = arith.constant 0 : i64
    %c4_i64 = arith.constant 4 : i64
    %c8_i64 = arith.constant 8 : i64
    %p = np.recv @i : !np.pkt
    %b = np.pkt_get %p, %c0_i64 {width = 8 : i32} : i8
    %b64 = arith.extui %b : i8 to i64
    %q = arith.divui %b64, %c4_i64 : i64
    %off = arith.addi %q, %c8_i64 : i64
    // CHECK: np.pkt_get %{{.*}}, %{{.*}} {np.header_window, width = 32 : i32} : i32
    %x = np.pkt_get %p, %off {width = 32 : i32} : i32
    np.drop %p
  }
}

// -----

// Ranges: the IPv4 header checksum over `ihl * 4` bytes from byte 14 ends
// by byte 74, and a copy of those bytes to byte 60 by byte 120; the same
// copy to byte 100 may end at byte 160, and a CRC over `len` bytes from
// 0 may cover the whole frame.

// CHECK-LABEL: np.element @Ranges
// expected-remark @below {{2 packet accesses at computed offsets stay inside the 128-byte header window (2 may leave it)}}
np.element @Ranges {
  np.port @i in : !np.pkt
  np.handler {
  ^bb0(%self: !np.self):
    %c14_i64 = arith.constant 14 : i64
    %c0_i32 = arith.constant 0 : i32
    %c14_i32 = arith.constant 14 : i32
    %c60_i32 = arith.constant 60 : i32
    %c100_i32 = arith.constant 100 : i32
    %c15_i8 = arith.constant 15 : i8
    %c4_i32 = arith.constant 4 : i32
    %p = np.recv @i : !np.pkt
    %b = np.pkt_get %p, %c14_i64 {width = 8 : i32} : i8
    %ihl = arith.andi %b, %c15_i8 : i8
    %ihl32 = arith.extui %ihl : i8 to i32
    %hlen = arith.muli %ihl32, %c4_i32 : i32
    // CHECK: np.pkt_csum {{.*}} {np.header_window}
    %s = np.pkt_csum %p, %c14_i32, %hlen, %c0_i32
    // CHECK: np.pkt_copy {{.*}} {np.header_window}
    np.pkt_copy %p, %c60_i32, %p, %c14_i32, %hlen
    // CHECK: np.pkt_copy
    // CHECK-NOT: np.header_window
    np.pkt_copy %p, %c100_i32, %p, %c14_i32, %hlen
    %n = np.pkt_len %p
    // CHECK: np.pkt_crc
    // CHECK-NOT: np.header_window
    %c = np.pkt_crc %p, %c0_i32, %n
    np.drop %p
  }
}
