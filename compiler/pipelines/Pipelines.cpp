//===- Pipelines.cpp - named pass pipelines per target --------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/pipelines/Pipelines.h"

#include "dialects/Match/Transforms/Passes.h"
#include "dialects/NP/Transforms/Passes.h"
#include "targets/c/Passes.h"
#include "targets/ucode/MatchToUCode/Passes.h"

#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

void npcc::buildFlattenPipeline(mlir::OpPassManager &pm) {
  pm.addPass(np::createFlattenGraph());
}

void npcc::buildInterpPipeline(mlir::OpPassManager &pm) {
  buildFlattenPipeline(pm);
  pm.addPass(np::createInstantiateElements());
  pm.addPass(np::createMakeStateExplicit());
  pm.addPass(np::createDescribeGraph());
}

void npcc::buildMappingPipeline(mlir::OpPassManager &pm) {
  buildInterpPipeline(pm);
  pm.addPass(np::createMapCores());
}

void npcc::buildCPipeline(mlir::OpPassManager &pm) {
  buildMappingPipeline(pm);
  pm.addPass(c::createConvertNPToEmitC());
  pm.addPass(c::createLegalizeIntWidths());
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::createCSEPass());
  pm.addPass(c::createConvertToEmitC());
  pm.addPass(c::createVerifyCContract());
}

void npcc::buildCContractPipeline(mlir::OpPassManager &pm) {
  pm.addPass(c::createVerifyCContract());
}

void npcc::buildUCodePipeline(mlir::OpPassManager &pm) {
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::createCSEPass());
  pm.addPass(match::createSpeculateOptionFlags());
  pm.addPass(mub::createSelectUCode());
  pm.addPass(mub::createAllocateRegisters());
}

mlir::LogicalResult npcc::translateToC(mlir::ModuleOp module,
                                       llvm::raw_ostream &os) {
  return c::translateToC(module, os);
}

void npcc::registerPipelines() {
  mlir::PassPipelineRegistration<>(
      "npcc-flatten", "Flatten the graph hierarchy", buildFlattenPipeline);
  mlir::PassPipelineRegistration<>(
      "npcc-to-interp",
      "The np dialect the reference interpreter runs (np.program)",
      buildInterpPipeline);
  mlir::PassPipelineRegistration<>(
      "npcc-to-c", "Lower np IR to EmitC for the C printer", buildCPipeline);
  mlir::PassPipelineRegistration<>(
      "npcc-to-ucode", "Compile match programs to match-unit microcode",
      buildUCodePipeline);
}
