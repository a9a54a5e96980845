//===- Pipelines.h - named pass pipelines per target ------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_PIPELINES_PIPELINES_H
#define NPCC_PIPELINES_PIPELINES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

namespace npcc {

/// np-flatten-graph, then canonicalisation of handler bodies.
void buildFlattenPipeline(mlir::OpPassManager &pm);

/// The interpreter's pipeline, then np-map-cores: the np.program with its
/// mapping facts.
void buildMappingPipeline(mlir::OpPassManager &pm);

/// Everything from np IR to EmitC that verify-c-contract accepts.
void buildCPipeline(mlir::OpPassManager &pm);

/// The np-dialect steps of buildCPipeline: flattened, one element per
/// instance, state explicit, the top graph as an np.program. What
/// `--target=interp` runs.
void buildInterpPipeline(mlir::OpPassManager &pm);

/// For IR that buildCPipeline already lowered: only verify-c-contract.
void buildCContractPipeline(mlir::OpPassManager &pm);

/// Match programs to ucode: canonicalisation, then the match-unit back end.
void buildUCodePipeline(mlir::OpPassManager &pm);

/// Prints the result of buildCPipeline as C11.
mlir::LogicalResult translateToC(mlir::ModuleOp module, llvm::raw_ostream &os);

/// Registers the pipelines as `npcc-flatten` and `npcc-to-c` for npcc-opt.
void registerPipelines();

} // namespace npcc

#endif // NPCC_PIPELINES_PIPELINES_H
