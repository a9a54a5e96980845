//===- Pipelines.cpp - named pass pipelines per target --------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/pipelines/Pipelines.h"

#include "dialects/Match/Transforms/Passes.h"
#include "dialects/NP/Transforms/Passes.h"
#include "targets/c/Mapping/Passes.h"
#include "targets/c/Passes.h"
#include "targets/emitc/Passes.h"
#include "targets/hls/Passes.h"
#include "targets/hls/Transforms/Passes.h"
#include "targets/ucode/MatchToUCode/Passes.h"

#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

void npcc::buildFlattenPipeline(mlir::OpPassManager &pm) {
  pm.addPass(np::createFlattenGraph());
}

/// The steps on the np dialect every target runs: flat, one element per
/// instance, channels checked, explicit state; then what `targetSteps` adds
/// (a target's own passes on np IR); then the top graph as an np.program.
static void
buildNPSteps(mlir::OpPassManager &pm, llvm::StringRef channelDepth,
             llvm::function_ref<void(mlir::OpPassManager &)> targetSteps) {
  using namespace npcc;
  buildFlattenPipeline(pm);
  pm.addPass(np::createInstantiateElements());
  np::CheckChannelsOptions check;
  check.channelDepth = channelDepth.str();
  pm.addPass(np::createCheckChannels(check));
  pm.addPass(np::createMakeStateExplicit());
  if (targetSteps)
    targetSteps(pm);
  pm.addPass(np::createDescribeGraph());
}

/// The steps after a target's conversion of np IR to EmitC, the same for C
/// and HLS: integer widths, cleanup, the other dialects to EmitC, and the
/// check that nothing else is left. The second canonicalization folds what
/// CSE made foldable (two loads of one variable become one, so `x ^ x`
/// folds); without it the fold happens during the conversion to EmitC,
/// leaving a variable that is set but never read, which the HLS project's
/// -Werror build rejects.
static void buildEmitCSteps(mlir::OpPassManager &pm) {
  using namespace npcc;
  pm.addPass(toemitc::createLegalizeIntWidths());
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::createCSEPass());
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(toemitc::createConvertToEmitC());
  pm.addPass(toemitc::createVerifyCContract());
}

/// ClickNP's HLS optimisations, each when asked for, in their order.
static void addHLSOptimisations(mlir::OpPassManager &pm, bool scatterMemory,
                                bool unroll, bool delayWrite) {
  using namespace npcc;
  if (scatterMemory)
    pm.addPass(hls::createScatterMemory());
  if (unroll)
    pm.addPass(hls::createUnroll());
  if (delayWrite)
    pm.addPass(hls::createDelayWrite());
}

void npcc::buildHLSOptimisations(mlir::OpPassManager &pm) {
  addHLSOptimisations(pm, true, true, true);
}

void npcc::buildInterpPipeline(mlir::OpPassManager &pm,
                               llvm::StringRef channelDepth,
                               bool hlsOptimisations) {
  buildNPSteps(pm, channelDepth, [&](mlir::OpPassManager &pm) {
    if (hlsOptimisations)
      buildHLSOptimisations(pm);
  });
}

void npcc::buildInterpPipeline(
    mlir::OpPassManager &pm, llvm::StringRef channelDepth,
    llvm::function_ref<void(mlir::OpPassManager &)> targetSteps) {
  buildNPSteps(pm, channelDepth, targetSteps);
}

void npcc::buildMappingPipeline(mlir::OpPassManager &pm,
                                const CPipelineOptions &options) {
  buildNPSteps(pm, options.channelDepth, [&](mlir::OpPassManager &pm) {
    if (options.fuse)
      pm.addPass(c::createFuse());
  });
  c::MapCoresOptions mapOptions;
  mapOptions.profile = options.profile;
  pm.addPass(c::createMapCores(mapOptions));
}

void npcc::buildCPipeline(mlir::OpPassManager &pm,
                          const CPipelineOptions &options) {
  buildMappingPipeline(pm, options);
  pm.addPass(c::createConvertNPToEmitC());
  buildEmitCSteps(pm);
  pm.addPass(c::createAnnotateCosts());
}

void npcc::buildHLSPipeline(mlir::OpPassManager &pm,
                            const HLSPipelineOptions &options) {
  buildNPSteps(pm, options.channelDepth, [&](mlir::OpPassManager &pm) {
    pm.addPass(hls::createCheckSynthesizable());
    pm.addPass(hls::createHeaderWindow());
    addHLSOptimisations(pm, options.scatterMemory, options.unroll,
                        options.delayWrite);
    if (options.iiReport) {
      hls::IIReportOptions report;
      report.report = options.iiReportFile;
      pm.addPass(hls::createIIReport(report));
    }
  });
  hls::ConvertNPToHLSOptions hlsOptions;
  hlsOptions.tool = options.tool;
  pm.addPass(hls::createConvertNPToHLS(hlsOptions));
  buildEmitCSteps(pm);
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
  pm.addPass(toemitc::createVerifyCContract());
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
