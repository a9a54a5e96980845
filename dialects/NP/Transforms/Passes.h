//===- Passes.h - np dialect passes -------------------------------*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef NPCC_DIALECTS_NP_TRANSFORMS_PASSES_H
#define NPCC_DIALECTS_NP_TRANSFORMS_PASSES_H

#include "dialects/NP/IR/NPDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace npcc::np {

#define GEN_PASS_DECL
#include "dialects/NP/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "dialects/NP/Transforms/Passes.h.inc"

/// The depth np-check-channels infers for a connection from its producer's
/// rate (an integer attribute of the `np.connect`), and the same depths,
/// one per channel (0: none), on the `np.program` np-describe-graph writes.
constexpr llvm::StringLiteral kInferredDepthAttr = "inferred_depth";
constexpr llvm::StringLiteral kInferredDepthsAttr = "np.inferred_depths";

} // namespace npcc::np

#endif // NPCC_DIALECTS_NP_TRANSFORMS_PASSES_H
