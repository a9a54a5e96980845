//===- MatchToUCode.cpp - match-select-ucode, ucode-allocate-registers ----===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "targets/ucode/MatchToUCode/BackendImpl.h"
#include "targets/ucode/MatchToUCode/MachineIR.h"
#include "targets/ucode/MatchToUCode/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/CommandLine.h"

#include <memory>

namespace npcc::mub {
#define GEN_PASS_DEF_SELECTUCODE
#define GEN_PASS_DEF_ALLOCATEREGISTERS
#include "targets/ucode/MatchToUCode/Passes.h.inc"
} // namespace npcc::mub

using namespace mlir;
using namespace npcc;
using namespace npcc::mub;

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

struct SelectUCodePass : mub::impl::SelectUCodeBase<SelectUCodePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    OpBuilder b(module.getContext());
    for (auto program :
         llvm::make_early_inc_range(module.getOps<match::ProgramOp>())) {
      Scheduled scheduled;
      if (failed(selectMatchProgram(program, scheduled)))
        return signalPassFailure();
      b.setInsertionPoint(program);
      buildMachineOp(b, program.getLoc(), program.getSymName(), scheduled);
      program.erase();
    }
  }
};

struct AllocateRegistersPass
    : mub::impl::AllocateRegistersBase<AllocateRegistersPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    OpBuilder b(module.getContext());
    for (auto machine :
         llvm::make_early_inc_range(module.getOps<ucode::MachineOp>())) {
      Scheduled scheduled;
      if (failed(readMachineOp(machine, scheduled)))
        return signalPassFailure();
      std::vector<int> phys;
      if (auto failure = allocateRegisters(scheduled.machine, phys)) {
        machine.emitError(failure->message());
        return signalPassFailure();
      }
      CompiledProgram compiled;
      layoutWords(scheduled, phys, compiled);
      breakOnPurpose(compiled);
      b.setInsertionPoint(machine);
      auto out =
          b.create<ucode::ProgramOp>(machine.getLoc(), machine.getSymName());
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
        b.create<ucode::BundleOp>(machine.getLoc(), w, target,
                                  compiled.labels[i]);
      }
      machine.erase();
    }
  }
};
} // namespace

static llvm::cl::opt<bool> printAttempts(
    "print-match-attempts", llvm::cl::Hidden,
    llvm::cl::desc("Print why each attempt of the match back end failed"));

LogicalResult npcc::mub::selectMatchProgram(match::ProgramOp program,
                                            Scheduled &out) {
  if (program.getHeaderWords() != kWords || program.getItemWords() != kWords)
    return program.emitOpError("the list manager streams 8-word headers and "
                               "items"),
           failure();
  // Attempts, in order: values where they were computed; header conditions
  // the items test kept in ALU registers and tested per item; header values
  // the ternary unit reads copied per item; both. Each is repeated with copy
  // slots kept for answers that found none.
  // A second round repeats them, keeping for a failure answer the copy
  // slot of the word its guard is known in (seed 551842: the middle exit's
  // guard is known two words after its branch).
  const Options ladder[] = {{false, false, {}, false}, {true, false, {}, false},
                            {false, true, {}, false},  {true, true, {}, false},
                            {false, false, {}, true},  {true, false, {}, true},
                            {false, true, {}, true},   {true, true, {}, true}};
  std::unique_ptr<Backend> first, firstLimit;
  bool copySlotMissed = false;
  for (const Options &base : ladder) {
    if (base.slotsWhereKnown && !copySlotMissed)
      break; // the second round changes nothing else
    Options options = base;
    for (int round = 0; round < 8; ++round) {
      auto attempt = std::make_unique<Backend>(program, options);
      if (succeeded(attempt->run())) {
        attempt->finish(out);
        return success();
      }
      Retry why = attempt->retryKind();
      if (printAttempts) {
        llvm::errs() << "match back end: attempt (header bools in ALU "
                     << options.headerBoolsInAlu << ", ternary per item "
                     << options.headerTernPerItem << ", "
                     << options.answerSlots.size() << " kept copy slots"
                     << (options.slotsWhereKnown ? ", where known" : "")
                     << "): " << attempt->diagnostic() << "\n";
      }
      auto slots = attempt->answerSlots();
      if (why != RetryCopySlot && !firstLimit)
        firstLimit = std::move(attempt);
      else if (!first)
        first = std::move(attempt);
      if (why != RetryCopySlot)
        break;
      copySlotMissed = true;
      options.answerSlots.insert(options.answerSlots.end(), slots.begin(),
                                 slots.end());
    }
    if (firstLimit && firstLimit->retryKind() == RetryNone)
      break; // a limit of the unit, not of this attempt's choices
  }
  // The first limit of the unit an attempt met names the refusal; answers
  // without copy slots only when no attempt got further.
  (firstLimit ? firstLimit : first)->emitDiagnostic();
  return failure();
}
