//===- Passes.h - C target passes -------------------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_TARGETS_C_PASSES_H
#define NPCC_TARGETS_C_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace npcc::c {

#define GEN_PASS_DECL
#include "targets/c/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "targets/c/Passes.h.inc"

/// Prints a module that passed verify-c-contract (targets/emitc) as C11.
mlir::LogicalResult translateToC(mlir::ModuleOp module, llvm::raw_ostream &os);

} // namespace npcc::c

#endif // NPCC_TARGETS_C_PASSES_H
