//===- npcc-translate.cpp - translations from np IR -----------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// `--emit-c` runs the C pipeline on np IR and prints C11; lowered IR (the
// output of `npcc-opt --npcc-to-c`) is printed without lowering it again.
//
//===----------------------------------------------------------------------===//

#include "nprt/version.h"
#include "compiler/pipelines/Pipelines.h"
#include "dialects/NP/IR/NPDialect.h"
#include "targets/ucode/UCodeEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"

int main(int argc, char **argv) {
  npcc::ucode::registerUCodeTranslations();
  mlir::TranslateFromMLIRRegistration emitC(
      "emit-c", "lower np IR and print it as C11 for libnprt",
      [](mlir::Operation *op, llvm::raw_ostream &os) -> mlir::LogicalResult {
        auto module = llvm::dyn_cast<mlir::ModuleOp>(op);
        if (!module)
          return op->emitError("expected a module");
        // np IR is lowered first; IR that is already lowered (the output
        // of --npcc-to-c) is only checked, never lowered a second time.
        bool lowered =
            !module
                 .walk([](mlir::Operation *o) {
                   return llvm::isa<npcc::np::NPDialect>(o->getDialect())
                              ? mlir::WalkResult::interrupt()
                              : mlir::WalkResult::advance();
                 })
                 .wasInterrupted();
        mlir::PassManager pm(op->getContext());
        if (lowered)
          npcc::buildCContractPipeline(pm);
        else
          npcc::buildCPipeline(pm);
        if (mlir::failed(pm.run(module)))
          return mlir::failure();
        return npcc::translateToC(module, os);
      },
      [](mlir::DialectRegistry &registry) {
        registry.insert<npcc::np::NPDialect, mlir::arith::ArithDialect,
                        mlir::scf::SCFDialect, mlir::memref::MemRefDialect,
                        mlir::func::FuncDialect, mlir::emitc::EmitCDialect>();
      });
  llvm::cl::SetVersionPrinter(
      [](llvm::raw_ostream &os) { os << npcc::versionText("npcc-translate"); });
  return mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "npcc translation tool"));
}
