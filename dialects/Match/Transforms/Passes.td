//===- Passes.td - match dialect passes ---------------------*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef NPCC_DIALECTS_MATCH_TRANSFORMS_PASSES_TD
#define NPCC_DIALECTS_MATCH_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def SpeculateOptionFlags
    : Pass<"match-speculate-option-flags", "::mlir::ModuleOp"> {
  let summary = "Split a match program on the option flags its arithmetic "
                "depends on";
  let description = [{
    Items whose option flags are clear need none of the arithmetic those
    flags guard (Figure 1 of the match-unit paper: remote offsets, size
    limits, truncation). This pass makes that explicit so that the back end
    can compile the common case without the arithmetic and send the other
    items to a general path.

    Contract. Input: a `match.program` ending in `match.accept` (a program
    already ending in `match.speculate` is left alone). Output: the same
    decision for every header and item. Each `match.fail_if` of an `or` is
    split into one per operand (the program fails when any holds, so this
    changes nothing). When the pass applies, the program then ends in

    * a test `(x & M) == 0` before a final `match.speculate`, where `x` is
      one item field and `M` the union of the flag bits speculated on;
    * the checks that depend on those flag tests, and the `match.accept`,
      moved unchanged into the `otherwise` region;
    * a copy of them in the `assumed` region in which each flag test is the
      constant the assumption gives it, folded (selects on a flag test pick
      their operand, checks the flag disables vanish).

    Which flags. A flag test is `(x & K) == 0` or `!= 0` of an item field
    and a constant. It is speculated on when it feeds the answers or a
    check that needs ALU arithmetic (add, sub, select, an ordered compare),
    and feeds none of the checks without arithmetic that come before the
    first check with arithmetic: those are the checks the back end tests
    first, at its early branch, for every item. All flag tests speculated
    on must be of one field (one ternary compare tests them all); with
    several fields, or no such flag test, the program is left unchanged.

    `--check-each-pass` runs the match interpreter before and after this
    pass, so a wrong fold shows as a changed answer that names it.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

#endif // NPCC_DIALECTS_MATCH_TRANSFORMS_PASSES_TD
