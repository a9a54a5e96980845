// RUN: npcc-opt %s --c-legalize-int-widths | FileCheck %s

// CHECK-LABEL: func.func @add_u4(
// CHECK-SAME: %[[A:.*]]: i8, %[[B:.*]]: i8) -> i8
// CHECK: %[[S:.*]] = arith.addi %[[A]], %[[B]] : i8
// CHECK: %[[M:.*]] = arith.constant 15 : i8
// CHECK: %[[R:.*]] = arith.andi %[[S]], %[[M]] : i8
// CHECK: return %[[R]]
func.func @add_u4(%a: i4, %b: i4) -> i4 {
  %s = arith.addi %a, %b : i4
  return %s : i4
}

// Signed compares sign-extend from bit 3 first: (x ^ 8) - 8.
// CHECK-LABEL: func.func @slt_i4(
// CHECK: %[[E:.*]] = arith.constant 8 : i8
// CHECK: arith.xori %{{.*}}, %[[E]] : i8
// CHECK: arith.subi
// CHECK: arith.cmpi slt
func.func @slt_i4(%a: i4, %b: i4) -> i1 {
  %r = arith.cmpi slt, %a, %b : i4
  return %r : i1
}

// Unsigned compares and bitwise ops need nothing.
// CHECK-LABEL: func.func @ult_u13(
// CHECK-NEXT: arith.xori %{{.*}}, %{{.*}} : i16
// CHECK-NEXT: arith.cmpi ult, %{{.*}}, %{{.*}} : i16
func.func @ult_u13(%a: i13, %b: i13) -> i1 {
  %x = arith.xori %a, %b : i13
  %r = arith.cmpi ult, %x, %b : i13
  return %r : i1
}

// Truncating a u48 to u13 is a mask within and below the containers.
// CHECK-LABEL: func.func @trunc(
// CHECK: arith.trunci %{{.*}} : i64 to i16
// CHECK: arith.constant 8191 : i16
// CHECK: arith.andi
func.func @trunc(%a: i48) -> i13 {
  %r = arith.trunci %a : i48 to i13
  return %r : i13
}

// Constants and memory take the container type.
// CHECK: memref.global "private" @g : memref<2xi8> = dense<[15, 1]>
memref.global "private" @g : memref<2xi4> = dense<[15, 1]>
// CHECK-LABEL: func.func @load(
// CHECK: memref.get_global @g : memref<2xi8>
// CHECK: arith.constant 3 : i8
func.func @load(%i: index) -> i4 {
  %m = memref.get_global @g : memref<2xi4>
  %v = memref.load %m[%i] : memref<2xi4>
  %c = arith.constant 3 : i4
  %r = arith.xori %v, %c : i4
  return %r : i4
}
