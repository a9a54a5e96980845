// RUN: npcc-opt %s | FileCheck %s
// RUN: npcc-opt %s | npcc-opt | FileCheck %s
// RUN: npcc-opt %s -mlir-print-op-generic | npcc-opt | FileCheck %s

// CHECK-LABEL: match.program @Tag attributes {header_words = 2 : i64, item_words = 3 : i64}
// CHECK: %[[H:.*]] = match.header_word 0 : i64
// CHECK: %[[I:.*]] = match.item_word 2 : i64
// CHECK: %[[F:.*]] = match.field %[[I]] {lsb = 16 : i64, width = 16 : i64} : i16
// CHECK: %[[G:.*]] = match.field %[[H]] {lsb = 63 : i64, width = 1 : i64} : i1
// CHECK: match.fail_if %{{.*}}
// CHECK: match.fail_if %[[G]]
// CHECK: match.accept %[[H]], %[[I]]
match.program @Tag attributes {header_words = 2, item_words = 3} {
  %h = match.header_word 0 : i64
  %i = match.item_word 2 : i64
  %f = match.field %i {lsb = 16 : i64, width = 16 : i64} : i16
  %g = match.field %h {lsb = 63 : i64, width = 1 : i64} : i1
  %c = arith.constant 7 : i16
  %ne = arith.cmpi ne, %f, %c : i16
  match.fail_if %ne
  match.fail_if %g
  match.accept %h, %i
}

// The default sizes are the list manager's 8 words.
// CHECK-LABEL: match.program @Defaults {
// CHECK: match.item_word 7 : i64
match.program @Defaults {
  %i = match.item_word 7 : i64
  match.accept %i, %i
}

// The rest of a program under an assumption: two regions, each ending in
// match.accept, using values defined before.
// CHECK-LABEL: match.program @Speculate {
// CHECK: match.speculate %[[S:.*]] {
// CHECK-NEXT: match.accept %[[O:.*]], %[[L:.*]]
// CHECK-NEXT: } otherwise {
// CHECK-NEXT: %[[SEL:.*]] = arith.select
// CHECK-NEXT: arith.cmpi ugt
// CHECK-NEXT: match.fail_if
// CHECK-NEXT: match.accept %[[SEL]], %[[L]]
match.program @Speculate {
  %i = match.item_word 0 : i64
  %h = match.header_word 0 : i64
  %f = match.field %i {lsb = 0 : i64, width = 8 : i64} : i8
  %c0 = arith.constant 0 : i8
  %c4 = arith.constant 4 : i8
  %a = arith.andi %f, %c4 : i8
  %flag = arith.cmpi ne, %a, %c0 : i8
  %simple = arith.cmpi eq, %a, %c0 : i8
  match.speculate %simple {
    match.accept %i, %h
  } otherwise {
    %o = arith.select %flag, %h, %i : i64
    %big = arith.cmpi ugt, %o, %h : i64
    match.fail_if %big
    match.accept %o, %h
  }
}

// The bit built-ins keep their operand's type.
// CHECK-LABEL: match.program @Bits
// CHECK: match.popcount %{{.*}} : i16
// CHECK: match.clz %{{.*}} : i13
// CHECK: match.ctz %{{.*}} : i64
// CHECK: match.bswap %{{.*}} : i16
match.program @Bits {
  %i = match.item_word 0 : i64
  %f = match.field %i {lsb = 16 : i64, width = 16 : i64} : i16
  %g = match.field %i {lsb = 3 : i64, width = 13 : i64} : i13
  %p = match.popcount %f : i16
  %l = match.clz %g : i13
  %t = match.ctz %i : i64
  %b = match.bswap %f : i16
  match.accept %t, %i
}
