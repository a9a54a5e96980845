// RUN: npcc-opt %s --verify-c-contract -split-input-file -verify-diagnostics
// RUN: npcc-opt %s --verify-c-contract -split-input-file -verify-diagnostics \
// RUN:   | FileCheck %s

module {
  emitc.func @f() {
    // expected-error @below {{'arith.constant' op cannot be printed as C; it was not lowered to EmitC}}
    %c = arith.constant 1 : i32
    emitc.return
  }
}

// -----

// No diagnostic here: -verify-diagnostics fails on any it did not expect.
module {
  emitc.func @g(%a: i32) -> i32 {
    emitc.return %a : i32
  }
}

// A module that is all EmitC passes unchanged.
// CHECK-LABEL: emitc.func @g(
// CHECK-NEXT:    emitc.return %arg0 : i32
