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
    allocation over the ALU, ternary and predicate files. Programs the unit
    cannot run (multiplication, division, shifts, too many live values) are
    reported at their source line.
  }];
  let dependentDialects = ["npcc::ucode::UCodeDialect"];
}

#endif // NPCC_TARGETS_UCODE_MATCHTOUCODE_PASSES
