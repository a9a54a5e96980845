// RUN: npcc-opt %s --match-select-ucode | FileCheck %s
// RUN: npcc-opt %s --match-select-ucode | npcc-opt | FileCheck %s
// The machine form prints and parses back to the same schedule: allocating
// it after a round trip gives the words of the whole pipeline.
// RUN: npcc-opt %s --match-select-ucode | npcc-opt --ucode-allocate-registers > %t.two
// RUN: npcc-opt %s --match-select-ucode --ucode-allocate-registers > %t.one
// RUN: diff %t.one %t.two

// One check of item words 0 and 1 against header word 0: the selector
// copies the header word into the ternary file in the header (word 3, once
// the reads of the END trick are done), compares under the mask of item
// word 1 at item word 2, branches back to the next item at word 5 with the
// failure answer there and the offset and length in the delay slots.
// CHECK-LABEL: ucode.machine @Bits
// CHECK-SAME: files = array<i32: 0, 1, 3,
// CHECK-SAME: fixed = array<i32: 0, 0, 0,
// CHECK: ucode.slot {block = "header", {{.*}}regs = {IN_RD = [[H0R:[0-9]+]] : i32, IN_TD = {{[0-9]+}} : i32}, unit = "in", word = 0
// CHECK: ucode.slot {block = "item", {{.*}}regs = {IN_ENDP = [[END:[0-9]+]] : i32, IN_RD = {{[0-9]+}} : i32, IN_TD = [[I0:[0-9]+]] : i32}, unit = "in", word = 0
// CHECK: ucode.slot {block = "item", {{.*}}regs = {IN_RD = {{[0-9]+}} : i32, IN_TD = [[I1:[0-9]+]] : i32}, unit = "in", word = 1
// CHECK: ucode.slot {block = "item", fields = {BR_OP = 1 : i32}, reads = array<i32: [[END]]>, regs = {BR_PRED = [[END]] : i32}, target = "hdr4", unit = "br", word = 1
// CHECK: ucode.slot {block = "header", fields = {CP_OP = 1 : i32}, reads = array<i32: [[H0R]]>, regs = {CP_PRED = 2 : i32, CP_SRC = [[H0R]] : i32, CP_TD = [[H0T:[0-9]+]] : i32}, unit = "cp", word = 3
// CHECK: ucode.slot {block = "item", fields = {{{.*}}TERN_OP = 1 : i32{{.*}}}, reads = array<i32: [[I0]], [[H0T]], [[I1]]>, regs = {TERN_CMPD = [[OK:[0-9]+]] : i32, TERN_TA = [[I0]] : i32, TERN_TB = [[H0T]] : i32, TERN_TM = [[I1]] : i32}, unit = "tern", word = 2
// CHECK: ucode.slot {block = "item", fields = {BR_OP = 2 : i32}, reads = array<i32: [[OK]]>, regs = {BR_PRED = [[OK]] : i32}, target = "item", unit = "br", word = 5
// CHECK: ucode.slot {answer, block = "item", fields = {CP_OP = 2 : i32, CP_PNEG = 1 : i32}, {{.*}}word = 5
// CHECK: ucode.slot {answer, block = "item", fields = {CP_OP = 2 : i32, CP_TAG = 1 : i32}, {{.*}}word = 6
// CHECK: ucode.slot {answer, block = "item", fields = {CP_OP = 2 : i32, CP_TAG = 2 : i32}, {{.*}}word = 7
match.program @Bits {
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
