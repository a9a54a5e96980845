// RUN: npcc-opt %s --convert-match-to-ucode | FileCheck %s

// One check on two item words against a header word: a ternary compare
// under mask, the early branch at word 5 of the item with the fail answer
// in it and the answers in its delay slots (so a matching item also costs
// 8 cycles), then the drain and flush loops.
module {
  match.program @Bits attributes {header_words = 8, item_words = 8} {
    %c0 = arith.constant 0 : i64
    %h0 = match.header_word 0 : i64
    %h4 = match.header_word 4 : i64
    %i0 = match.item_word 0 : i64
    %i1 = match.item_word 1 : i64
    %x = arith.xori %i0, %h0 : i64
    %m = arith.andi %x, %i1 : i64
    %ne = arith.cmpi ne, %m, %c0 : i64
    match.fail_if %ne
    match.accept %c0, %h4
  }
}
// CHECK-LABEL: ucode.program @Bits
// CHECK: ucode.bundle "in.rt r1, t1" label "hdr"
// CHECK: ucode.bundle "in.rt r2, t2"
// CHECK: ucode.bundle "in.rt r3, t3"
// CHECK: ucode.bundle "{{.*}}cp.t [[HM:t[0-9]+]], r1{{.*}}" label "hdr4"
// CHECK: ucode.bundle "in.t [[W0:t[0-9]+]], end=p15" label "item"
// CHECK-NEXT: ucode.bundle "in.rt r1, t1 | br p15, hdr4"
// CHECK-NEXT: ucode.bundle "in.rt r2, t2 | tern.eq [[OK:p[0-9]+]], [[W0]], [[HM]], t1"
// CHECK-NEXT: ucode.bundle "in.rt r3, t3"
// CHECK-NEXT: ucode.bundle "in.r r0"
// CHECK-NEXT: ucode.bundle "in.r r0 | cp.out r0, fail ? ![[OK]] | brn [[OK]], item"
// CHECK-NEXT: ucode.bundle "in.r r0 | cp.out r0, off ? [[OK]]"
// CHECK-NEXT: ucode.bundle "in.r r0 | cp.out {{r[0-9]+}}, len ? [[OK]]"
// CHECK: ucode.bundle "in.r r0, end=p15" label "matched"
// CHECK: ucode.bundle "in.r r0, end=p15" label "flush"

