// RUN: npcc-opt %s -split-input-file -match-speculate-option-flags | FileCheck %s
// RUN: npcc-opt %s -split-input-file -match-speculate-option-flags | npcc-opt -split-input-file | FileCheck %s

// Two flags of one field guard the arithmetic of the answer and of a
// check: the test (flags & 6) == 0 chooses between the folded copy and the
// original, which is moved unchanged. The first check has no arithmetic
// and stays before the split, for every item.
// CHECK-LABEL: match.program @TwoFlags
// CHECK: %[[TAG:.*]] = arith.cmpi ne, %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: match.fail_if %[[TAG]]
// CHECK: %[[M:.*]] = arith.constant 6 : i16
// CHECK: %[[Z:.*]] = arith.constant 0 : i16
// CHECK: %[[A:.*]] = arith.andi %[[FLAGS:.*]], %[[M]] : i16
// CHECK: %[[S:.*]] = arith.cmpi eq, %[[A]], %[[Z]] : i16
// CHECK: match.speculate %[[S]] {
// CHECK-NEXT: match.accept %[[LOCAL:.*]], %[[LEN:.*]]
// CHECK-NEXT: } otherwise {
// CHECK-NEXT: match.fail_if %[[BIG:.*]]
// CHECK-NEXT: match.accept %[[OFF:.*]], %[[LEN]]
// CHECK-NEXT: }
match.program @TwoFlags {
  %h0 = match.header_word 0 : i64
  %h1 = match.header_word 1 : i64
  %i0 = match.item_word 0 : i64
  %i1 = match.item_word 1 : i64
  %i2 = match.item_word 2 : i64
  %ht = match.field %h0 {lsb = 0 : i64, width = 32 : i64} : i32
  %it = match.field %i0 {lsb = 0 : i64, width = 32 : i64} : i32
  %flags = match.field %i0 {lsb = 32 : i64, width = 16 : i64} : i16
  %c0 = arith.constant 0 : i16
  %c2 = arith.constant 2 : i16
  %c4 = arith.constant 4 : i16
  %tag = arith.cmpi ne, %it, %ht : i32
  match.fail_if %tag
  %a2 = arith.andi %flags, %c2 : i16
  %remote = arith.cmpi ne, %a2, %c0 : i16
  %off = arith.select %remote, %h1, %i1 : i64
  %a4 = arith.andi %flags, %c4 : i16
  %limit = arith.cmpi ne, %a4, %c0 : i16
  %over = arith.cmpi ugt, %h1, %i2 : i64
  %big = arith.andi %limit, %over : i1
  match.fail_if %big
  match.accept %off, %h1
}

// -----

// A flag that a check without arithmetic tests first (before any check
// with arithmetic) is tested for every item: no speculation.
// CHECK-LABEL: match.program @FlagCheckedFirst
// CHECK-NOT: match.speculate
// CHECK: match.accept
match.program @FlagCheckedFirst {
  %h1 = match.header_word 1 : i64
  %i0 = match.item_word 0 : i64
  %i1 = match.item_word 1 : i64
  %flags = match.field %i0 {lsb = 32 : i64, width = 16 : i64} : i16
  %c0 = arith.constant 0 : i16
  %c2 = arith.constant 2 : i16
  %a2 = arith.andi %flags, %c2 : i16
  %remote = arith.cmpi ne, %a2, %c0 : i16
  match.fail_if %remote
  %off = arith.select %remote, %h1, %i1 : i64
  match.accept %off, %h1
}

// -----

// Flags of two fields cannot be tested by one ternary compare: no
// speculation.
// CHECK-LABEL: match.program @TwoFields
// CHECK-NOT: match.speculate
// CHECK: match.accept
match.program @TwoFields {
  %h1 = match.header_word 1 : i64
  %i0 = match.item_word 0 : i64
  %i1 = match.item_word 1 : i64
  %f = match.field %i0 {lsb = 32 : i64, width = 16 : i64} : i16
  %g = match.field %i0 {lsb = 48 : i64, width = 16 : i64} : i16
  %c0 = arith.constant 0 : i16
  %c1 = arith.constant 1 : i16
  %af = arith.andi %f, %c1 : i16
  %ff = arith.cmpi ne, %af, %c0 : i16
  %ag = arith.andi %g, %c1 : i16
  %fg = arith.cmpi ne, %ag, %c0 : i16
  %o1 = arith.select %ff, %h1, %i1 : i64
  %o2 = arith.select %fg, %h1, %i1 : i64
  match.accept %o1, %o2
}

// -----

// Flags only in checks without arithmetic gain nothing: no speculation.
// CHECK-LABEL: match.program @NoArithmetic
// CHECK-NOT: match.speculate
// CHECK: match.accept
match.program @NoArithmetic {
  %i0 = match.item_word 0 : i64
  %flags = match.field %i0 {lsb = 32 : i64, width = 16 : i64} : i16
  %c0 = arith.constant 0 : i16
  %c1 = arith.constant 1 : i16
  %a = arith.andi %flags, %c1 : i16
  %set = arith.cmpi ne, %a, %c0 : i16
  match.fail_if %set
  match.accept %i0, %i0
}

// -----

// A program that already ends in match.speculate is left alone.
// CHECK-LABEL: match.program @Already
// CHECK-COUNT-1: match.speculate
// CHECK-NOT: match.speculate
match.program @Already {
  %i0 = match.item_word 0 : i64
  %t = arith.constant true
  match.speculate %t {
    match.accept %i0, %i0
  } otherwise {
    match.accept %i0, %i0
  }
}

// -----

// A failure that is an `or` of a plain check and a flag-guarded one is
// split, so the plain part stays before the split for every item; the
// flag `!= 0` is assumed false and its check vanishes from the copy.
// CHECK-LABEL: match.program @SplitOr
// CHECK: match.fail_if %[[PLAIN:.*]]
// CHECK: match.speculate
// CHECK-NEXT: match.accept
// CHECK-NEXT: } otherwise {
// CHECK-NEXT: match.fail_if
// CHECK-NEXT: match.accept
match.program @SplitOr {
  %h0 = match.header_word 0 : i64
  %h1 = match.header_word 1 : i64
  %i0 = match.item_word 0 : i64
  %i1 = match.item_word 1 : i64
  %ht = match.field %h0 {lsb = 0 : i64, width = 32 : i64} : i32
  %it = match.field %i0 {lsb = 0 : i64, width = 32 : i64} : i32
  %flags = match.field %i0 {lsb = 32 : i64, width = 16 : i64} : i16
  %c0 = arith.constant 0 : i16
  %c8 = arith.constant 8 : i16
  %tag = arith.cmpi ne, %it, %ht : i32
  %a = arith.andi %flags, %c8 : i16
  %trunc = arith.cmpi ne, %a, %c0 : i16
  %long = arith.cmpi ult, %i1, %h1 : i64
  %bad = arith.andi %trunc, %long : i1
  %either = arith.ori %tag, %bad : i1
  match.fail_if %either
  match.accept %h1, %i1
}
