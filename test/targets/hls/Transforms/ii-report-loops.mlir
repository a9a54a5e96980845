// RUN: npcc-opt %s -split-input-file -np-ii-report -verify-diagnostics -o /dev/null
// RUN: npcc-opt %s -split-input-file '-np-ii-report=assume-hls-passes=true' -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNROLLED

// A loop with constant bounds takes its trip count in clocks; unrolled
// (np-unroll), its iterations run side by side.

// expected-remark@+1 {{II=16 for element 'Sum': loop of 16 iterations (constant bounds), one per clock, on the path of every datum; np-unroll flattens it}}
np.element @Sum {
  np.port @i in : !np.pkt
  np.port @o out : !np.pkt
  np.state @w : memref<16xi32>
  np.handler {
    %p = np.recv @i : !np.pkt
    %acc = memref.alloca() : memref<1xi32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %w = np.state_ref @w : memref<16xi32>
    // expected-note@+1 {{II=16: loop of 16 iterations}}
    scf.for %k = %c0 to %c16 step %c1 {
      %x = memref.load %w[%k] : memref<16xi32>
      %s = memref.load %acc[%c0] : memref<1xi32>
      %t = arith.addi %s, %x : i32
      memref.store %t, %acc[%c0] : memref<1xi32>
    }
    np.send @o, %p : !np.pkt
  }
}

// -----

// A loop marked for unrolling (`unroll k in a..b bound 8`) whose body
// reads the packet buffer twice: 8 iterations of 1 clock.

// expected-remark@+1 {{II=8 for element 'Marked': loop marked unroll runs up to its bound, 8 iterations, one per clock, on the path of every datum; np-unroll flattens it}}
np.element @Marked {
  np.port @i in : !np.pkt
  np.port @o out : !np.pkt
  np.handler {
    %p = np.recv @i : !np.pkt
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    // expected-note@+1 {{II=8: loop marked unroll}}
    scf.for %k = %c0 to %c8 step %c1 {
      %o = arith.index_castui %k : index to i64
      %b = np.pkt_get %p, %o {width = 8 : i32} : i8
      %w = arith.extui %b : i8 to i32
      np.meta_set %p "paint", %w : i32
    } {np.unroll}
    np.send @o, %p : !np.pkt
  }
}

// -----

// A loop that sends a clone to one port per iteration: unrolled, each
// iteration's branch on its index folds and every port sends once.

// expected-remark@+1 {{II=4 for element 'Tee': loop of 4 iterations}}
np.element @Tee {
  np.port @i in : !np.pkt
  np.port @"o[0]" out : !np.pkt
  np.port @"o[1]" out : !np.pkt
  np.port @"o[2]" out : !np.pkt
  np.port @"o[3]" out : !np.pkt
  np.handler {
    %p = np.recv @i : !np.pkt
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    // expected-note@+1 {{II=4: loop of 4 iterations}}
    scf.for %k = %c0 to %c4 step %c1 {
      %q = np.clone %p
      %i = arith.index_castui %k : index to i32
      scf.index_switch %k
      case 0 { np.send @"o[0]", %q : !np.pkt  scf.yield }
      case 1 { np.send @"o[1]", %q : !np.pkt  scf.yield }
      case 2 { np.send @"o[2]", %q : !np.pkt  scf.yield }
      default { np.send @"o[3]", %q : !np.pkt  scf.yield }
    }
    np.drop %p
  }
}

// -----

// A loop that receives: each iteration is a datum, so it costs its body.
// Here the body writes a 64-entry queue ring and reads its head and count
// from the same block RAM.

// expected-remark@+1 {{II=2 for element 'Drain': each iteration of this loop moves a datum and takes 2 clocks: state 'q' takes 3 accesses per datum on 2 ports}}
np.element @Drain {
  np.port @i in : !np.pkt
  np.port @o out : !np.pkt
  np.state @q : memref<66xi64> {delayed_write}
  np.handler {
    %p = np.recv @i : !np.pkt
    np.send @o, %p : !np.pkt
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c65 = arith.constant 65 : index
    %q = np.state_ref @q : memref<66xi64>
    // expected-note@+1 {{II=2: each iteration of this loop moves a datum}}
    scf.for %k = %c0 to %c64 step %c1 {
      %ok, %v = np.try_recv @i : !np.pkt
      scf.if %ok {
        %h = memref.load %q[%c64] : memref<66xi64>
        %n = memref.load %q[%c65] : memref<66xi64>
        %s = arith.addi %h, %n : i64
        %x = arith.index_castui %s : i64 to index
        %w = np.pkt_to_word %v
        memref.store %w, %q[%x] : memref<66xi64>
      }
    }
  }
}

// The loops that np-unroll flattens leave II=1; the loop that moves data
// stays the pipeline.
// UNROLLED: remark: II=1 for element 'Sum'
// UNROLLED: remark: II=1 for element 'Marked'
// UNROLLED: remark: II=1 for element 'Tee'
// UNROLLED: remark: II=2 for element 'Drain': each iteration of this loop moves a datum and takes 2 clocks: state 'q' takes 3 accesses per datum on 2 ports
