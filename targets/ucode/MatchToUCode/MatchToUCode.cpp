//===- MatchToUCode.cpp - the convert-match-to-ucode pass -----------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "targets/ucode/MatchToUCode/Backend.h"
#include "targets/ucode/MatchToUCode/Passes.h"

#include "mlir/IR/Builders.h"

namespace npcc::mub {
#define GEN_PASS_DEF_CONVERTMATCHTOUCODE
#include "targets/ucode/MatchToUCode/Passes.h.inc"
} // namespace npcc::mub

using namespace mlir;
using namespace npcc;

namespace {
struct ConvertMatchToUCodePass
    : mub::impl::ConvertMatchToUCodeBase<ConvertMatchToUCodePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    OpBuilder b(module.getContext());
    for (auto program :
         llvm::make_early_inc_range(module.getOps<match::ProgramOp>())) {
      mub::CompiledProgram compiled;
      if (failed(mub::compileMatchProgram(program, compiled)))
        return signalPassFailure();
      b.setInsertionPoint(program);
      auto out =
          b.create<ucode::ProgramOp>(program.getLoc(), program.getSymName());
      b.setInsertionPointToStart(&out.getBodyRegion().front());
      for (size_t i = 0; i < compiled.words.size(); ++i)
        b.create<ucode::BundleOp>(
            program.getLoc(),
            mu::printWord(compiled.words[i], &compiled.labels),
            compiled.labels[i]);
      program.erase();
    }
  }
};
} // namespace
