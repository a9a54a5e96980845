//===- UCodeTranslations.cpp - --emit-ucode and --emit-ucode-asm ----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "targets/ucode/UCodeEmitter.h"

#include "mlir/Tools/mlir-translate/Translation.h"

using namespace mlir;

/// Runs `fn` on the module that mlir-translate parsed.
template <typename Fn> static auto onModule(Fn fn) {
  return [fn](Operation *op, llvm::raw_ostream &os) -> LogicalResult {
    auto module = dyn_cast<ModuleOp>(op);
    if (!module)
      return op->emitError("expected a module");
    return fn(module, os);
  };
}

static void registerDialects(DialectRegistry &registry) {
  registry.insert<npcc::ucode::UCodeDialect>();
}

void npcc::ucode::registerUCodeTranslations() {
  static TranslateFromMLIRRegistration emitImage(
      "emit-ucode", "encode a ucode.program as a match-unit image",
      onModule(translateUCodeToImage), registerDialects);
  static TranslateFromMLIRRegistration emitAsm(
      "emit-ucode-asm", "print a ucode.program as match-unit assembly",
      onModule(translateUCodeToAssembly), registerDialects);
  static TranslateFromMLIRRegistration emitListing(
      "emit-ucode-listing",
      "print the listing of a ucode.program: address, encoding, text",
      onModule(translateUCodeToListing), registerDialects);
}
