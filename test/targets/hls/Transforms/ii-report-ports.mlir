// RUN: npcc-opt %s -split-input-file -np-ii-report -verify-diagnostics -o /dev/null

// The fields of a struct array that keep their `memory` are one block RAM:
// five accesses on two ports, and a read-after-write between fields that
// np-scatter-memory removes.

// expected-remark@+1 {{II=3 for element 'Flows': state 'tab' (fields key, val, hits in one memory) takes 5 accesses per datum on 2 ports}}
np.element @Flows {
  np.port @i in : !np.pkt
  np.port @o out : !np.pkt
  np.state @tab.key : memref<256xi32> {memory = "tab"}
  np.state @tab.val : memref<256xi32> {memory = "tab"}
  np.state @tab.hits : memref<256xi64> {memory = "tab"}
  np.handler {
    %p = np.recv @i : !np.pkt
    %off = arith.constant 26 : i64
    %a = np.pkt_get %p, %off {width = 8 : i32} : i8
    %k = arith.index_castui %a : i8 to index
    %key = np.state_ref @tab.key : memref<256xi32>
    %val = np.state_ref @tab.val : memref<256xi32>
    %hits = np.state_ref @tab.hits : memref<256xi64>
    // expected-note@+1 {{II=3: state 'tab' (fields key, val, hits in one memory) takes 5 accesses per datum on 2 ports}}
    %x = memref.load %key[%k] : memref<256xi32>
    %y = memref.load %val[%k] : memref<256xi32>
    %h = memref.load %hits[%k] : memref<256xi64>
    %z = arith.addi %x, %y : i32
    np.meta_set %p "paint", %z : i32
    // expected-note@+1 {{II=2: state 'tab' (fields key, val, hits in one memory) is read and written for every datum: the next datum's read waits for this write (read-after-write across iterations, block RAM read latency 1); np-delay-write removes it}}
    memref.store %h, %hits[%k] : memref<256xi64>
    memref.store %z, %val[%k] : memref<256xi32>
    np.send @o, %p : !np.pkt
  }
}

// -----

// Scattered, with the written fields delayed: II=1.

// expected-remark@+1 {{II=1 for element 'Scattered'}}
np.element @Scattered {
  np.port @i in : !np.pkt
  np.port @o out : !np.pkt
  np.state @tab.key : memref<256xi32>
  np.state @tab.val : memref<256xi32> {delayed_write}
  np.state @tab.hits : memref<256xi64> {delayed_write}
  np.handler {
    %p = np.recv @i : !np.pkt
    %off = arith.constant 26 : i64
    %a = np.pkt_get %p, %off {width = 8 : i32} : i8
    %k = arith.index_castui %a : i8 to index
    %key = np.state_ref @tab.key : memref<256xi32>
    %val = np.state_ref @tab.val : memref<256xi32>
    %hits = np.state_ref @tab.hits : memref<256xi64>
    %x = memref.load %key[%k] : memref<256xi32>
    %y = memref.load %val[%k] : memref<256xi32>
    %h = memref.load %hits[%k] : memref<256xi64>
    %z = arith.addi %x, %y : i32
    memref.store %h, %hits[%k] : memref<256xi64>
    memref.store %z, %val[%k] : memref<256xi32>
    np.send @o, %p : !np.pkt
  }
}

// -----

// One field read, another written, in one memory: scattering is enough.

// expected-remark@+1 {{II=2 for element 'ReadOneWriteOther': state 'tab' (fields key, hits in one memory) is read and written for every datum: the next datum's read waits for this write (read-after-write across iterations, block RAM read latency 1); np-scatter-memory removes it}}
np.element @ReadOneWriteOther {
  np.port @i in : !np.pkt
  np.port @o out : !np.pkt
  np.state @tab.key : memref<256xi32> {memory = "tab"}
  np.state @tab.hits : memref<256xi64> {memory = "tab"}
  np.handler {
    %p = np.recv @i : !np.pkt
    %off = arith.constant 26 : i64
    %a = np.pkt_get %p, %off {width = 8 : i32} : i8
    %k = arith.index_castui %a : i8 to index
    %key = np.state_ref @tab.key : memref<256xi32>
    %hits = np.state_ref @tab.hits : memref<256xi64>
    %x = memref.load %key[%k] : memref<256xi32>
    %x64 = arith.extui %x : i32 to i64
    // expected-note@+1 {{II=2: state 'tab'}}
    memref.store %x64, %hits[%k] : memref<256xi64>
    np.send @o, %p : !np.pkt
  }
}

// -----

// Exclusive arms share the ports: one access per arm, two in all.

// expected-remark@+1 {{II=1 for element 'Arms'}}
np.element @Arms {
  np.port @i in : !np.pkt
  np.port @o out : !np.pkt
  np.state @t : memref<256xi32> {delayed_write}
  np.handler {
    %p = np.recv @i : !np.pkt
    %off = arith.constant 26 : i64
    %a = np.pkt_get %p, %off {width = 8 : i32} : i8
    %k = arith.index_castui %a : i8 to index
    %t = np.state_ref @t : memref<256xi32>
    %c = arith.cmpi eq, %a, %a : i8
    %v = scf.if %c -> (i32) {
      %x = memref.load %t[%k] : memref<256xi32>
      scf.yield %x : i32
    } else {
      %c1 = arith.constant 1 : index
      %y = memref.load %t[%c1] : memref<256xi32>
      scf.yield %y : i32
    }
    memref.store %v, %t[%k] : memref<256xi32>
    np.send @o, %p : !np.pkt
  }
}

// -----

// Packet bytes at computed offsets (np-header-window has not proved them
// inside the header window), or past the first 128, come from the packet
// buffer.

// expected-remark@+1 {{II=2 for element 'Offsets': the packet buffer takes 4 accesses per datum on 2 ports}}
np.element @Offsets {
  np.port @i in : !np.pkt
  np.port @o out : !np.pkt
  np.handler {
    %p = np.recv @i : !np.pkt
    %c14 = arith.constant 14 : i64
    %ihl = np.pkt_get %p, %c14 {width = 4 : i32, bit = 4 : i32} : i4
    %w = arith.extui %ihl : i4 to i64
    %c4 = arith.constant 4 : i64
    %hl = arith.muli %w, %c4 : i64
    %l4 = arith.addi %hl, %c14 : i64
    // expected-note@+1 {{II=2: the packet buffer takes 4 accesses per datum on 2 ports}}
    %sport = np.pkt_get %p, %l4 {width = 16 : i32} : i16
    %dport = np.pkt_get %p, %l4 {width = 16 : i32, bit = 16 : i32} : i16
    np.pkt_set %p, %l4, %dport {width = 16 : i32} : i16
    %c128 = arith.constant 128 : i64
    %far = np.pkt_get %p, %c128 {width = 8 : i32} : i8
    np.send @o, %p : !np.pkt
  }
}
