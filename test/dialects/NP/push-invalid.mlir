// RUN: npcc-opt %s -split-input-file -verify-diagnostics

// The ops of np-fuse: np.push bodies, np.fused_send, and the `fused`
// channels of np.connect and np.program, which must agree with both.

np.element @E {
  np.port @o out : !np.pkt
  np.handler {}
  // expected-error @below {{'o' is not an input port of element 'E'}}
  np.push @o {
  ^bb0(%p: !np.pkt):
    np.drop %p
  }
}

// -----

np.element @E {
  np.port @i in : !np.pkt
  np.handler {}
  // expected-error @below {{'nope' is not an input port of element 'E'}}
  np.push @nope {
  ^bb0(%p: !np.pkt):
    np.drop %p
  }
}

// -----

np.element @E {
  np.port @i in : i32 // expected-note {{declared here}}
  np.handler {}
  // expected-error @below {{value type 'i16' does not match the type 'i32' of port 'i'}}
  np.push @i {
  ^bb0(%v: i16):
  }
}

// -----

np.element @E {
  np.port @i in : i32
  np.handler {}
  // expected-error @below {{body must take an optional '!np.self' followed by the value, of the port's type}}
  np.push @i {
  ^bb0(%self: !np.self):
  }
}

// -----

np.element @E {
  np.port @i in : i32
  np.handler {}
  // expected-error @below {{body must take an optional '!np.self' followed by the value, of the port's type}}
  np.push @i {
  ^bb0(%a: i32, %b: i32):
  }
}

// -----

np.element @E {
  np.port @i in : i32
  np.handler {}
  // expected-error @below {{body must not receive: the value is its argument, found 'np.recv'}}
  np.push @i {
  ^bb0(%v: i32):
    %w = np.recv @i : i32 // expected-note {{found here}}
  }
}

// -----

np.element @E {
  np.port @i in : i32
  np.handler {}
  // expected-error @below {{body must not end its instance, found 'np.finish'}}
  np.push @i {
  ^bb0(%v: i32):
    %c = arith.constant true
    scf.if %c {
      np.finish // expected-note {{found here}}
    }
  }
}

// -----

np.element @E {
  np.port @i in : i32
  np.handler {}
  // expected-error @below {{body must not receive: the value is its argument, found 'np.device_recv'}}
  np.push @i {
  ^bb0(%v: i32):
    %dev = arith.constant 0 : i32
    %p = np.device_recv %dev // expected-note {{found here}}
    np.drop %p
  }
}

// -----

np.element @E {
  np.port @i in : i32
  np.handler {}
  np.push @i { // expected-note {{first defined here}}
  ^bb0(%v: i32):
  }
  // expected-error @below {{for port 'i' is defined twice}}
  np.push @i {
  ^bb0(%v: i32):
  }
}

// -----

np.element @E {
  np.port @o out : i32
  np.handler {
    %c = arith.constant 1 : i32
    // expected-error @below {{target @F must be '@element::@port'}}
    np.fused_send @o, %c to @F : i32
  }
}

// -----

np.element @E {
  np.port @o out : i32
  np.handler {
    %c = arith.constant 1 : i32
    // expected-error @below {{'F' does not name an 'np.element'}}
    np.fused_send @o, %c to @F::@i : i32
  }
}

// -----

np.element @E {
  np.port @o out : i32
  np.handler {
    %c = arith.constant 1 : i32
    // expected-error @below {{element 'F' has no 'np.push' body for port 'i'}}
    np.fused_send @o, %c to @F::@i : i32
  }
}
np.element @F { // expected-note {{element declared here}}
  np.port @i in : i32
  np.handler {}
}

// -----

np.element @E {
  np.port @o out : i32
  np.handler {
    %c = arith.constant 1 : i32
    // expected-error @below {{operand type 'i32' does not match the type 'i16' the 'np.push' body takes}}
    np.fused_send @o, %c to @F::@i : i32
  }
}
np.element @F {
  np.port @i in : i16
  np.handler {}
  np.push @i { // expected-note {{push body here}}
  ^bb0(%v: i16):
  }
}

// -----

np.element @E {
  np.port @x in : i32 // expected-note {{declared here}}
  np.handler {
    %c = arith.constant 1 : i32
    // expected-error @below {{expects out port, but 'x' is in}}
    np.fused_send @x, %c to @E::@x : i32
  }
  np.push @x {
  ^bb0(%v: i32):
  }
}

// -----

np.graph @G attributes {top} {
  np.instance @a of @A
  np.instance @b of @B
  // expected-error @below {{cannot be both lossy and fused: a lossy channel drops when full}}
  np.connect lossy fused @a::@o to @b::@i depth 4
}
np.element @A {
  np.port @o out : i32
  np.handler {}
}
np.element @B {
  np.port @i in : i32
  np.handler {}
}

// -----

np.graph @G attributes {top} {
  np.instance @a of @A
  np.instance @b of @B
  // expected-error @below {{is fused, but element 'B' has no 'np.push' body for port 'i'}}
  np.connect fused @a::@o to @b::@i depth 4
}
np.element @A {
  np.port @o out : i32
  np.handler {}
}
np.element @B { // expected-note {{element declared here}}
  np.port @i in : i32
  np.handler {}
}

// -----

np.graph @G attributes {top} {
  np.instance @a of @A
  np.instance @b of @B
  // expected-error @below {{is fused, but element 'A' sends on 'o' with 'np.send'}}
  np.connect fused @a::@o to @b::@i depth 4
}
np.element @A {
  np.port @o out : i32
  np.handler {
    %c = arith.constant 1 : i32
    np.send @o, %c : i32 // expected-note {{sent here}}
  }
}
np.element @B {
  np.port @i in : i32
  np.handler {}
  np.push @i {
  ^bb0(%v: i32):
  }
}

// -----

np.graph @G attributes {top} {
  np.instance @a of @A
  np.instance @b of @B
  np.instance @c of @C
  // expected-error @below {{is fused to 'B::i', but an 'np.fused_send' on 'o' calls @C::@i}}
  np.connect fused @a::@o to @b::@i depth 4
  np.connect @c::@o to @c::@i depth 4
}
np.element @A {
  np.port @o out : i32
  np.handler {
    %c = arith.constant 1 : i32
    np.fused_send @o, %c to @C::@i : i32 // expected-note {{sent here}}
  }
}
np.element @B {
  np.port @i in : i32
  np.handler {}
  np.push @i {
  ^bb0(%v: i32):
  }
}
np.element @C {
  np.port @i in : i32
  np.port @o out : i32
  np.handler {}
  np.push @i {
  ^bb0(%v: i32):
  }
}

// -----

np.graph @G attributes {top} {
  np.instance @a of @A
  np.instance @b of @B
  // expected-error @below {{is not fused, but element 'A' sends on 'o' with 'np.fused_send'}}
  np.connect @a::@o to @b::@i depth 4
}
np.element @A {
  np.port @o out : i32
  np.handler {
    %c = arith.constant 1 : i32
    np.fused_send @o, %c to @B::@i : i32 // expected-note {{sent here}}
  }
}
np.element @B {
  np.port @i in : i32
  np.handler {}
  np.push @i {
  ^bb0(%v: i32):
  }
}

// -----

np.graph @G {
  np.port @out out : i32
  np.instance @a of @A
  // expected-error @below {{is fused, but its destination is not a port of an element instance}}
  np.connect fused @a::@o to @out depth 4
}
np.element @A {
  np.port @o out : i32
  np.handler {}
}

// -----

np.graph @G {
  np.port @in in : i32
  np.instance @b of @B
  // expected-error @below {{is fused, but its source is not a port of an element instance}}
  np.connect fused @in to @b::@i depth 4
}
np.element @B {
  np.port @i in : i32
  np.handler {}
  np.push @i {
  ^bb0(%v: i32):
  }
}

// -----

np.element @A {
  np.port @o out : i32
  np.handler {}
}
np.element @B { // expected-note {{element declared here}}
  np.port @i in : i32
  np.handler {}
}
// expected-error @below {{channel 0 is fused, but element 'B' has no 'np.push' body for port 'i'}}
np.program @P elements [@A, @B] names ["a", "b"] placements ["npu", "npu"] channels [array<i64: 0, 0, 1, 0, 4, 0, 1>]

// -----

np.element @A {
  np.port @o out : i32
  np.handler {
    %c = arith.constant 1 : i32
    np.fused_send @o, %c to @B::@i : i32 // expected-note {{sent here}}
  }
}
np.element @B {
  np.port @i in : i32
  np.handler {}
  np.push @i {
  ^bb0(%v: i32):
  }
}
// expected-error @below {{channel 0 is not fused, but element 'A' sends on 'o' with 'np.fused_send'}}
np.program @P elements [@A, @B] names ["a", "b"] placements ["npu", "npu"] channels [array<i64: 0, 0, 1, 0, 4, 0, 0>]

// -----

// np.call_push (c-convert-np-to-emitc): a handler's call of its element's
// push body for a port.
// expected-note @below {{element declared here}}
np.element @E {
  np.port @i in : !np.pkt
  np.handler {
  ^bb0(%self: !np.self):
    %p = np.recv @i : !np.pkt
    // expected-error @below {{element 'E' has no 'np.push' body for port 'i'}}
    np.call_push @i(%self, %p) : !np.pkt
  }
}

// -----

np.element @E {
  np.port @i in : i32
  np.handler {
  ^bb0(%self: !np.self):
    %v = np.recv @i : i32
    %w = arith.trunci %v : i32 to i16
    // expected-error @below {{operand type 'i16' does not match the type 'i32' the 'np.push' body takes}}
    np.call_push @i(%self, %w) : i16
  }
  // expected-note @below {{push body here}}
  np.push @i {
  ^bb0(%self: !np.self, %v: i32):
  }
}

// -----

np.element @E {
  np.port @i in : i32
  np.handler {}
  np.push @i {
  ^bb0(%self: !np.self, %v: i32):
    // expected-error @below {{must be directly in an 'np.handler'}}
    np.call_push @i(%self, %v) : i32
  }
}
