//===- npcc-opt.cpp - mlir-opt with the npcc dialects and passes ----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Parses, verifies, transforms and prints IR of the npcc dialects and of the
// upstream dialects handler bodies use; the lit tests drive every pass
// through it.
//
//===----------------------------------------------------------------------===//

#include "compiler/pipelines/Pipelines.h"
#include "dialects/Match/IR/MatchOps.h"
#include "dialects/Match/Transforms/Passes.h"
#include "dialects/NP/IR/NPDialect.h"
#include "dialects/NP/Transforms/Passes.h"
#include "dialects/UCode/IR/UCodeOps.h"
#include "nprt/version.h"
#include "targets/c/Mapping/Passes.h"
#include "targets/c/Passes.h"
#include "targets/emitc/Passes.h"
#include "targets/hls/Passes.h"
#include "targets/hls/Transforms/Passes.h"
#include "targets/ucode/MatchToUCode/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/CommandLine.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<npcc::np::NPDialect, npcc::match::MatchDialect,
                  npcc::ucode::UCodeDialect, mlir::arith::ArithDialect,
                  mlir::cf::ControlFlowDialect, mlir::emitc::EmitCDialect,
                  mlir::func::FuncDialect, mlir::memref::MemRefDialect,
                  mlir::scf::SCFDialect>();

  npcc::np::registerNPPasses();
  npcc::match::registerMatchPasses();
  npcc::c::registerCTargetPasses();
  npcc::toemitc::registerEmitCLoweringPasses();
  npcc::c::registerCMappingPasses();
  npcc::hls::registerHLSTargetPasses();
  npcc::hls::registerHLSTransformsPasses();
  npcc::mub::registerMatchToUCodePasses();
  npcc::registerPipelines();
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();

  llvm::cl::SetVersionPrinter(
      [](llvm::raw_ostream &os) { os << npcc::versionText("npcc-opt"); });
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "npcc optimizer driver\n", registry));
}
