// RUN: npcc-opt %s -split-input-file -np-ii-report -verify-diagnostics -o /dev/null

// Two values sent on one port per datum: a stream moves one per clock.

// expected-remark@+1 {{II=2 for element 'Twice': port 'o' sends 2 values per datum; a stream moves one per clock}}
np.element @Twice {
  np.port @i in : i32
  np.port @o out : i32
  np.handler {
    %v = np.recv @i : i32
    // expected-note@+1 {{II=2: port 'o' sends 2 values per datum}}
    np.send @o, %v : i32
    %one = arith.constant 1 : i32
    %w = arith.addi %v, %one : i32
    np.send @o, %w : i32
  }
}

// -----

// One packet sent in two places that an early return separates: a packet
// is sent once, so they never both run.

// expected-remark@+1 {{II=1 for element 'EarlyReturn'}}
np.element @EarlyReturn {
  np.port @i in : !np.pkt
  np.port @o out : !np.pkt
  np.handler {
    %done = memref.alloca() : memref<1xi1>
    %c0 = arith.constant 0 : index
    %false = arith.constant false
    %true = arith.constant true
    memref.store %false, %done[%c0] : memref<1xi1>
    %p = np.recv @i : !np.pkt
    %t = np.meta_get %p "paint" : i32
    %z = arith.constant 0 : i32
    %c = arith.cmpi eq, %t, %z : i32
    scf.if %c {
      np.send @o, %p : !np.pkt
      memref.store %true, %done[%c0] : memref<1xi1>
    }
    %d = memref.load %done[%c0] : memref<1xi1>
    %n = arith.xori %d, %true : i1
    scf.if %n {
      np.send @o, %p : !np.pkt
    }
  }
}

// -----

// Two packets sent on one port, and a port received from twice.

// expected-remark@+1 {{II=2 for element 'Pairs': port 'i' receives 2 values per datum; a stream moves one per clock}}
np.element @Pairs {
  np.port @i in : !np.pkt
  np.port @o out : !np.pkt
  np.handler {
    // expected-note@+1 {{II=2: port 'i' receives 2 values per datum}}
    %p = np.recv @i : !np.pkt
    %q = np.recv @i : !np.pkt
    // expected-note@+1 {{II=2: port 'o' sends 2 values per datum}}
    np.send @o, %p : !np.pkt
    np.send @o, %q : !np.pkt
  }
}

// -----

// A source (it receives nothing) sends a burst: each value sent is a datum.

// expected-remark@+1 {{II=1 for element 'Burst'}}
np.element @Burst {
  np.port @o out : !np.pkt
  np.handler {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %n = arith.constant 60 : i32
    scf.for %k = %c0 to %c4 step %c1 {
      %p = np.pkt_new %n : i32
      np.send @o, %p : !np.pkt
    }
  }
}
