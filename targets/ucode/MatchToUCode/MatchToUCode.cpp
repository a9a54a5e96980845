//===- MatchToUCode.cpp - the convert-match-to-ucode pass -----------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "targets/ucode/MatchToUCode/Backend.h"
#include "targets/ucode/MatchToUCode/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/CommandLine.h"

namespace npcc::mub {
#define GEN_PASS_DEF_CONVERTMATCHTOUCODE
#include "targets/ucode/MatchToUCode/Passes.h.inc"
} // namespace npcc::mub

using namespace mlir;
using namespace npcc;

namespace {
/// A deliberate miscompile for testing translation validation
/// (test/targets/ucode/validate-broken.test): `flip-compare` inverts the
/// predicate of the first ALU compare of the compiled words (eq<->ne,
/// ltu<->geu, leu<->gtu, lts<->ges), or, without one, turns the first
/// tern.eq into tern.eqi.
llvm::cl::opt<std::string> debugBreakPass(
    "debug-break-pass", llvm::cl::Hidden,
    llvm::cl::desc("Miscompile on purpose (flip-compare), to test --validate"));

void breakOnPurpose(mub::CompiledProgram &compiled) {
  if (debugBreakPass != "flip-compare")
    return;
  for (mu::Word &w : compiled.words) {
    if (w.ALU_OP >= mu::ALU_EQ) {
      static const unsigned Inverse[] = {mu::ALU_NE,  mu::ALU_EQ,  mu::ALU_GEU,
                                         mu::ALU_GTU, mu::ALU_LEU, mu::ALU_LTU,
                                         mu::ALU_GES, mu::ALU_LTS};
      w.ALU_OP = Inverse[w.ALU_OP - mu::ALU_EQ];
      return;
    }
  }
  for (mu::Word &w : compiled.words) {
    if (w.TERN_OP == mu::TERN_EQ) {
      w.TERN_OP = mu::TERN_EQI;
      return;
    }
  }
}

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
      breakOnPurpose(compiled);
      b.setInsertionPoint(program);
      auto out =
          b.create<ucode::ProgramOp>(program.getLoc(), program.getSymName());
      b.setInsertionPointToStart(&out.getBodyRegion().front());
      for (size_t i = 0; i < compiled.words.size(); ++i) {
        // Words go into the IR as data; a branch to a labelled word names
        // the label, as the assembly does.
        mu::Word w = compiled.words[i];
        std::string target;
        if (w.BR_OP != mu::BR_NONE && w.BR_OP != mu::BR_HALT &&
            w.BR_TARGET < compiled.labels.size() &&
            !compiled.labels[w.BR_TARGET].empty()) {
          target = compiled.labels[w.BR_TARGET];
          w.BR_TARGET = 0;
        }
        b.create<ucode::BundleOp>(program.getLoc(), w, target,
                                  compiled.labels[i]);
      }
      program.erase();
    }
  }
};
} // namespace
