// RUN: npcc-opt %s -split-input-file -np-ii-report -verify-diagnostics -o /dev/null
// RUN: npcc-opt %s -split-input-file -np-ii-report 2>/dev/null | FileCheck %s

// Registers only (a counter and a partitioned 16-entry array, indexed by
// the packet) and the header window at constant offsets: II=1.

// expected-remark@+1 {{II=1 for element 'Regs'}}
np.element @Regs {
  np.port @i in : !np.pkt
  np.port @o out : !np.pkt
  np.state @n : memref<1xi64>
  np.state @hist : memref<16xi32>
  np.handler {
    %p = np.recv @i : !np.pkt
    %off = arith.constant 12 : i64
    %t = np.pkt_get %p, %off {width = 16 : i32} : i16
    %k = arith.index_castui %t : i16 to index
    %h = np.state_ref @hist : memref<16xi32>
    %v = memref.load %h[%k] : memref<16xi32>
    memref.store %v, %h[%k] : memref<16xi32>
    %c0 = arith.constant 0 : index
    %m = np.state_ref @n : memref<1xi64>
    %x = memref.load %m[%c0] : memref<1xi64>
    memref.store %x, %m[%c0] : memref<1xi64>
    np.send @o, %p : !np.pkt
  }
}

// -----

// A block RAM read and written at an index the packet gives: the next
// packet's read waits for this write.

// expected-remark@+1 {{II=2 for element 'Sketch': state 'bitmap' is read and written for every datum: the next datum's read waits for this write (read-after-write across iterations, block RAM read latency 1); np-delay-write removes it}}
np.element @Sketch {
  np.port @i in : !np.pkt
  np.port @o out : !np.pkt
  np.state @bitmap : memref<1024xi32>
  np.handler {
    %p = np.recv @i : !np.pkt
    %off = arith.constant 26 : i64
    %a = np.pkt_get %p, %off {width = 10 : i32} : i10
    %k = arith.index_castui %a : i10 to index
    %b = np.state_ref @bitmap : memref<1024xi32>
    %v = memref.load %b[%k] : memref<1024xi32>
    %one = arith.constant 1 : i32
    %w = arith.ori %v, %one : i32
    // expected-note@+1 {{II=2: state 'bitmap' is read and written for every datum}}
    memref.store %w, %b[%k] : memref<1024xi32>
    np.send @o, %p : !np.pkt
  }
}

// -----

// The same after np-delay-write: II=1.

// expected-remark@+1 {{II=1 for element 'Delayed'}}
np.element @Delayed {
  np.port @i in : !np.pkt
  np.port @o out : !np.pkt
  np.state @bitmap : memref<1024xi32> {delayed_write}
  np.handler {
    %p = np.recv @i : !np.pkt
    %off = arith.constant 26 : i64
    %a = np.pkt_get %p, %off {width = 10 : i32} : i10
    %k = arith.index_castui %a : i10 to index
    %b = np.state_ref @bitmap : memref<1024xi32>
    %v = memref.load %b[%k] : memref<1024xi32>
    memref.store %v, %b[%k] : memref<1024xi32>
    np.send @o, %p : !np.pkt
  }
}

// -----

// Only init, timer and control bodies touch the block RAM: they are not on
// the packet path.

// expected-remark@+1 {{II=1 for element 'Control'}}
np.element @Control {
  np.port @i in : !np.pkt
  np.port @o out : !np.pkt
  np.state @t : memref<256xi64>
  np.init {
    %c0 = arith.constant 0 : index
    %m = np.state_ref @t : memref<256xi64>
    %v = memref.load %m[%c0] : memref<256xi64>
    memref.store %v, %m[%c0] : memref<256xi64>
  }
  np.handler {
    %p = np.recv @i : !np.pkt
    np.send @o, %p : !np.pkt
  }
}

// The report is an analysis: every element is printed back.
// CHECK-LABEL: np.element @Regs
// CHECK-LABEL: np.element @Sketch
// CHECK-LABEL: np.element @Delayed
// CHECK-LABEL: np.element @Control
