// RUN: npcc-opt %s --npcc-to-ucode | FileCheck %s
// RUN: npcc-opt %s --npcc-to-ucode | npcc-opt | FileCheck %s

// npcc-to-ucode is the ucode pipeline of `npcc --target=ucode`, exactly
// these passes in this order:
// RUN: npcc-opt %s --npcc-to-ucode -o %t.pipeline.mlir
// RUN: npcc-opt %s --canonicalize --cse --match-speculate-option-flags \
// RUN:   --match-select-ucode --ucode-allocate-registers -o %t.passes.mlir
// RUN: diff %t.pipeline.mlir %t.passes.mlir

// Its output is microcode that gives the program's answers: on musim, the
// first item with the header's tag is accepted at the offset its option
// flag chooses (the item's own, or the header's when flag 2 is set).
// RUN: ucode-translate --emit-ucode %t.pipeline.mlir -o %t.mu
// RUN: printf '5 0x10 0 0 0 0 0 0\n7 0x40 0 0 0 0 0 0\n0x200000009 0x80 0 0 0 0 0 0\n' > %t.list
// RUN: printf '7 0x64 0 0 0 0 0 0\n9 0x32 0 0 0 0 0 0\n3 0x1 0 0 0 0 0 0\n' > %t.headers
// RUN: musim %t.mu --list %t.list --headers %t.headers | FileCheck %s --check-prefix=MUSIM

// The duplicate `andi` is folded by CSE, the option flag splits the
// program (the `general` path runs the select only when the flag test of
// the item fails), and the program leaves as one ucode.program of bundles
// on physical registers: no match.program or ucode.machine is left.
// CHECK-NOT: match.program
// CHECK-LABEL: ucode.program @Tagged {
// CHECK: label "hdr"
// CHECK: ucode.bundle "in.t [[W0:t[0-9]+]], end=p15" label "item"
// CHECK-NEXT: tern.eq [[TAG:p[0-9]+]], [[W0]]
// CHECK-NEXT: tern.eq [[LOCAL:p[0-9]+]], [[W0]]
// CHECK: cp.out r0, fail ? ![[TAG]] | brn [[TAG]], item"
// CHECK-NEXT: brn [[LOCAL]], general"
// CHECK: ucode.bundle "cp.out r1, off | jmp item"
// CHECK: label "general"
// CHECK-NEXT: ucode.bundle "alu.or [[OFF:r[0-9]+]], {{r[0-9]+}}, r0 ? !{{p[0-9]+}}"
// CHECK-NEXT: ucode.bundle "cp.out [[OFF]], off"
// CHECK: label "matched"
// CHECK: label "flush"
// CHECK-NOT: ucode.machine
// CHECK-NOT: match.

// MUSIM: header 0: match 1 offset 64 length 100 cycles
// MUSIM-NEXT: header 1: match 2 offset 50 length 50 cycles
// MUSIM-NEXT: header 2: no match cycles
match.program @Tagged {
  %h0 = match.header_word 0 : i64
  %h1 = match.header_word 1 : i64
  %i0 = match.item_word 0 : i64
  %i1 = match.item_word 1 : i64
  %ht = match.field %h0 {lsb = 0 : i64, width = 32 : i64} : i32
  %it = match.field %i0 {lsb = 0 : i64, width = 32 : i64} : i32
  %tag = arith.cmpi ne, %it, %ht : i32
  match.fail_if %tag
  %flags = match.field %i0 {lsb = 32 : i64, width = 16 : i64} : i16
  %c0 = arith.constant 0 : i16
  %c2 = arith.constant 2 : i16
  %a2 = arith.andi %flags, %c2 : i16
  %again = arith.andi %flags, %c2 : i16
  %remote = arith.cmpi ne, %again, %c0 : i16
  %off = arith.select %remote, %h1, %i1 : i64
  match.accept %off, %h1
}
