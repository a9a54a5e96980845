//===- Pipelines.h - named pass pipelines per target ------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_PIPELINES_PIPELINES_H
#define NPCC_PIPELINES_PIPELINES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace npcc {

/// np-flatten-graph, then canonicalisation of handler bodies.
void buildFlattenPipeline(mlir::OpPassManager &pm);

/// Options of the C pipeline (`npcc-opt --npcc-to-c='fuse=false'`).
struct CPipelineOptions : mlir::PassPipelineOptions<CPipelineOptions> {
  Option<bool> fuse{*this, "fuse",
                    llvm::cl::desc("Compile channels into direct calls "
                                   "where the runtime would push (np-fuse)"),
                    llvm::cl::init(true)};
  Option<std::string> profile{
      *this, "profile",
      llvm::cl::desc("A --stats-json file whose measured cycles and traffic "
                     "refine np-map-cores' estimates")};
  Option<std::string> channelDepth{
      *this, "channel-depth",
      llvm::cl::desc("A channel shallower than its inferred depth: 'warn', "
                     "'error' or 'ignore' (np-check-channels)"),
      llvm::cl::init("warn")};
};

/// The np-dialect steps of buildCPipeline, then np-map-cores: the
/// np.program with its mapping facts (what --explain-mapping reads).
void buildMappingPipeline(mlir::OpPassManager &pm,
                          const CPipelineOptions &options = {});

/// Everything from np IR to EmitC that verify-c-contract accepts.
void buildCPipeline(mlir::OpPassManager &pm,
                    const CPipelineOptions &options = {});

/// The np-dialect steps of buildCPipeline but np-fuse: flattened, one
/// element per instance, state explicit, the top graph as an np.program.
/// What `--target=interp` runs: fusion is an optimisation of the C target.
/// `channelDepth` is np-check-channels' `channel-depth` option. With
/// `hlsOptimisations` (`npcc --target=interp --hls-opts`), the HLS
/// optimisations run before the graph becomes an np.program, so that the
/// interpreter checks they do not change what the program computes.
void buildInterpPipeline(mlir::OpPassManager &pm,
                         llvm::StringRef channelDepth = "warn",
                         bool hlsOptimisations = false);
/// The same with `targetSteps` in place of the HLS optimisations: the test
/// driver npcc-test-interp runs passes with planted bugs there.
void buildInterpPipeline(
    mlir::OpPassManager &pm, llvm::StringRef channelDepth,
    llvm::function_ref<void(mlir::OpPassManager &)> targetSteps);

/// The HLS optimisations (docs/hls-optimisations.md), on flattened,
/// instantiated IR with explicit state: np-scatter-memory, np-unroll,
/// np-delay-write, each on the elements not placed `host`.
void buildHLSOptimisations(mlir::OpPassManager &pm);

/// Options of the HLS pipeline (`npcc-opt --npcc-to-hls='tool=vivado-2019.2'`).
struct HLSPipelineOptions : mlir::PassPipelineOptions<HLSPipelineOptions> {
  Option<std::string> tool{*this, "tool",
                           llvm::cl::desc("HLS tool whose pragmas to emit: "
                                          "vivado-2019.2 or vitis-2023"),
                           llvm::cl::init("vitis-2023")};
  Option<std::string> channelDepth{
      *this, "channel-depth",
      llvm::cl::desc("A channel shallower than its inferred depth: 'warn', "
                     "'error' or 'ignore' (np-check-channels)"),
      llvm::cl::init("warn")};
  Option<bool> scatterMemory{*this, "scatter-memory",
                             llvm::cl::desc("Run np-scatter-memory"),
                             llvm::cl::init(true)};
  Option<bool> unroll{*this, "unroll", llvm::cl::desc("Run np-unroll"),
                      llvm::cl::init(true)};
  Option<bool> delayWrite{*this, "delay-write",
                          llvm::cl::desc("Run np-delay-write"),
                          llvm::cl::init(true)};
  Option<bool> iiReport{*this, "ii-report",
                        llvm::cl::desc("Run np-ii-report (a remark per "
                                       "element)"),
                        llvm::cl::init(false)};
  Option<std::string> iiReportFile{
      *this, "ii-report-file",
      llvm::cl::desc("With ii-report, also write the report as JSON here"),
      llvm::cl::init("")};
};

/// np IR to EmitC for the HLS C++ printer: the np steps without fusion
/// (every instance is a process of its own), the synthesisability lint,
/// the HLS optimisations and (optionally) the II report on the elements
/// not placed `host`, then one process function per instance and the
/// DATAFLOW top.
void buildHLSPipeline(mlir::OpPassManager &pm,
                      const HLSPipelineOptions &options = {});

/// Flattens and keeps one side (`host` or `fpga`) of a program placed on
/// both, cut channels becoming PCIe slots (np-split-placement); before
/// buildCPipeline (host) or buildHLSPipeline (fpga).
void buildSplitPlacementPipeline(mlir::OpPassManager &pm, llvm::StringRef side);

/// Prints the module after buildHLSPipeline as the design's C++.
mlir::LogicalResult translateToHLS(mlir::ModuleOp module,
                                   llvm::raw_ostream &os);

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
