//===- Pipelines.cpp - named pass pipelines per target --------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/pipelines/Pipelines.h"

#include "dialects/Match/Transforms/Passes.h"
#include "dialects/NP/Transforms/Passes.h"
#include "targets/c/Passes.h"
#include "targets/hls/Passes.h"
#include "targets/ucode/MatchToUCode/Passes.h"

#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

void npcc::buildFlattenPipeline(mlir::OpPassManager &pm) {
  pm.addPass(np::createFlattenGraph());
}

/// Flat, one element per instance, explicit state, then (C only) fused,
/// then the top graph as an np.program.
static void buildNPSteps(mlir::OpPassManager &pm, bool fuse) {
  using namespace npcc;
  buildFlattenPipeline(pm);
  pm.addPass(np::createInstantiateElements());
  pm.addPass(np::createMakeStateExplicit());
  if (fuse)
    pm.addPass(np::createFuse());
  pm.addPass(np::createDescribeGraph());
}

void npcc::buildInterpPipeline(mlir::OpPassManager &pm) {
  buildNPSteps(pm, /*fuse=*/false);
}

void npcc::buildMappingPipeline(mlir::OpPassManager &pm,
                                const CPipelineOptions &options) {
  buildNPSteps(pm, options.fuse);
  np::MapCoresOptions mapOptions;
  mapOptions.profile = options.profile;
  pm.addPass(np::createMapCores(mapOptions));
}

void npcc::buildCPipeline(mlir::OpPassManager &pm,
                          const CPipelineOptions &options) {
  buildMappingPipeline(pm, options);
  pm.addPass(c::createConvertNPToEmitC());
  pm.addPass(c::createLegalizeIntWidths());
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::createCSEPass());
  pm.addPass(c::createConvertToEmitC());
  pm.addPass(c::createVerifyCContract());
}

void npcc::buildHLSPipeline(mlir::OpPassManager &pm,
                            const HLSPipelineOptions &options) {
  buildNPSteps(pm, /*fuse=*/false);
  hls::ConvertNPToHLSOptions hlsOptions;
  hlsOptions.tool = options.tool;
  pm.addPass(hls::createConvertNPToHLS(hlsOptions));
  pm.addPass(c::createLegalizeIntWidths());
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::createCSEPass());
  pm.addPass(c::createConvertToEmitC());
  pm.addPass(c::createVerifyCContract());
}

void npcc::buildSplitPlacementPipeline(mlir::OpPassManager &pm,
                                       llvm::StringRef side) {
  buildFlattenPipeline(pm);
  np::SplitPlacementOptions options;
  options.side = side.str();
  pm.addPass(np::createSplitPlacement(options));
}

mlir::LogicalResult npcc::translateToHLS(mlir::ModuleOp module,
                                         llvm::raw_ostream &os) {
  return hls::translateToHLS(module, os);
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
  mlir::PassPipelineRegistration<CPipelineOptions>(
      "npcc-to-c", "Lower np IR to EmitC for the C printer",
      [](mlir::OpPassManager &pm, const CPipelineOptions &options) {
        buildCPipeline(pm, options);
      });
  mlir::PassPipelineRegistration<HLSPipelineOptions>(
      "npcc-to-hls", "Lower np IR to EmitC for the HLS C++ printer",
      [](mlir::OpPassManager &pm, const HLSPipelineOptions &options) {
        buildHLSPipeline(pm, options);
      });
  mlir::PassPipelineRegistration<>(
      "npcc-to-ucode", "Compile match programs to match-unit microcode",
      buildUCodePipeline);
}
