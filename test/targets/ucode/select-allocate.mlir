// RUN: npcc-opt %s -split-input-file --match-select-ucode --ucode-allocate-registers | FileCheck %s

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


// -----

// A program split by match-speculate-option-flags: the item loop runs the
// `assumed` region and leaves for the general path, which runs the
// `otherwise` region, when the ternary test of the option bits fails.
module {
  match.program @Spec {
    %h1 = match.header_word 1 : i64
    %i0 = match.item_word 0 : i64
    %i1 = match.item_word 1 : i64
    %flags = match.field %i0 {lsb = 32 : i64, width = 16 : i64} : i16
    %c0 = arith.constant 0 : i16
    %c2 = arith.constant 2 : i16
    %a2 = arith.andi %flags, %c2 : i16
    %simple = arith.cmpi eq, %a2, %c0 : i16
    %remote = arith.cmpi ne, %a2, %c0 : i16
    match.speculate %simple {
      match.accept %i1, %h1
    } otherwise {
      %off = arith.select %remote, %h1, %i1 : i64
      match.accept %off, %h1
    }
  }
}
// CHECK-LABEL: ucode.program @Spec
// CHECK: ucode.bundle "in.t {{.*}}" label "item"
// CHECK-NEXT: ucode.bundle "in.rt r1, t1 | tern.eq [[S:p[0-9]+]], {{.*}}"
// CHECK: ucode.bundle "{{.*}}brn [[S]], general"
// CHECK: ucode.bundle "cp.out r1, off
// CHECK: ucode.bundle "{{.*}}" label "general"
// CHECK-NEXT: ucode.bundle "alu.or [[OFF:r[0-9]+]], {{r[0-9]+}}, r0 ? !{{p[0-9]+}}"
// CHECK-NEXT: ucode.bundle "cp.out [[OFF]], off"
