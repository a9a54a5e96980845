// RUN: npcc-opt %s -split-input-file -verify-diagnostics -np-check-synthesizable

// A while loop without a bound.
np.element @Scan {
  np.port @i in : i32
  np.handler {
    %n = np.recv @i : i32
    %c1 = arith.constant 1 : i32
    // expected-error @+1 {{element 'Scan' cannot run on the FPGA: loop 'scf.while' has no bound: HLS cannot schedule or pipeline a loop of unknown trip count; a loop needs a constant or declared bound (`for k in 0..N`}}
    %r = scf.while (%x = %n) : (i32) -> i32 {
      %c = arith.cmpi ne, %x, %c1 : i32
      scf.condition(%c) %x : i32
    } do {
    ^bb0(%y: i32):
      %h = arith.shrui %y, %c1 : i32
      scf.yield %h : i32
    }
  }
}

// -----

// A for loop whose upper bound is known only at run time.
np.element @Walk {
  np.port @i in : !np.pkt
  np.port @o out : !np.pkt
  np.handler {
    %p = np.recv @i : !np.pkt
    %len = np.pkt_len %p
    %n = arith.index_cast %len : i32 to index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{element 'Walk' cannot run on the FPGA: loop runs at most ? iterations: its bounds are not constants and it declares no bound}}
    scf.for %k = %c0 to %n step %c1 {
    }
    np.send @o, %p : !np.pkt
  }
}

// -----

// np.unroll alone is no bound.
np.element @Unrolled {
  np.port @i in : i32
  np.handler {
    %n32 = np.recv @i : i32
    %n = arith.index_cast %n32 : i32 to index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{loop runs at most ? iterations}}
    scf.for %k = %c0 to %n step %c1 {
    } {np.unroll}
  }
}

// -----

// Unstructured control flow.
np.element @Branches {
  np.port @i in : i1
  np.handler {
    %c = np.recv @i : i1
    scf.execute_region {
      // expected-error @+1 {{element 'Branches' cannot run on the FPGA: branch 'cf.cond_br' is unstructured control flow, which may loop without a bound}}
      cf.cond_br %c, ^bb1, ^bb2
    ^bb1:
      scf.yield
    ^bb2:
      scf.yield
    }
  }
}

// -----

// An array whose size is known only at run time.
np.element @Buffer {
  np.port @i in : i32
  np.handler {
    %n32 = np.recv @i : i32
    %n = arith.index_cast %n32 : i32 to index
    // expected-error @+1 {{element 'Buffer' cannot run on the FPGA: dynamic allocation: 'memref.alloca' of 'memref<?xi8>' has a size known only at run time}}
    %b = memref.alloca(%n) : memref<?xi8>
  }
}

// -----

np.element @Heap {
  np.port @i in : i32
  np.handler {
    %n32 = np.recv @i : i32
    %n = arith.index_cast %n32 : i32 to index
    // expected-error @+1 {{dynamic allocation: 'memref.alloc' of 'memref<?xi64>'}}
    %b = memref.alloc(%n) : memref<?xi64>
    memref.dealloc %b : memref<?xi64>
  }
}

// -----

np.element @Grow {
  np.port @i in : i32
  np.handler {
    %n32 = np.recv @i : i32
    %n = arith.index_cast %n32 : i32 to index
    %b = memref.alloc() : memref<4xi64>
    // expected-error @+1 {{dynamic allocation: 'memref.realloc' resizes a buffer at run time}}
    %c = memref.realloc %b(%n) : memref<4xi64> to memref<?xi64>
  }
}

// -----

// State seen through a dynamic shape: variable-size state.
np.element @Window {
  np.port @i in : i32
  np.state @w : memref<64xi32>
  np.handler {
  ^bb0(%self: !np.self):
    %k32 = np.recv @i : i32
    %k = arith.index_cast %k32 : i32 to index
    %m = np.state_field %self @w : memref<64xi32>
    // expected-error @+1 {{element 'Window' cannot run on the FPGA: variable-size value of type 'memref<?xi32>': HLS maps every array to a memory of fixed size}}
    %d = memref.cast %m : memref<64xi32> to memref<?xi32>
    %v = memref.load %d[%k] : memref<?xi32>
  }
}

// -----

// A packet handle kept in state outside a packet queue's store: it escapes.
np.element @Keep {
  np.port @i in : !np.pkt
  np.port @o out : i64
  np.handler {
    %p = np.recv @i : !np.pkt
    // expected-error @+1 {{element 'Keep' cannot run on the FPGA: packet handle escapes: a packet is a stream of flits on the FPGA, not an address}}
    %w = np.pkt_to_word %p
    // expected-note @+1 {{the handle is used here}}
    np.send @o, %w : i64
  }
}

// -----

np.element @Local {
  np.port @i in : !np.pkt
  np.handler {
    %p = np.recv @i : !np.pkt
    %b = memref.alloca() : memref<1xi64>
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{packet handle escapes}}
    %w = np.pkt_to_word %p
    // expected-note @+1 {{the handle is used here}}
    memref.store %w, %b[%c0] : memref<1xi64>
  }
}

// -----

// A packet forged from an integer.
np.element @Forge {
  np.port @i in : i64
  np.port @o out : !np.pkt
  np.handler {
    %w = np.recv @i : i64
    // expected-error @+1 {{element 'Forge' cannot run on the FPGA: packet made from an integer that is not a packet queue entry}}
    %p = np.word_to_pkt %w
    np.send @o, %p : !np.pkt
  }
}

// -----

// A packet queue (capacity words, head, count) larger than the limit.
np.element @Hoard {
  np.port @i in : !np.pkt
  // expected-error @+1 {{element 'Hoard' cannot run on the FPGA: packet queue 'q' holds up to 5000 packets, more than the 4096 frame buffers an element may keep (max-queued-packets)}}
  np.state @q : memref<5002xi64>
  np.handler {
  ^bb0(%self: !np.self):
    %p = np.recv @i : !np.pkt
    %m = np.state_field %self @q : memref<5002xi64>
    %c0 = arith.constant 0 : index
    %w = np.pkt_to_word %p
    memref.store %w, %m[%c0] : memref<5002xi64>
  }
}

// -----

// State beyond the on-chip budget.
np.element @Huge {
  np.port @i in : !np.pkt
  // expected-error @+1 {{element 'Huge' cannot run on the FPGA: state 'big' takes 16777216 bytes, more than the 8388608 bytes one state may take in on-chip memory (max-state-bytes)}}
  np.state @big : memref<2097152xi64>
  np.handler {
    %p = np.recv @i : !np.pkt
    np.drop %p
  }
}

// -----

// A table whose memory is not state has no fixed capacity.
np.element @Tab {
  np.port @i in : i32
  np.handler {
    %a = np.recv @i : i32
    %n = arith.constant 99 : index
    // expected-error @+1 {{dynamic allocation}}
    %t = memref.alloca(%n) : memref<?xi64>
    %s = memref.cast %t : memref<?xi64> to memref<99xi64>
    // expected-error @+1 {{element 'Tab' cannot run on the FPGA: table memory is not element state}}
    %ok = np.table lookup lpm %s(%a) {capacity = 16 : i32, key_words = 1 : i32, value_words = 1 : i32} : memref<99xi64> -> i1
  }
}

// -----

// Printing is a warning: only C simulation prints.
np.element @Chatty {
  np.port @i in : !np.pkt
  np.port @o out : !np.pkt
  np.handler {
    %p = np.recv @i : !np.pkt
    %c24 = arith.constant 24 : i32
    // expected-warning @+1 {{element 'Chatty' prints only in C simulation: HLS synthesis drops 'np.print_pkt' (printf), so the FPGA does not print}}
    np.print_pkt %p, %c24 {label = "in"}
    %n = np.pkt_len %p
    // expected-warning @+1 {{drops 'np.print'}}
    np.print %n {label = "len"} : i32
    np.send @o, %p : !np.pkt
  }
}

// -----

// Instances are named; errors in init, timer and read handlers count too.
np.element @Slow {
  np.port @i in : !np.pkt
  np.init {
    %n = arith.constant 3 : i32
    // expected-error @+1 {{element 'Slow' (instance 's') cannot run on the FPGA: loop 'scf.while' has no bound}}
    scf.while : () -> () {
      %c = arith.constant true
      scf.condition(%c)
    } do {
      scf.yield
    }
  }
  np.handler {
    %p = np.recv @i : !np.pkt
    np.drop %p
  }
  np.control attributes {name = "n", result_kind = 64 : i32, param_kinds = array<i32>, param_defaults = array<i64>} {
    %x32 = np.handler_arg 0 : i32
    %x = arith.index_cast %x32 : i32 to index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{element 'Slow' (instance 's') cannot run on the FPGA: loop runs at most ? iterations}}
    scf.for %k = %c0 to %x step %c1 {
    }
  }
}
np.element @Src {
  np.port @o out : !np.pkt
  np.handler {
    %d = arith.constant 0 : i32
    %p = np.device_recv %d
    np.send @o, %p : !np.pkt
  }
}
np.graph @Top attributes {top} {
  np.instance @src of @Src
  np.instance @s of @Slow {placement = "fpga"}
  np.connect @src::@o to @s::@i depth 4
}

// -----

// A table read from a file at start-up.
np.element @Routes {
  np.port @i in : !np.pkt
  np.state @rt : memref<4xi64>
  np.control attributes {name = "add", write, result_kind = 0 : i32, param_kinds = array<i32: 768>, param_defaults = array<i64: 0>} {
  }
  np.init {
    // expected-error @+1 {{element 'Routes' cannot run on the FPGA: reads the file 'routes.txt' at start-up, and the FPGA has no file system; fill the table from the element's arguments in `init`, or from the host through write handler 'add' at run time}}
    np.handler_load "add", "routes.txt"
  }
  np.handler {
    %p = np.recv @i : !np.pkt
    np.drop %p
  }
}
