// RUN: npcc-opt %s --c-convert-to-emitc -split-input-file -verify-diagnostics

// C returns one value: a function with two results has no lowering.
// expected-error @below {{failed to legalize operation 'func.func' that was explicitly marked illegal}}
func.func @two() -> (i32, i32) {
  %c = arith.constant 1 : i32
  return %c, %c : i32, i32
}

// -----

// Only statically shaped memrefs become C arrays.
func.func @dynamic(%m: memref<?xi32>, %i: index) -> i32 {
  // expected-error @below {{failed to legalize operation 'memref.load' that was explicitly marked illegal}}
  %v = memref.load %m[%i] : memref<?xi32>
  return %v : i32
}
