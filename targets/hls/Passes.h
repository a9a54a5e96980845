//===- Passes.h - the HLS target's passes -----------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef NPCC_TARGETS_HLS_PASSES_H
#define NPCC_TARGETS_HLS_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace npcc::hls {

#define GEN_PASS_DECL
#include "targets/hls/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "targets/hls/Passes.h.inc"

/// Prints the lowered module as the design's C++ source.
mlir::LogicalResult translateToHLS(mlir::ModuleOp module,
                                   llvm::raw_ostream &os);

} // namespace npcc::hls

#endif // NPCC_TARGETS_HLS_PASSES_H
