//===- Passes.h - the C target's core mapping -------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef NPCC_TARGETS_C_MAPPING_PASSES_H
#define NPCC_TARGETS_C_MAPPING_PASSES_H

#include "dialects/NP/IR/NPDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace npcc::c {

#define GEN_PASS_DECL
#include "targets/c/Mapping/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "targets/c/Mapping/Passes.h.inc"

} // namespace npcc::c

#endif // NPCC_TARGETS_C_MAPPING_PASSES_H
