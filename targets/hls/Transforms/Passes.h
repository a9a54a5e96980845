//===- Passes.h - the HLS target's passes on np IR --------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef NPCC_TARGETS_HLS_TRANSFORMS_PASSES_H
#define NPCC_TARGETS_HLS_TRANSFORMS_PASSES_H

#include "dialects/NP/IR/NPDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace npcc::hls {

#define GEN_PASS_DECL
#include "targets/hls/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "targets/hls/Transforms/Passes.h.inc"

} // namespace npcc::hls

#endif // NPCC_TARGETS_HLS_TRANSFORMS_PASSES_H
