// RUN: npcc-opt --c-annotate-costs %s | FileCheck %s
// c-annotate-costs on EmitC written by hand: each block's cost from the
// table (targets/c/CostTable.cpp) at its start, code offsets in the order
// the blocks are annotated (nested blocks first), and an access before the
// statement that reads or writes a state element.

// One add (1), one mul (4), one div (35) and the return (2): 42 cycles in
// 4 instructions, 16 bytes of code.
// CHECK-LABEL: emitc.func @arith
// CHECK-NEXT: emitc.call_opaque "NPRT_SIM_BLOCK"() {args = [#emitc.opaque<"42u">, #emitc.opaque<"0u">, #emitc.opaque<"16u">]}
emitc.func @arith(%a: i32, %b: i32) -> i32 {
  %0 = emitc.add %a, %b : (i32, i32) -> i32
  %1 = emitc.mul %0, %b : (i32, i32) -> i32
  %2 = emitc.div %1, %a : (i32, i32) -> i32
  emitc.return %2 : i32
}

// A loop: its body pays the compare, increment and branch (2) besides its
// add (1); the block around it pays the loop's set-up (2) and the return
// (2). The body is annotated first: offset 16, then the function at 28.
// CHECK-LABEL: emitc.func @loop
// CHECK-NEXT: emitc.call_opaque "NPRT_SIM_BLOCK"() {args = [#emitc.opaque<"4u">, #emitc.opaque<"28u">, #emitc.opaque<"12u">]}
// CHECK: emitc.for
// CHECK-NEXT: emitc.call_opaque "NPRT_SIM_BLOCK"() {args = [#emitc.opaque<"3u">, #emitc.opaque<"16u">, #emitc.opaque<"12u">]}
emitc.func @loop(%n: index) {
  %c0 = "emitc.constant"() <{value = 0 : index}> : () -> index
  %c1 = "emitc.constant"() <{value = 1 : index}> : () -> index
  emitc.for %i = %c0 to %n step %c1 {
    %x = emitc.add %i, %c1 : (index, index) -> index
  }
  emitc.return
}

// A state element read and written through the state object's pointer:
// NPRT_SIM_RD before the statement that uses the read, NPRT_SIM_WR before
// the assignment; a local array is not state.
// CHECK-LABEL: emitc.func @state
// CHECK: %[[R:.*]] = emitc.subscript %{{.*}}[%{{.*}}]
// CHECK: emitc.call_opaque "NPRT_SIM_RD"(%[[R]])
// CHECK-NEXT: emitc.add %[[R]]
// CHECK: %[[W:.*]] = emitc.subscript %{{.*}}[%{{.*}}]
// CHECK-NEXT: emitc.call_opaque "NPRT_SIM_WR"(%[[W]])
// CHECK-NEXT: emitc.assign %{{.*}} : i32 to %[[W]]
// CHECK-NOT: NPRT_SIM_RD
// CHECK: emitc.return
emitc.func @state(%s: !emitc.ptr<!emitc.opaque<"state_t">>, %i: index) {
  %arr = "emitc.member_of_ptr"(%s) <{member = "f"}> : (!emitc.ptr<!emitc.opaque<"state_t">>) -> !emitc.array<4xi32>
  %r = emitc.subscript %arr[%i] : (!emitc.array<4xi32>, index) -> i32
  %c1 = "emitc.constant"() <{value = 1 : i32}> : () -> i32
  %v = emitc.add %r, %c1 : (i32, i32) -> i32
  %w = emitc.subscript %arr[%i] : (!emitc.array<4xi32>, index) -> i32
  emitc.assign %v : i32 to %w : i32
  %local = "emitc.variable"() <{value = #emitc.opaque<"">}> : () -> !emitc.array<4xi32>
  %l = emitc.subscript %local[%i] : (!emitc.array<4xi32>, index) -> i32
  %u = emitc.add %l, %c1 : (i32, i32) -> i32
  emitc.return
}

// main() only hands the program to the runtime: no annotation.
// CHECK-LABEL: emitc.func @main
// CHECK-NOT: NPRT_SIM
// CHECK: emitc.return
emitc.func @main() -> i32 {
  %c0 = "emitc.constant"() <{value = 0 : i32}> : () -> i32
  emitc.return %c0 : i32
}
