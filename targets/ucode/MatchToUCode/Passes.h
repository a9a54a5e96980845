//===- Passes.h - match-unit back end passes --------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_TARGETS_UCODE_MATCHTOUCODE_PASSES_H
#define NPCC_TARGETS_UCODE_MATCHTOUCODE_PASSES_H

#include "dialects/UCode/IR/UCodeOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace npcc::mub {

#define GEN_PASS_DECL
#include "targets/ucode/MatchToUCode/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "targets/ucode/MatchToUCode/Passes.h.inc"

} // namespace npcc::mub

#endif // NPCC_TARGETS_UCODE_MATCHTOUCODE_PASSES_H
