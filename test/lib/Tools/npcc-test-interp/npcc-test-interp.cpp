//===- npcc-test-interp.cpp - the interpreter on np IR, for tests ---------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A test driver, never installed: runs np dialect IR (`npcc --target=mlir`
// output) on the reference interpreter, as `npcc --target=interp` runs a
// program, with the passes `--passes` names where `--hls-opts` puts the HLS
// optimisations. Those may be the test passes of test/lib/Transforms, whose
// planted bugs then show on the program's outputs:
//
//   npcc-test-interp prog.mlir --passes=test-np-unroll-off-by-one \
//       -- --in in.pcap --out out.pcap
//
// Everything after `--` is the program's command line, as the executable
// takes it. `--print-ir` prints the IR the interpreter would run instead.
//
//===----------------------------------------------------------------------===//

#include "compiler/pipelines/Pipelines.h"
#include "dialects/NP/IR/NPDialect.h"
#include "targets/interp/GraphRun.h"
#include "test/lib/Transforms/TestPasses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace cl = llvm::cl;

static cl::opt<std::string> inputFile(cl::Positional, cl::Required,
                                      cl::desc("<np dialect .mlir file>"));
static cl::opt<std::string>
    passes("passes",
           cl::desc("Passes to run where --hls-opts runs the HLS "
                    "optimisations (a textual pass pipeline)"),
           cl::value_desc("PIPELINE"));
static cl::opt<bool> printIR("print-ir",
                             cl::desc("Print the IR after the pipeline "
                                      "instead of running it"));

int main(int argc, char **argv) {
  // Our flags before `--`, the program's after.
  int split = 1;
  while (split < argc && llvm::StringRef(argv[split]) != "--")
    ++split;
  npcc::test::registerTestUnrollOffByOne();
  mlir::registerPassManagerCLOptions();
  cl::ParseCommandLineOptions(split, argv,
                              "npcc-test-interp: np IR on the reference "
                              "interpreter, after test passes\n");

  mlir::DialectRegistry registry;
  registry.insert<npcc::np::NPDialect, mlir::arith::ArithDialect,
                  mlir::cf::ControlFlowDialect, mlir::func::FuncDialect,
                  mlir::memref::MemRefDialect, mlir::scf::SCFDialect>();
  mlir::MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler diagHandler(sourceMgr, &ctx);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(inputFile, sourceMgr, &ctx);
  if (!module)
    return 1;

  mlir::PassManager pm(&ctx);
  if (mlir::failed(mlir::applyPassManagerCLOptions(pm)))
    return 1;
  bool parsed = true;
  npcc::buildInterpPipeline(pm, "warn", [&](mlir::OpPassManager &nested) {
    if (!passes.empty())
      parsed = mlir::succeeded(
          mlir::parsePassPipeline(passes, nested, llvm::errs()));
  });
  if (!parsed || mlir::failed(pm.run(*module)))
    return 1;
  if (printIR) {
    module->print(llvm::outs());
    return 0;
  }
  std::vector<std::string> args{llvm::sys::path::stem(inputFile).str()};
  for (int k = split + 1; k < argc; ++k)
    args.push_back(argv[k]);
  return npcc::interp::runGraph(*module, args);
}
