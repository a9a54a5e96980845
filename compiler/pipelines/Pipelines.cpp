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

/// Flat, one element per instance, channels checked, explicit state, then
/// (C only) fused, then the top graph as an np.program.
static void buildNPSteps(mlir::OpPassManager &pm, bool fuse,
                         llvm::StringRef channelDepth,
                         bool hlsOptimisations = false) {
  using namespace npcc;
  buildFlattenPipeline(pm);
  pm.addPass(np::createInstantiateElements());
  np::CheckChannelsOptions check;
  check.channelDepth = channelDepth.str();
  pm.addPass(np::createCheckChannels(check));
  pm.addPass(np::createMakeStateExplicit());
  if (hlsOptimisations)
    buildHLSOptimisations(pm);
  if (fuse)
    pm.addPass(np::createFuse());
  pm.addPass(np::createDescribeGraph());
}

void npcc::buildHLSOptimisations(mlir::OpPassManager &pm) {
  pm.addPass(np::createScatterMemory());
  pm.addPass(np::createUnroll());
  pm.addPass(np::createDelayWrite());
}

void npcc::buildInterpPipeline(mlir::OpPassManager &pm,
                               llvm::StringRef channelDepth,
                               bool hlsOptimisations) {
  buildNPSteps(pm, /*fuse=*/false, channelDepth, hlsOptimisations);
}

void npcc::buildMappingPipeline(mlir::OpPassManager &pm,
                                const CPipelineOptions &options) {
  buildNPSteps(pm, options.fuse, options.channelDepth);
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
  buildFlattenPipeline(pm);
  pm.addPass(np::createInstantiateElements());
  np::CheckChannelsOptions check;
  check.channelDepth = options.channelDepth;
  pm.addPass(np::createCheckChannels(check));
  pm.addPass(np::createMakeStateExplicit());
  pm.addPass(np::createCheckSynthesizable());
  pm.addPass(np::createHeaderWindow());
  if (options.scatterMemory)
    pm.addPass(np::createScatterMemory());
  if (options.unroll)
    pm.addPass(np::createUnroll());
  if (options.delayWrite)
    pm.addPass(np::createDelayWrite());
  if (options.iiReport) {
    np::IIReportOptions report;
    report.report = options.iiReportFile;
    pm.addPass(np::createIIReport(report));
  }
  pm.addPass(np::createDescribeGraph());
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
      [](mlir::OpPassManager &pm) { buildInterpPipeline(pm); });
  mlir::PassPipelineRegistration<>(
      "npcc-hls-opts",
      "The HLS optimisations: np-scatter-memory, np-unroll, np-delay-write",
      buildHLSOptimisations);
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
