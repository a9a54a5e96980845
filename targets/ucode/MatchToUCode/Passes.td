//===- Passes.td - match-unit back end passes ---------------*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_TARGETS_UCODE_MATCHTOUCODE_PASSES
#define NPCC_TARGETS_UCODE_MATCHTOUCODE_PASSES

include "mlir/Pass/PassBase.td"

def ConvertMatchToUCode : Pass<"convert-match-to-ucode", "mlir::ModuleOp"> {
  let summary = "Compile match programs into match-unit microcode";
  let description = [{
    Replaces every `match.program` by a `ucode.program` of wide words for
    the match unit: instruction selection into the six slots (ternary
    equality under mask for match bits and bit tests, SIMD lanes for
    aligned fields, immediates for constants), list scheduling into words
    under the unit's timing rules, an early-out branch at word 5 of each
    list item so that items failing the first checks cost 8 cycles, the
    answers to the list manager, the drain of the extra item, and register
    allocation over the ALU, ternary and predicate files.

    A program that ends in `match.speculate` (match-speculate-option-flags)
    gets its `assumed` region as the item path and its `otherwise` region
    as a general path that one ternary compare of the assumption, which
    must be `(x & K) == 0` of an item field, branches to.

    When registers or predicates run out, the selection is tried again with
    header conditions kept in ALU registers and tested per item, and with
    header values copied to the ternary file per item; when answers find
    their copy slots taken, again with those slots kept for them. Programs
    the unit cannot run (multiplication, division, shifts, too many live
    values after every attempt) are reported at their source line.
  }];
  let dependentDialects = ["npcc::ucode::UCodeDialect"];
}

#endif // NPCC_TARGETS_UCODE_MATCHTOUCODE_PASSES
