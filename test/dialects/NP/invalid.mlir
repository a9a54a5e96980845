// RUN: npcc-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// np.element
//===----------------------------------------------------------------------===//

// expected-error @+1 {{'np.element' op may contain only 'np.port', 'np.state', 'np.init', 'np.handler', 'np.signal', 'np.timer', 'np.fini', 'np.control' and 'np.push', found 'arith.constant'}}
np.element @E {
  %c = arith.constant 0 : i32 // expected-note {{found here}}
  np.handler {}
}

// -----

// expected-error @+1 {{'np.element' op has more than one 'np.handler'}}
np.element @E {
  np.handler {}
  np.handler {} // expected-note {{second one here}}
}

// -----

// expected-error @+1 {{'np.element' op has no 'np.handler'}}
np.element @E {
  np.init {}
}

// -----

np.element @E {
  // expected-error @+1 {{'np.port' op type must be '!np.pkt' or a signless integer, found 'f32'}}
  np.port @p in : f32
  np.handler {}
}

// -----

np.element @E {
  // expected-error @+1 {{'np.state' op type must be a statically shaped memref of signless integers, found 'memref<?xi32>'}}
  np.state @s : memref<?xi32>
  np.handler {}
}

// -----

np.element @E {
  // expected-error @+1 {{'np.state' op type must be a statically shaped memref of signless integers, found 'memref<4xf32>'}}
  np.state @s : memref<4xf32>
  np.handler {}
}

// -----

np.element @E {
  // expected-error @+1 {{'np.state' op unknown merge "avg"; expected sum, or, umax, smax, umin or smin}}
  np.state @s : memref<2xi32> merge "avg"
  np.handler {}
}

// -----

np.element @E {
  // expected-error @+1 {{'np.state' op shared state has one copy and cannot merge}}
  np.state shared @s : memref<1xi32> merge "sum"
  np.handler {}
}

// -----

np.element @E {
  // expected-error @+1 {{'np.state' op initial value of type 'tensor<3xi32>' does not match the state type 'memref<2xi32>'}}
  "np.state"() <{sym_name = "s", type = memref<2xi32>, initial_value = dense<0> : tensor<3xi32>}> : () -> ()
  np.handler {}
}

// -----

np.element @E {
  // expected-error @+1 {{initial value must be an elements attribute}}
  np.state @s : i32 = 5
  np.handler {}
}

// -----

// Every element of a source name declares the shared states of the first.
np.element @E {
  np.state shared @n : memref<1xi16> = dense<1> // expected-note {{that state is declared here}}
  np.handler {}
}
np.element @E_1 attributes {origin = "E"} {
  // expected-error @+1 {{'np.state' op differs from the shared state of 'E', the first element of source name 'E'}}
  np.state shared @n : memref<1xi16> = dense<2>
  np.handler {}
}

// -----

np.element @E {
  np.state shared @n : memref<1xi16> = dense<1> // expected-note {{that state is declared here}}
  np.handler {}
}
np.element @E_1 attributes {origin = "E"} {
  // expected-error @+1 {{'np.state' op differs from the shared state of 'E', the first element of source name 'E'}}
  np.state shared @n : memref<1xi32> = dense<1>
  np.handler {}
}

// -----

np.element @E { // expected-note {{that element is here}}
  np.state @n : memref<1xi16>
  np.handler {}
}
np.element @E_1 attributes {origin = "E"} {
  // expected-error @+1 {{'np.state' op is not the shared state of 'E', the first element of source name 'E'}}
  np.state shared @n : memref<1xi16>
  np.handler {}
}

// -----

np.element @Tag attributes {origin = "E"} {
  np.state shared @n : memref<1xi16> // expected-note {{declared here}}
  np.handler {}
}
// expected-error @+1 {{'np.element' op lacks shared state 'n' of 'Tag', the first element of source name 'E'}}
np.element @E {
  np.state @n : memref<1xi16>
  np.handler {}
}

// -----

func.func @f() {
  // expected-error @+1 {{'np.state_ref' op must be nested in an 'np.element'}}
  %m = np.state_ref @s : memref<1xi32>
  return
}

// -----

np.element @E {
  np.port @p in : i32
  np.handler {
    // expected-error @+1 {{'np.state_ref' op 'p' does not name an 'np.state' of element 'E'}}
    %m = np.state_ref @p : memref<1xi32>
  }
}

// -----

np.element @E {
  np.state @s : memref<1xi64> // expected-note {{declared here}}
  np.handler {
    // expected-error @+1 {{'np.state_ref' op result type 'memref<1xi32>' does not match the type 'memref<1xi64>' of state 's'}}
    %m = np.state_ref @s : memref<1xi32>
  }
}

// -----

np.element @E {
  np.handler {}
  // expected-error @+1 {{'np.signal' op body must take an optional '!np.self' followed by exactly one argument, of type 'i64'}}
  np.signal {
  ^bb0(%msg: i32):
  }
}

// -----

//===----------------------------------------------------------------------===//
// np.graph, np.instance, np.connect
//===----------------------------------------------------------------------===//

np.element @F {
  np.port @in in : !np.pkt
  np.port @out out : !np.pkt
  np.handler {}
}
np.graph @G {
  // expected-error @+1 {{'np.instance' op placement must be 'npu', 'fpga' or 'host', found 'gpu'}}
  np.instance @a of @F {placement = "gpu"}
}

// -----

np.graph @G {
  // expected-error @+1 {{'np.instance' op no element or graph named 'Missing'}}
  np.instance @a of @Missing
}

// -----

func.func private @f() // expected-note {{declared here}}
np.graph @G {
  // expected-error @+1 {{'np.instance' op 'f' is not an 'np.element' or 'np.graph'}}
  np.instance @a of @f
}

// -----

np.graph @G {
  np.port @in in : !np.pkt
  np.port @out out : !np.pkt
  // expected-error @+1 {{'np.connect' op end @a::@b::@c must be '@instance::@port' or '@port'}}
  np.connect @a::@b::@c to @out depth 0
}

// -----

np.graph @G {
  np.port @in in : !np.pkt
  np.port @out out : !np.pkt
  // expected-error @+1 {{'np.connect' op depth must not be negative, found -1}}
  np.connect @in to @out depth -1
}

// -----

// expected-error @+1 {{'np.graph' op may contain only 'np.port', 'np.instance' and 'np.connect', found 'np.element'}}
np.graph @G {
  np.element @E { // expected-note {{found here}}
    np.handler {}
  }
}

// -----

np.element @F {
  np.port @in in : !np.pkt
  np.port @out out : !np.pkt
  np.handler {}
}
// expected-error @+1 {{'np.graph' op instantiates itself}}
np.graph @G {
  np.port @in in : !np.pkt
  np.port @out out : !np.pkt
  np.instance @f of @F
  np.instance @g of @G // expected-note {{through this instance: 'G' -> 'G'}}
  np.connect @in to @g::@in depth 0
  np.connect @g::@out to @f::@in depth 0
  np.connect @f::@out to @out depth 0
}

// -----

np.element @F {
  np.port @in in : !np.pkt
  np.port @out out : !np.pkt
  np.handler {}
}
np.graph @G {
  np.port @in in : !np.pkt
  np.port @out out : !np.pkt
  np.instance @a of @F
  // expected-error @+1 {{'np.connect' op graph 'G' has no instance named 'b'}}
  np.connect @in to @b::@in depth 0
}

// -----

np.element @F {
  np.port @in in : !np.pkt
  np.port @out out : !np.pkt
  np.handler {}
}
np.graph @G {
  np.port @in in : !np.pkt
  np.port @out out : !np.pkt
  np.instance @a of @F // expected-note {{instance declared here}}
  // expected-error @+1 {{'np.connect' op 'F' has no port named 'x'}}
  np.connect @in to @a::@x depth 0
}

// -----

np.graph @G {
  np.port @in in : !np.pkt
  np.port @out out : !np.pkt
  // expected-error @+1 {{'np.connect' op graph 'G' has no boundary port named 'x'}}
  np.connect @in to @x depth 0
}

// -----

np.element @F {
  np.port @in in : !np.pkt // expected-note {{declared here}}
  np.port @out out : !np.pkt
  np.handler {}
}
np.graph @G {
  np.port @out out : !np.pkt
  np.instance @a of @F
  // expected-error @+1 {{'np.connect' op source 'a.in' must be an output port of an instance or an input boundary port}}
  np.connect @a::@in to @out depth 0
}

// -----

np.graph @G {
  np.port @in in : !np.pkt
  np.port @out out : !np.pkt // expected-note {{declared here}}
  // expected-error @+1 {{'np.connect' op source 'out' must be an output port of an instance or an input boundary port}}
  np.connect @out to @in depth 0
}

// -----

np.element @F {
  np.port @in in : !np.pkt
  np.port @out out : !np.pkt // expected-note {{declared here}}
  np.handler {}
}
np.graph @G {
  np.port @in in : !np.pkt
  np.instance @a of @F
  // expected-error @+1 {{'np.connect' op destination 'a.out' must be an input port of an instance or an output boundary port}}
  np.connect @in to @a::@out depth 0
}

// -----

np.graph @G {
  np.port @in in : !np.pkt // expected-note {{declared here}}
  np.port @in2 in : !np.pkt
  // expected-error @+1 {{'np.connect' op destination 'in' must be an input port of an instance or an output boundary port}}
  np.connect @in2 to @in depth 0
}

// -----

np.element @A {
  np.port @o out : !np.pkt // expected-note {{declared here}}
  np.handler {}
}
np.element @B {
  np.port @i in : i32 // expected-note {{declared here}}
  np.handler {}
}
np.graph @G {
  np.instance @a of @A
  np.instance @b of @B
  // expected-error @+1 {{'np.connect' op connection from 'a.o' of type '!np.pkt' to 'b.i' of type 'i32'}}
  np.connect @a::@o to @b::@i depth 0
}

// -----

np.element @A {
  np.port @o out : !np.pkt
  np.handler {}
}
np.element @B {
  np.port @i in : !np.pkt
  np.handler {}
}
np.graph @G {
  np.instance @a of @A
  np.instance @b of @B
  np.instance @c of @B
  np.connect @a::@o to @b::@i depth 0 // expected-note {{first connection here}}
  // expected-error @+1 {{'np.connect' op port 'a.o' is already connected}}
  np.connect @a::@o to @c::@i depth 0
}

// -----

np.graph @G {
  np.port @in in : !np.pkt
  np.port @out out : !np.pkt
  np.connect @in to @out depth 0
  // expected-error @+1 {{'np.port' op input boundary port 'unused' of graph 'G' is not connected}}
  np.port @unused in : i32
}

// -----

np.element @F {
  np.port @in in : !np.pkt
  np.port @out out : !np.pkt // expected-note {{declared here}}
  np.handler {}
}
np.graph @G {
  np.port @in in : !np.pkt
  // expected-error @+1 {{'np.instance' op output port 'out' of instance 'c' is not connected}}
  np.instance @c of @F
  np.connect @in to @c::@in depth 0
}

// -----

//===----------------------------------------------------------------------===//
// Channel operations
//===----------------------------------------------------------------------===//

func.func @f() {
  // expected-error @+1 {{'np.recv' op must be nested in an 'np.element'}}
  %p = np.recv @in : !np.pkt
  return
}

// -----

np.element @E {
  np.handler {
    // expected-error @+1 {{'np.recv' op element 'E' has no port named 'in'}}
    %p = np.recv @in : !np.pkt
  }
}

// -----

np.element @E {
  np.port @out out : !np.pkt // expected-note {{declared here}}
  np.handler {
    // expected-error @+1 {{'np.recv' op expects in port, but 'out' is out}}
    %p = np.recv @out : !np.pkt
  }
}

// -----

np.element @E {
  np.port @in in : i32 // expected-note {{declared here}}
  np.handler {
    // expected-error @+1 {{'np.recv' op result type '!np.pkt' does not match the type 'i32' of port 'in'}}
    %p = np.recv @in : !np.pkt
  }
}

// -----

func.func @f() {
  // expected-error @+1 {{'np.try_recv' op must be nested in an 'np.element'}}
  %ok, %p = np.try_recv @in : !np.pkt
  return
}

// -----

np.element @E {
  np.handler {
    // expected-error @+1 {{'np.try_recv' op element 'E' has no port named 'in'}}
    %ok, %p = np.try_recv @in : !np.pkt
  }
}

// -----

np.element @E {
  np.port @out out : !np.pkt // expected-note {{declared here}}
  np.handler {
    // expected-error @+1 {{'np.try_recv' op expects in port, but 'out' is out}}
    %ok, %p = np.try_recv @out : !np.pkt
  }
}

// -----

np.element @E {
  np.port @in in : i32 // expected-note {{declared here}}
  np.handler {
    // expected-error @+1 {{'np.try_recv' op result type '!np.pkt' does not match the type 'i32' of port 'in'}}
    %ok, %p = np.try_recv @in : !np.pkt
  }
}

// -----

func.func @f(%v: i32) {
  // expected-error @+1 {{'np.send' op must be nested in an 'np.element'}}
  np.send @out, %v : i32
  return
}

// -----

np.element @E {
  np.handler {
    %v = arith.constant 0 : i32
    // expected-error @+1 {{'np.send' op element 'E' has no port named 'out'}}
    np.send @out, %v : i32
  }
}

// -----

np.element @E {
  np.port @in in : i32 // expected-note {{declared here}}
  np.handler {
    %v = arith.constant 0 : i32
    // expected-error @+1 {{'np.send' op expects out port, but 'in' is in}}
    np.send @in, %v : i32
  }
}

// -----

np.element @E {
  np.port @out out : !np.pkt // expected-note {{declared here}}
  np.handler {
    %v = arith.constant 0 : i32
    // expected-error @+1 {{'np.send' op operand type 'i32' does not match the type '!np.pkt' of port 'out'}}
    np.send @out, %v : i32
  }
}

// -----

func.func @f() {
  // expected-error @+1 {{'np.select' op must be nested in an 'np.element'}}
  %i = np.select [@a]
  return
}

// -----

np.element @E {
  np.handler {
    // expected-error @+1 {{'np.select' op expects at least one port}}
    %i = np.select []
  }
}

// -----

np.element @E {
  np.port @a in : i32
  np.handler {
    // expected-error @+1 {{'np.select' op lists port @a more than once}}
    %i = np.select [@a, @a]
  }
}

// -----

np.element @E {
  np.port @a in : i32
  np.handler {
    // expected-error @+1 {{'np.select' op element 'E' has no port named 'b'}}
    %i = np.select [@a, @b]
  }
}

// -----

np.element @E {
  np.port @a in : i32
  np.port @o out : i32 // expected-note {{declared here}}
  np.handler {
    // expected-error @+1 {{'np.select' op expects in port, but 'o' is out}}
    %i = np.select [@a, @o]
  }
}

// -----

//===----------------------------------------------------------------------===//
// Packet operations
//===----------------------------------------------------------------------===//

func.func @f(%p: !np.pkt, %off: i64) {
  // expected-error @+1 {{'np.pkt_get' op width must be in [1, 64], found 128}}
  %v = np.pkt_get %p, %off {width = 128 : i32} : i128
  return
}

// -----

func.func @f(%p: !np.pkt, %off: i64) {
  // expected-error @+1 {{'np.pkt_get' op width 8 does not match type 'i16'}}
  %v = np.pkt_get %p, %off {width = 8 : i32} : i16
  return
}

// -----

func.func @f(%p: !np.pkt, %off: i64, %v: i1) {
  // expected-error @+1 {{'np.pkt_set' op width must be in [1, 64], found 0}}
  np.pkt_set %p, %off, %v {width = 0 : i32} : i1
  return
}

// -----

func.func @f(%p: !np.pkt, %off: i64, %v: i16) {
  // expected-error @+1 {{'np.pkt_set' op width 12 does not match type 'i16'}}
  np.pkt_set %p, %off, %v {width = 12 : i32} : i16
  return
}

// -----

func.func @f(%p: !np.pkt) {
  // expected-error @+1 {{'np.meta_get' op unknown metadata field 'color'; expected 'in_port', 'paint', 'out_port', 'anno' or 'ts'}}
  %v = np.meta_get %p "color" : i32
  return
}

// -----

func.func @f(%p: !np.pkt) {
  // expected-error @+1 {{'np.meta_get' op metadata field 'anno' has type 'i64', found 'i32'}}
  %v = np.meta_get %p "anno" : i32
  return
}

// -----

func.func @f(%p: !np.pkt, %v: i32) {
  // expected-error @+1 {{'np.meta_set' op unknown metadata field 'color'; expected 'in_port', 'paint', 'out_port', 'anno' or 'ts'}}
  np.meta_set %p "color", %v : i32
  return
}

// -----

func.func @f(%p: !np.pkt, %v: i64) {
  // expected-error @+1 {{'np.meta_set' op metadata field 'paint' has type 'i32', found 'i64'}}
  np.meta_set %p "paint", %v : i64
  return
}

// -----

np.element @E {
  // expected-error @below {{'np.handler' op body must take an optional '!np.self' followed by no arguments}}
  np.handler {
  ^bb0(%x: i64):
  }
}

// -----

np.element @E {
  // expected-error @below {{'np.signal' op body must take an optional '!np.self' followed by exactly one argument, of type 'i64'}}
  np.signal {
  ^bb0(%x: i64, %self: !np.self):
  }
  np.handler {}
}

// -----

np.element @E {
  np.state @n : memref<1xi64>
  np.handler {
  ^bb0(%self: !np.self):
    // expected-error @below {{'np.state_field' op 'm' does not name an 'np.state' of element 'E'}}
    %m = np.state_field %self @m : memref<1xi64>
  }
}

// -----

np.element @E {
  // expected-note @below {{declared here}}
  np.state @n : memref<1xi64>
  np.handler {
  ^bb0(%self: !np.self):
    // expected-error @below {{'np.state_field' op result type 'memref<2xi64>' does not match the type 'memref<1xi64>' of state 'n'}}
    %m = np.state_field %self @n : memref<2xi64>
  }
}

// -----

np.element @E {
  np.state @n : memref<1xi64>
  np.init {
  ^bb0(%self: !np.self):
    np.yield
  }
  np.handler {
  ^bb0(%self: !np.self):
    %r = scf.execute_region -> memref<1xi64> {
    ^bb0:
      %m = np.state_field %self @n : memref<1xi64>
      scf.yield %m : memref<1xi64>
    }
  }
}

// -----

np.element @E {
  np.handler {
    %done = arith.constant true
    // expected-error @+1 {{'np.exit_loop_if' op expects parent op 'scf.for'}}
    np.exit_loop_if %done
  }
}

// -----

np.element @TwoCounts {
  // expected-note @+1 {{first defined here}}
  np.control attributes {name = "count", result_kind = 32 : i32, param_kinds = array<i32>, param_defaults = array<i64>} {
  }
  // expected-error @+1 {{'np.control' op handler 'count' is defined twice}}
  np.control attributes {name = "count", result_kind = 32 : i32, param_kinds = array<i32>, param_defaults = array<i64>} {
  }
  np.handler {
  }
}

// -----

np.element @ReadWithParams {
  // expected-error @+1 {{'np.control' op a read handler takes no parameters}}
  np.control attributes {name = "r", result_kind = 32 : i32, param_kinds = array<i32: 32>, param_defaults = array<i64: 0>} {
  }
  np.handler {
  }
}

// -----

np.element @WriteWithResult {
  // expected-error @+1 {{'np.control' op a write handler gives no result}}
  np.control attributes {name = "w", write, result_kind = 0 : i32, param_kinds = array<i32>, param_defaults = array<i64>} {
    %c = arith.constant 1 : i32
    np.handler_result %c : i32
  }
  np.handler {
  }
}

// -----

np.element @ArgOutsideControl {
  np.handler {
    // expected-error @+1 {{'np.handler_arg' op expects parent op 'np.control'}}
    %a = np.handler_arg 0 : i32
  }
}
