//===- Passes.td - match-unit back end passes ---------------*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_TARGETS_UCODE_MATCHTOUCODE_PASSES
#define NPCC_TARGETS_UCODE_MATCHTOUCODE_PASSES

include "mlir/Pass/PassBase.td"

def SelectUCode : Pass<"match-select-ucode", "::mlir::ModuleOp"> {
  let summary = "Select and schedule match programs into slot operations on "
                "virtual registers";
  let description = [{
    Replaces every `match.program` by a `ucode.machine`: instruction
    selection into the six slots (ternary equality under mask for match
    bits and bit tests, SIMD lanes for aligned fields, immediates for
    constants, masks, doublings and byte permutes for values off the
    lanes), list scheduling into the words of the init, header, item and
    general blocks under the unit's timing rules, an early-out branch at
    word 5 of each item so that items failing the first checks cost 8
    cycles, a middle exit, and the answers to the list manager.

    A program that ends in `match.speculate` (match-speculate-option-flags)
    gets its `assumed` region as the item path and its `otherwise` region
    as a general path that one ternary compare of the assumption, which
    must be `(x & K) == 0` of an item field, branches to.

    Contract: every `ucode.slot` is placed where its operands are visible
    and its slot is free, every answer sits within its branch's delay
    slots, and `ucode-allocate-registers` can give every virtual register a
    physical one. For the last, the pass checks its schedule with the
    allocator, and when registers or predicates run out it selects again
    with header conditions kept in ALU registers and tested per item, and
    with header values copied to the ternary file per item; when answers
    find their copy slots taken, again with those slots kept for them.
    Programs the unit cannot run (multiplication, division, shifts, too
    many live values after every attempt) are reported at their source
    line.
  }];
  let dependentDialects = ["npcc::ucode::UCodeDialect"];
}

def AllocateRegisters
    : Pass<"ucode-allocate-registers", "::mlir::ModuleOp"> {
  let summary = "Give virtual registers physical ones and lay out the "
                "words";
  let description = [{
    Replaces every `ucode.machine` by a `ucode.program` of encoded
    `ucode.bundle`s. Values used in more than one block (constants, header
    values the item loop reads) hold a register for the whole program; the
    others get one by live interval within their block, first fit in order
    of their first word (a register read in a word may be written by
    another value in that word, unless the value it held is itself written
    there). Compare results take p8-p14, predicate-unit results p1-p7, p15
    is the END flag. The blocks are laid out in order with the header at
    least 8 words, then the drain and flush loops of the list-manager
    protocol; branch targets are labels (`hdr`, `hdr4`, `item`, `general`,
    `matched`, `flush`).

    Contract: the input is a schedule that `match-select-ucode` would
    produce. A file that overflows is an error at the machine's location
    (the selector never hands over such a schedule).
  }];
  let dependentDialects = ["npcc::ucode::UCodeDialect"];
}

#endif // NPCC_TARGETS_UCODE_MATCHTOUCODE_PASSES
