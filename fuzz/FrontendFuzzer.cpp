//===- FrontendFuzzer.cpp - libFuzzer target: the NPL front end -----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// One input is one .np file (imports resolve against lib/, as in npcc):
// parse, semantic checks, MLIR generation, and the verifier on the result.
// User errors are fine (the diagnostics are silenced); a crash, hang,
// sanitizer report or IR the verifier rejects ("'np.x' op ..." from the
// verifier mlirGen runs) is a bug.
//
//===----------------------------------------------------------------------===//

#include "FuzzInput.h"
#include "compiler/frontend/Frontend.h"
#include "compiler/frontend/MLIRGen.h"
#include "compiler/frontend/Sema.h"
#include "dialects/Match/IR/MatchOps.h"
#include "dialects/NP/IR/NPDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"

#include <cstdio>
#include <cstdlib>
#include <memory>

namespace {
/// One context for many inputs (creating and loading it per input costs
/// more than a small program), rebuilt every few thousand inputs so that
/// uniqued attributes and types do not pile up.
struct Session {
  Session() : ctx(mlir::MLIRContext::Threading::DISABLED) {
    ctx.loadDialect<npcc::np::NPDialect, npcc::match::MatchDialect,
                    mlir::arith::ArithDialect, mlir::scf::SCFDialect,
                    mlir::memref::MemRefDialect>();
    ctx.printOpOnDiagnostic(false);
  }
  mlir::MLIRContext ctx;
  unsigned inputs = 0;
};
std::unique_ptr<Session> session;
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = npccFuzzWriteInput(data, size, ".np");
  if (!path)
    return 0;
  if (!session || ++session->inputs == 4096)
    session = std::make_unique<Session>();
  mlir::MLIRContext &ctx = session->ctx;
  bool invalidIR = false;
  std::string firstInvalid;
  mlir::ScopedDiagnosticHandler quiet(&ctx, [&](mlir::Diagnostic &d) {
    std::string msg = d.str();
    if (d.getSeverity() == mlir::DiagnosticSeverity::Error &&
        llvm::StringRef(msg).starts_with("'") &&
        llvm::StringRef(msg).contains("' op ") && !invalidIR) {
      invalidIR = true;
      firstInvalid = msg;
    }
    return mlir::success();
  });

  npcc::FileNames names;
  npcc::ast::Module module;
  std::vector<std::string> dirs{NPCC_LIB_DIR};
  const std::string *mainFile =
      npcc::loadProgram(&ctx, path, dirs, names, module);
  if (!mainFile)
    return 0;
  npcc::Sema sema(&ctx, module);
  if (!sema.run())
    return 0;
  mlir::OwningOpRef<mlir::ModuleOp> ir =
      npcc::mlirGen(sema, module, mainFile, "");
  if (invalidIR || (ir && mlir::failed(mlir::verify(*ir)))) {
    fprintf(stderr, "front end produced invalid IR: %s\n",
            firstInvalid.c_str());
    abort();
  }
  return 0;
}
