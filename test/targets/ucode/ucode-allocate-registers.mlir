// RUN: npcc-opt %s --ucode-allocate-registers | FileCheck %s

// A header value the item loop reads (v3) holds its register throughout;
// two item temporaries whose intervals do not overlap (v4: words 0-1, v5:
// words 2-3) share one; a compare result (v6) takes p8, a predicate-unit
// result (v7) p1. The blocks are laid out as header (8 words at least),
// item, then the drain and flush loops.
// CHECK-LABEL: ucode.program @Alloc
// CHECK: ucode.bundle "nop" label "hdr"
// CHECK: ucode.bundle "alu.or [[H:r[0-9]+]], r0, r0, lo=0x5" label "hdr4"
// CHECK: ucode.bundle "alu.add [[T:r[0-9]+]], [[H]], [[H]]" label "item"
// CHECK-NEXT: ucode.bundle "alu.eq p8, [[T]], [[H]]"
// CHECK-NEXT: ucode.bundle "alu.add [[T]], [[H]], [[H]] | pred p1 = and(p8, p0)"
// CHECK-NEXT: ucode.bundle "cp.out [[T]], data ? p1 | brn p1, item"
// CHECK-NEXT: ucode.bundle "in.r r0, end=p15" label "matched"
// CHECK: label "flush"
ucode.machine @Alloc attributes {
    files = array<i32: 0, 1, 3, 0, 0, 0, 2, 3>,
    fixed = array<i32: 0, 0, 0, -1, -1, -1, -1, -1>, item_words = 0} {
  ucode.slot {block = "header", unit = "alu", word = 3,
              fields = {ALU_OP = 4 : i32, ALU_IMMSEL = 1 : i32, ALU_IMM = 5 : i32,
                        ALU_SIMD = 7 : i32, ALU_LANES = 15 : i32},
              regs = {ALU_RD = 3 : i32, ALU_RA = 0 : i32, ALU_RB = 0 : i32,
                      ALU_PRED = 2 : i32},
              reads = array<i32>, writes = array<i32: 3>}
  ucode.slot {block = "item", unit = "alu", word = 0,
              fields = {ALU_OP = 1 : i32, ALU_SIMD = 7 : i32, ALU_LANES = 15 : i32},
              regs = {ALU_RD = 4 : i32, ALU_RA = 3 : i32, ALU_RB = 3 : i32,
                      ALU_PRED = 2 : i32},
              reads = array<i32: 3>, writes = array<i32: 4>}
  ucode.slot {block = "item", unit = "alu", word = 1,
              fields = {ALU_OP = 8 : i32, ALU_SIMD = 7 : i32, ALU_LANES = 15 : i32},
              regs = {ALU_RA = 4 : i32, ALU_RB = 3 : i32, ALU_CMPD = 6 : i32},
              reads = array<i32: 4, 3>, writes = array<i32: 6>}
  ucode.slot {block = "item", unit = "alu", word = 2,
              fields = {ALU_OP = 1 : i32, ALU_SIMD = 7 : i32, ALU_LANES = 15 : i32},
              regs = {ALU_RD = 5 : i32, ALU_RA = 3 : i32, ALU_RB = 3 : i32,
                      ALU_PRED = 2 : i32},
              reads = array<i32: 3>, writes = array<i32: 5>}
  ucode.slot {block = "item", unit = "pred", word = 2,
              fields = {PRED_FN0 = 8 : i32},
              regs = {PRED_DST0 = 7 : i32, PRED_A0 = 6 : i32, PRED_B0 = 2 : i32},
              reads = array<i32: 6, 2>, writes = array<i32: 7>}
  ucode.slot {answer, block = "item", unit = "cp", word = 3,
              fields = {CP_OP = 2 : i32, CP_TAG = 3 : i32},
              regs = {CP_SRC = 5 : i32, CP_PRED = 7 : i32},
              reads = array<i32: 5, 7>, writes = array<i32>}
  ucode.slot {block = "item", unit = "br", word = 3, target = "item",
              fields = {BR_OP = 2 : i32}, regs = {BR_PRED = 7 : i32},
              reads = array<i32: 7>, writes = array<i32>}
}
