// RUN: npcc-opt %s -split-input-file -np-check-channels -verify-diagnostics \
// RUN:   | FileCheck %s

// What np-check-channels accepts, and the depths it infers. Ports carry
// i32 so that the handlers need no packets.

np.element @Src {
  np.port @o out : i32
  np.handler {
    %c = arith.constant 1 : i32
    np.send @o, %c : i32
  }
}
np.element @Fwd {
  np.port @i in : i32
  np.port @o out : i32
  np.handler {
    %v = np.recv @i : i32
    np.send @o, %v : i32
  }
}
// Waits on either input (Merge).
np.element @Join {
  np.port @a in : i32
  np.port @b in : i32
  np.port @o out : i32
  np.handler {
    %k = np.select [@a, @b]
    %c0 = arith.constant 0 : i32
    %first = arith.cmpi eq, %k, %c0 : i32
    %v = scf.if %first -> (i32) {
      %x = np.recv @a : i32
      scf.yield %x : i32
    } else {
      %x = np.recv @b : i32
      scf.yield %x : i32
    }
    np.send @o, %v : i32
  }
}
np.element @Sink {
  np.port @i in : i32
  np.handler {
    %v = np.recv @i : i32
  }
}
// A buffered feedback cycle entered through a select: accepted, and no
// depth is inferred for channels that take one value per run.
// CHECK-LABEL: np.graph @BufferedCycle
// CHECK: np.connect @f::@o to @j::@b depth 8
// CHECK-NOT: inferred_depth
// CHECK: }
np.graph @BufferedCycle attributes {top} {
  np.instance @src of @Src
  np.instance @j of @Join
  np.instance @f of @Fwd
  np.connect @src::@o to @j::@a depth 64
  np.connect @j::@o to @f::@i depth 8
  np.connect @f::@o to @j::@b depth 8
}

// -----

// A ring primed by an init body that sends: every instance gets a value,
// so the buffered cycle runs for ever.
np.element @Primed {
  np.port @i in : i32
  np.port @o out : i32
  np.init {
    %c = arith.constant 7 : i32
    np.send @o, %c : i32
  }
  np.handler {
    %v = np.recv @i : i32
    np.send @o, %v : i32
  }
}
np.element @Fwd {
  np.port @i in : i32
  np.port @o out : i32
  np.handler {
    %v = np.recv @i : i32
    np.send @o, %v : i32
  }
}
// CHECK-LABEL: np.graph @PrimedRing
np.graph @PrimedRing attributes {top} {
  np.instance @a of @Primed
  np.instance @b of @Fwd
  np.connect @a::@o to @b::@i depth 1
  np.connect @b::@o to @a::@i depth 1
}

// -----

// A Tee's sends to o[k] in a loop count once per port: the loop counter is
// known in each iteration. Two rendezvous channels out of it are fine.
np.element @Src {
  np.port @o out : i32
  np.handler {
    %c = arith.constant 1 : i32
    np.send @o, %c : i32
  }
}
np.element @Tee {
  np.port @i in : i32
  np.port @"o[0]" out : i32
  np.port @"o[1]" out : i32
  np.handler {
    %v = np.recv @i : i32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %k = %c0 to %c1 step %c1 {
      %k32 = arith.index_castui %k : index to i32
      %z = arith.constant 0 : i32
      %is0 = arith.cmpi eq, %k32, %z : i32
      scf.if %is0 {
        np.send @"o[0]", %v : i32
      } else {
        np.send @"o[1]", %v : i32
      }
    }
    np.send @"o[1]", %v : i32
  }
}
np.element @Sink {
  np.port @i in : i32
  np.handler {
    %v = np.recv @i : i32
  }
}
// CHECK-LABEL: np.graph @TeeRendezvous
// CHECK: np.connect @t::@"o[0]" to @x::@i depth 0{{$}}
// CHECK: np.connect @t::@"o[1]" to @y::@i depth 0{{$}}
np.graph @TeeRendezvous attributes {top} {
  np.instance @src of @Src
  np.instance @t of @Tee
  np.instance @x of @Sink
  np.instance @y of @Sink
  np.connect @src::@o to @t::@i depth 64
  np.connect @t::@"o[0]" to @x::@i depth 0
  np.connect @t::@"o[1]" to @y::@i depth 0
}

// -----

// A handler that sends up to 4 values per run (a bounded loop) on `many`:
// the connection records `inferred_depth = 4`, and a depth below it is a
// warning. A lossy channel that keeps up is not warned about.
np.element @Bursty {
  np.port @many out : i32
  np.port @two out : i32
  np.handler {
    %c = arith.constant 1 : i32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    scf.for %k = %c0 to %c4 step %c1 {
      np.send @many, %c : i32
    }
    %flag = np.now
    %z = arith.constant 0 : i64
    %odd = arith.cmpi ne, %flag, %z : i64
    scf.if %odd {
      np.send @two, %c : i32
      np.send @two, %c : i32
    } else {
      np.send @two, %c : i32
    }
  }
}
np.element @Sink {
  np.port @i in : i32
  np.handler {
    %v = np.recv @i : i32
  }
}
// CHECK-LABEL: np.graph @Burst
// CHECK: np.connect @b::@many to @x::@i depth 2 {inferred_depth = 4 : i64}
// CHECK: np.connect lossy @b::@two to @y::@i depth 2 {inferred_depth = 2 : i64}
np.graph @Burst attributes {top} {
  np.instance @b of @Bursty
  np.instance @x of @Sink
  np.instance @y of @Sink
  // expected-warning @+1 {{'b' may send 4 values on 'many' per run, but channel 'b.many' -> 'x.i' has depth 2; inferred depth 4 [-Wchannel-depth]}}
  np.connect @b::@many to @x::@i depth 2
  np.connect lossy @b::@two to @y::@i depth 2
}

// -----

// A module without a top graph is left alone.
// CHECK-LABEL: np.graph @NotTop
np.element @Fwd {
  np.port @i in : i32
  np.port @o out : i32
  np.handler {
    %v = np.recv @i : i32
    np.send @o, %v : i32
  }
}
np.graph @NotTop {
  np.instance @a of @Fwd
  np.instance @b of @Fwd
  np.connect @a::@o to @b::@i depth 0
  np.connect @b::@o to @a::@i depth 0
}
