//===- PassCheck.cpp - the match interpreter after every pass -------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "targets/ucode/PassCheck/PassCheck.h"

#include "dialects/UCode/IR/UCodeOps.h"
#include "runtime/musim/Run.h"
#include "targets/ucode/UCodeEmitter.h"

#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/Pass.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace npcc::ucode {

bool PassCheck::answers(Operation *module,
                        std::vector<match::ListDecision> &out,
                        std::string &error) {
  Operation *found = nullptr;
  module->walk([&](Operation *op) {
    auto sym = op->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
    if ((isa<match::ProgramOp>(op) || isa<ucode::ProgramOp>(op)) && sym &&
        (name.empty() || sym.getValue() == name))
      found = op;
  });
  if (auto program = dyn_cast_or_null<match::ProgramOp>(found))
    return succeeded(match::interpretCases(program, cases, out, error));
  auto program = dyn_cast_or_null<ucode::ProgramOp>(found);
  if (!program) {
    error = "no match or ucode program '" + name + "' to check";
    return false;
  }
  std::vector<mu::Word> words;
  if (mlir::failed(ucode::encodeProgram(program, words))) {
    error = "the ucode program does not encode";
    return false;
  }
  musim::Program prog;
  if (!musim::loadProgram(words, prog, error))
    return false;
  musim::RunResult result;
  if (!musim::runList(prog, cases.list, cases.headers, musim::RunConfig(),
                      result)) {
    error = "musim: " + result.error;
    return false;
  }
  out.assign(cases.headers.size(), match::ListDecision());
  for (size_t i = 0; i < cases.headers.size(); ++i) {
    const musim::HeaderResult &h = result.headers[i];
    if (!h.complete) {
      error = "musim: header " + std::to_string(i) + " is incomplete";
      return false;
    }
    out[i].match = h.match;
    if (h.match >= 0) {
      out[i].offset = h.offset;
      out[i].length = h.length;
    }
  }
  return true;
}

void PassCheck::fail(const llvm::Twine &message) {
  llvm::errs() << "npcc: error: --check-each-pass: " << message << "\n";
  broken = true;
}

void PassCheck::runBeforePass(Pass *pass, Operation *op) {
  if (haveReference || broken)
    return;
  std::string error;
  if (!answers(op, reference, error))
    return fail("before pass '" + pass->getArgument() + "': " + error);
  haveReference = true;
}

void PassCheck::runAfterPass(Pass *pass, Operation *op) {
  if (!haveReference || broken)
    return;
  // Between selection and register allocation the program is a schedule
  // on virtual registers, which neither the interpreter nor musim runs; it
  // is checked once it is microcode.
  bool scheduled = false;
  op->walk([&](ucode::MachineOp machine) {
    scheduled |= name.empty() || machine.getSymName() == name;
  });
  if (scheduled)
    return;
  std::vector<match::ListDecision> now;
  std::string error;
  if (!answers(op, now, error))
    return fail("after pass '" + pass->getArgument() + "': " + error);
  for (size_t i = 0; i < now.size(); ++i)
    if (!(now[i] == reference[i]))
      return fail("pass '" + pass->getArgument() +
                  "' changed the answer of header " + llvm::Twine(i) +
                  ": before " + match::formatListDecision(i, reference[i]) +
                  ", after " + match::formatListDecision(i, now[i]));
}

} // namespace npcc::ucode
