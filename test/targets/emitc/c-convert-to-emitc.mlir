// RUN: npcc-opt %s --c-convert-to-emitc | FileCheck %s

// The operations ArithToEmitC 19 lacks are lowered here; memref and index
// go through one type converter.

// CHECK-LABEL: emitc.func @udiv(
// CHECK: emitc.cast %{{.*}} : i32 to ui32
// CHECK: emitc.div %{{.*}}, %{{.*}} : (ui32, ui32) -> ui32
func.func @udiv(%a: i32, %b: i32) -> i32 {
  %r = arith.divui %a, %b : i32
  return %r : i32
}

// CHECK-LABEL: emitc.func @urem(
// CHECK: emitc.rem %{{.*}}, %{{.*}} : (ui16, ui16) -> ui16
func.func @urem(%a: i16, %b: i16) -> i16 {
  %r = arith.remui %a, %b : i16
  return %r : i16
}

// CHECK-LABEL: emitc.func @umin(
// CHECK: emitc.cmp lt
// CHECK: emitc.conditional
func.func @umin(%a: i8, %b: i8) -> i8 {
  %r = arith.minui %a, %b : i8
  return %r : i8
}

// CHECK-LABEL: emitc.func @state(
// CHECK-SAME: specifiers = ["static"]
// CHECK: emitc.subscript
func.func private @state(%i: index) -> i32 {
  %m = memref.alloca() : memref<4xi32>
  %v = memref.load %m[%i] : memref<4xi32>
  return %v : i32
}
