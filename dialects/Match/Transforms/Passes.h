//===- Passes.h - match dialect passes --------------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef NPCC_DIALECTS_MATCH_TRANSFORMS_PASSES_H
#define NPCC_DIALECTS_MATCH_TRANSFORMS_PASSES_H

#include "dialects/Match/IR/MatchOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <vector>

namespace npcc::match {

#define GEN_PASS_DECL
#include "dialects/Match/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "dialects/Match/Transforms/Passes.h.inc"

/// `(x & K) == 0` or `(x & K) != 0` for a field `x` of the item and a
/// constant `K`: sets `field` and `bits`.
bool isItemFlagTest(mlir::Value v, mlir::Value &field, uint64_t &bits);

/// An operation that costs the match unit's ALU per item: add, sub,
/// select, an ordered compare.
bool isArithmetic(mlir::Operation *op);

/// Adds the operations `v` is computed from (its backward slice) to
/// `seen`; a null value adds nothing.
void addCone(mlir::Value v, llvm::SmallPtrSetImpl<mlir::Operation *> &seen);

/// The failure condition `cond` as the terms of its `or`s, in order (the
/// item fails when any holds), appended to `terms`.
void appendFailureTerms(mlir::Value cond, std::vector<mlir::Value> &terms);

/// The failure terms of the `match.fail_if`s of `block`, in order.
std::vector<mlir::Value> failureTerms(mlir::Block &block);

} // namespace npcc::match

#endif // NPCC_DIALECTS_MATCH_TRANSFORMS_PASSES_H
