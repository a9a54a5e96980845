// RUN: npcc-opt %s -split-input-file --ucode-allocate-registers -verify-diagnostics

// Eight predicate-unit results live in the same words: the unit has seven
// (p1-p7).
// expected-error @+1 {{too many live values for the match unit's predicate-unit predicates}}
ucode.machine @EightPredicates attributes {
    files = array<i32: 0, 1, 3, 3, 3, 3, 3, 3, 3, 3, 3>,
    fixed = array<i32: 0, 0, 0, -1, -1, -1, -1, -1, -1, -1, -1>,
    item_words = 0} {
  ucode.slot {block = "item", unit = "pred", word = 0, fields = {PRED_FN0 = 15 : i32},
              regs = {PRED_DST0 = 3 : i32, PRED_A0 = 2 : i32, PRED_B0 = 2 : i32},
              reads = array<i32: 2>, writes = array<i32: 3>}
  ucode.slot {block = "item", unit = "pred", word = 0, pred_unit = 1, fields = {PRED_FN0 = 15 : i32},
              regs = {PRED_DST0 = 4 : i32, PRED_A0 = 2 : i32, PRED_B0 = 2 : i32},
              reads = array<i32: 2>, writes = array<i32: 4>}
  ucode.slot {block = "item", unit = "pred", word = 1, fields = {PRED_FN0 = 15 : i32},
              regs = {PRED_DST0 = 5 : i32, PRED_A0 = 2 : i32, PRED_B0 = 2 : i32},
              reads = array<i32: 2>, writes = array<i32: 5>}
  ucode.slot {block = "item", unit = "pred", word = 1, pred_unit = 1, fields = {PRED_FN0 = 15 : i32},
              regs = {PRED_DST0 = 6 : i32, PRED_A0 = 2 : i32, PRED_B0 = 2 : i32},
              reads = array<i32: 2>, writes = array<i32: 6>}
  ucode.slot {block = "item", unit = "pred", word = 2, fields = {PRED_FN0 = 15 : i32},
              regs = {PRED_DST0 = 7 : i32, PRED_A0 = 2 : i32, PRED_B0 = 2 : i32},
              reads = array<i32: 2>, writes = array<i32: 7>}
  ucode.slot {block = "item", unit = "pred", word = 2, pred_unit = 1, fields = {PRED_FN0 = 15 : i32},
              regs = {PRED_DST0 = 8 : i32, PRED_A0 = 2 : i32, PRED_B0 = 2 : i32},
              reads = array<i32: 2>, writes = array<i32: 8>}
  ucode.slot {block = "item", unit = "pred", word = 3, fields = {PRED_FN0 = 15 : i32},
              regs = {PRED_DST0 = 9 : i32, PRED_A0 = 2 : i32, PRED_B0 = 2 : i32},
              reads = array<i32: 2>, writes = array<i32: 9>}
  ucode.slot {block = "item", unit = "pred", word = 3, pred_unit = 1, fields = {PRED_FN0 = 15 : i32},
              regs = {PRED_DST0 = 10 : i32, PRED_A0 = 2 : i32, PRED_B0 = 2 : i32},
              reads = array<i32: 2>, writes = array<i32: 10>}
  // All eight are read together in word 4.
  ucode.slot {block = "item", unit = "pred", word = 4, fields = {PRED_FN0 = 8 : i32},
              regs = {PRED_DST0 = 3 : i32, PRED_A0 = 3 : i32, PRED_B0 = 4 : i32},
              reads = array<i32: 3, 4, 5, 6, 7, 8, 9, 10>, writes = array<i32: 3>}
}

// -----

// expected-error @+1 {{virtual registers 0, 1 and 2 must be r0, t0 and p0}}
ucode.machine @NoConstants attributes {files = array<i32: 0, 0, 0>,
    fixed = array<i32: 0, -1, -1>, item_words = 0} {
}

// -----

// expected-error @+1 {{'files' and 'fixed' must name the same virtual registers}}
ucode.machine @Sizes attributes {files = array<i32: 0, 1, 3>,
    fixed = array<i32: 0, 0>, item_words = 0} {
}

// -----

// expected-error @+1 {{virtual register 3 is fixed to a register its file lacks: 16}}
ucode.machine @Fixed attributes {files = array<i32: 0, 1, 3, 0>,
    fixed = array<i32: 0, 0, 0, 16>, item_words = 0} {
}

// -----

// A compare result lives in p8-p15.
// expected-error @+1 {{virtual register 3 is fixed to a register its file lacks: 3}}
ucode.machine @FixedCompare attributes {files = array<i32: 0, 1, 3, 2>,
    fixed = array<i32: 0, 0, 0, 3>, item_words = 0} {
}

// -----

ucode.machine @Slots attributes {files = array<i32: 0, 1, 3>,
    fixed = array<i32: 0, 0, 0>, item_words = 0} {
  // expected-error @+1 {{field 'ALU_OP' is 4 bits wide; 99 does not fit}}
  ucode.slot {block = "item", unit = "alu", word = 0, fields = {ALU_OP = 99 : i32},
              regs = {}, reads = array<i32>, writes = array<i32>}
}

// -----

ucode.machine @Slots attributes {files = array<i32: 0, 1, 3>,
    fixed = array<i32: 0, 0, 0>, item_words = 0} {
  // expected-error @+1 {{unknown block 'loop'}}
  ucode.slot {block = "loop", unit = "alu", word = 0, fields = {}, regs = {},
              reads = array<i32>, writes = array<i32>}
}

// -----

ucode.machine @Slots attributes {files = array<i32: 0, 1, 3>,
    fixed = array<i32: 0, 0, 0>, item_words = 0} {
  // expected-error @+1 {{no field 'ALU_XYZ' in a word}}
  ucode.slot {block = "item", unit = "alu", word = 0, fields = {ALU_XYZ = 1 : i32},
              regs = {}, reads = array<i32>, writes = array<i32>}
}

// -----

ucode.machine @Slots attributes {files = array<i32: 0, 1, 3>,
    fixed = array<i32: 0, 0, 0>, item_words = 0} {
  // expected-error @+1 {{field 'ALU_RD' names virtual register 9 of 3}}
  ucode.slot {block = "item", unit = "alu", word = 0, fields = {},
              regs = {ALU_RD = 9 : i32}, reads = array<i32>, writes = array<i32>}
}

// -----

ucode.machine @Slots attributes {files = array<i32: 0, 1, 3>,
    fixed = array<i32: 0, 0, 0>, item_words = 0} {
  // expected-error @+1 {{virtual register 5 is not in the machine's 3}}
  ucode.slot {block = "item", unit = "alu", word = 0, fields = {},
              regs = {}, reads = array<i32: 5>, writes = array<i32>}
}

// -----

ucode.machine @Slots attributes {files = array<i32: 0, 1, 3>,
    fixed = array<i32: 0, 0, 0>, item_words = 0} {
  // expected-error @+1 {{unknown branch target 'nowhere'}}
  ucode.slot {block = "item", unit = "br", word = 3, target = "nowhere",
              fields = {BR_OP = 1 : i32}, regs = {BR_PRED = 2 : i32},
              reads = array<i32: 2>, writes = array<i32>}
}

// -----

ucode.machine @Slots attributes {files = array<i32: 0, 1, 3>,
    fixed = array<i32: 0, 0, 0>, item_words = 0} {
  // expected-error @+1 {{a 'br' slot, and only one, names a 'target'}}
  ucode.slot {block = "item", unit = "br", word = 3,
              fields = {BR_OP = 1 : i32}, regs = {BR_PRED = 2 : i32},
              reads = array<i32: 2>, writes = array<i32>}
}

// -----

ucode.machine @Slots attributes {files = array<i32: 0, 1, 3>,
    fixed = array<i32: 0, 0, 0>, item_words = 0} {
  // expected-error @+1 {{branches to 'general', but the machine has no general path}}
  ucode.slot {block = "item", unit = "br", word = 3, target = "general",
              fields = {BR_OP = 1 : i32}, regs = {BR_PRED = 2 : i32},
              reads = array<i32: 2>, writes = array<i32>}
}
