//===- PassCheck.h - the match interpreter after every pass -----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// `npcc --target=ucode --check-each-pass`: a debug check of the ucode
// pipeline that evaluates the program after every pass, with the reference
// interpreter while it is a `match.program` and on musim once it is
// microcode, over the list and headers musim reads, and names the first
// pass that changes an answer.
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_TARGETS_UCODE_PASSCHECK_PASSCHECK_H
#define NPCC_TARGETS_UCODE_PASSCHECK_PASSCHECK_H

#include "dialects/Match/Interp/Interp.h"

#include "mlir/Pass/PassInstrumentation.h"

#include <string>
#include <vector>

namespace npcc::ucode {

/// A pass instrumentation that, after every pass, evaluates the
/// `match.program` of the module with the interpreter (or, once it has been
/// compiled, runs the `ucode.program` on musim) over `cases` and reports
/// the first pass after which any header's answer differs from the answer
/// of the program before the first pass. The report names the pass, the
/// header and both answers; `failed()` tells whether any pass changed an
/// answer.
class PassCheck : public mlir::PassInstrumentation {
public:
  PassCheck(match::ListCases cases, llvm::StringRef programName)
      : cases(std::move(cases)), name(programName.str()) {}
  void runBeforePass(mlir::Pass *pass, mlir::Operation *op) override;
  void runAfterPass(mlir::Pass *pass, mlir::Operation *op) override;
  bool failed() const { return broken; }

private:
  /// Answers of the module's program; false (with `error`) when it has
  /// neither a match nor a ucode program of that name.
  bool answers(mlir::Operation *module, std::vector<match::ListDecision> &out,
               std::string &error);
  /// Reports `message` as the check's error and stops checking.
  void fail(const llvm::Twine &message);

  match::ListCases cases;
  std::string name;
  std::vector<match::ListDecision> reference;
  bool haveReference = false, broken = false;
};

} // namespace npcc::ucode

#endif // NPCC_TARGETS_UCODE_PASSCHECK_PASSCHECK_H
