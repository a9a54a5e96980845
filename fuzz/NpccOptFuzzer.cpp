//===- NpccOptFuzzer.cpp - libFuzzer target: npcc-opt on .mlir ------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// One input is one .mlir module in the dialects npcc-opt registers: parse,
// verify, then the C pipeline (`npcc-opt --npcc-to-c`) and the C emitter.
// Parse, verifier and pass errors are fine (silenced); a crash, hang or
// sanitizer report is a bug.
//
//===----------------------------------------------------------------------===//

#include "compiler/pipelines/Pipelines.h"
#include "dialects/Match/IR/MatchOps.h"
#include "dialects/NP/IR/NPDialect.h"
#include "dialects/UCode/IR/UCodeOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>

namespace {
/// The context and pass manager outlive single inputs: creating them (and
/// collecting every dialect's canonicalization patterns) cost far more
/// than compiling a small module. They are rebuilt every few thousand
/// inputs so that uniqued attributes and types do not pile up.
struct Session {
  Session()
      : ctx(registry(), mlir::MLIRContext::Threading::DISABLED), pm(&ctx) {
    ctx.printOpOnDiagnostic(false);
    npcc::buildCPipeline(pm);
  }
  static mlir::DialectRegistry registry() {
    mlir::DialectRegistry r;
    r.insert<npcc::np::NPDialect, npcc::match::MatchDialect,
             npcc::ucode::UCodeDialect, mlir::arith::ArithDialect,
             mlir::cf::ControlFlowDialect, mlir::emitc::EmitCDialect,
             mlir::func::FuncDialect, mlir::memref::MemRefDialect,
             mlir::scf::SCFDialect>();
    return r;
  }
  mlir::MLIRContext ctx;
  mlir::PassManager pm;
  unsigned inputs = 0;
};
std::unique_ptr<Session> session;
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!session || ++session->inputs == 4096)
    session = std::make_unique<Session>();
  mlir::MLIRContext &ctx = session->ctx;
  mlir::ScopedDiagnosticHandler quiet(
      &ctx, [](mlir::Diagnostic &) { return mlir::success(); });

  // The MLIR lexer stops at a NUL, as after every file npcc-opt reads;
  // libFuzzer's buffer has none.
  std::string owned(reinterpret_cast<const char *>(data), size);
  llvm::StringRef text(owned.c_str(), size);
  mlir::ParserConfig config(&ctx);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(text, config, "fuzz.mlir");
  if (!module || mlir::failed(mlir::verify(*module)))
    return 0;
  if (mlir::failed(session->pm.run(*module)))
    return 0;
  std::string c;
  llvm::raw_string_ostream os(c);
  (void)npcc::translateToC(*module, os);
  return 0;
}
