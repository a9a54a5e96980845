//===- Passes.h - the EmitC steps the C and HLS targets share ---*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_TARGETS_EMITC_PASSES_H
#define NPCC_TARGETS_EMITC_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace npcc::toemitc {

#define GEN_PASS_DECL
#include "targets/emitc/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "targets/emitc/Passes.h.inc"

} // namespace npcc::toemitc

#endif // NPCC_TARGETS_EMITC_PASSES_H
