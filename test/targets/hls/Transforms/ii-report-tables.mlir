// RUN: npcc-opt %s -split-input-file -np-ii-report -verify-diagnostics -o /dev/null

// An LPM lookup is a pipelined trie: II=1. The slot words the key and
// value pass through are registers.

// expected-remark@+1 {{II=1 for element 'Route'}}
np.element @Route {
  np.port @i in : !np.pkt
  np.port @o out : !np.pkt
  np.state @t : memref<24579xi64>
  np.handler {
    %p = np.recv @i : !np.pkt
    %c30 = arith.constant 30 : i64
    %dst = np.pkt_get %p, %c30 {width = 32 : i32} : i32
    %t = np.state_ref @t : memref<24579xi64>
    %ok = np.table lookup lpm %t(%dst) {capacity = 4096 : i32, key_words = 1 : i32, value_words = 1 : i32} : memref<24579xi64> -> i1
    %c0 = arith.constant 0 : index
    %v = memref.load %t[%c0] : memref<24579xi64>
    np.meta_set %p "anno", %v : i64
    np.send @o, %p : !np.pkt
  }
}

// -----

// A hash table looked up and changed for every packet: the next lookup
// waits for the bucket's write.

// expected-remark@+1 {{II=2 for element 'Count': hash table 'flows' is looked up and changed for every datum: the next lookup waits for the bucket's write (read-after-write)}}
np.element @Count {
  np.port @i in : !np.pkt
  np.port @o out : !np.pkt
  np.state @flows : memref<10245xi64>
  np.handler {
    %p = np.recv @i : !np.pkt
    %t = np.state_ref @flows : memref<10245xi64>
    %found = np.table lookup hash %t() {capacity = 1024 : i32, key_words = 2 : i32, value_words = 2 : i32} : memref<10245xi64> -> i1
    // expected-note@+1 {{II=2: hash table 'flows' is looked up and changed}}
    %ok = np.table insert hash %t() {capacity = 1024 : i32, key_words = 2 : i32, value_words = 2 : i32} : memref<10245xi64> -> i1
    np.send @o, %p : !np.pkt
  }
}

// -----

// An LPM insert on the packet path rewrites trie levels one per clock.

// expected-remark@+1 {{II=4 for element 'Learn': LPM table 't' is changed on the packet path: an insert or remove rewrites up to 4 trie levels, one per clock}}
np.element @Learn {
  np.port @i in : !np.pkt
  np.port @o out : !np.pkt
  np.state @t : memref<24579xi64>
  np.handler {
    %p = np.recv @i : !np.pkt
    %c26 = arith.constant 26 : i64
    %src = np.pkt_get %p, %c26 {width = 32 : i32} : i32
    %len = arith.constant 32 : i32
    %t = np.state_ref @t : memref<24579xi64>
    // expected-note@+1 {{II=4: LPM table 't' is changed on the packet path}}
    %ok = np.table insert lpm %t(%src, %len) {capacity = 4096 : i32, key_words = 1 : i32, value_words = 1 : i32} : memref<24579xi64> -> i1
    np.send @o, %p : !np.pkt
  }
}
