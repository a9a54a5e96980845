// RUN: npcc-opt %s --c-lower-np-to-runtime -split-input-file -verify-diagnostics

// expected-error @below {{no top-level graph to compile}}
module {
  np.element @E {
    np.port @i in : !np.pkt
    np.handler {
      %p = np.recv @i : !np.pkt
      np.drop %p
    }
  }
}

// -----

module {
  np.graph @Inner {
    np.port @i in : !np.pkt
    np.instance @e of @E
    np.connect @i to @e::@i depth 1
  }
  np.graph @G attributes {top} {
    np.instance @s of @S
    // expected-error @below {{is not an element instance; run np-flatten-graph first}}
    np.instance @c of @Inner
    np.connect @s::@o to @c::@i depth 1
  }
  np.element @S {
    np.port @o out : !np.pkt
    np.handler {
      %c0 = arith.constant 0 : i32
      %p = np.device_recv %c0
      np.send @o, %p : !np.pkt
    }
  }
  np.element @E {
    np.port @i in : !np.pkt
    np.handler {
      %p = np.recv @i : !np.pkt
      np.drop %p
    }
  }
}
