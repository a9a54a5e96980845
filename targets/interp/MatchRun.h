//===- MatchRun.h - run match programs on musim's input files ---*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// `npcc --target=interp` for match programs, and the debug check that runs
// the reference interpreter after every pass of the ucode pipeline
// (`npcc --target=ucode --check-each-pass`). Both read the list and header
// files musim reads (runtime/musim/InputFiles.h) and answer in musim's
// format without cycles, so `musim ... | sed 's/ cycles.*//'` and the
// interpreter's output can be diffed.
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_TARGETS_INTERP_MATCHRUN_H
#define NPCC_TARGETS_INTERP_MATCHRUN_H

#include "dialects/Match/Interp/Interp.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>
#include <vector>

namespace npcc::interp {

/// Headers and a posted-receive list, as musim reads them.
struct MatchCases {
  std::vector<match::Words> headers, list;
};

/// Reads a list file and a header file; false with "file:line: message".
bool readMatchCases(const std::string &listFile, const std::string &headersFile,
                    MatchCases &cases, std::string &error);

/// The interpreter's decision for every header of `cases`.
mlir::LogicalResult interpretCases(match::ProgramOp program,
                                   const MatchCases &cases,
                                   std::vector<match::ListDecision> &out,
                                   std::string &error);

/// Prints `header N: ...` lines for `decisions`.
void printDecisions(llvm::raw_ostream &os,
                    const std::vector<match::ListDecision> &decisions);

/// A pass instrumentation that, after every pass, evaluates the
/// `match.program` of the module with the interpreter (or, once it has been
/// compiled, runs the `ucode.program` on musim) over `cases` and reports
/// the first pass after which any header's answer differs from the answer
/// of the program before the first pass. The report names the pass, the
/// header and both answers; `failed()` tells whether any pass changed an
/// answer.
class PassCheck : public mlir::PassInstrumentation {
public:
  PassCheck(MatchCases cases, llvm::StringRef programName)
      : cases(std::move(cases)), name(programName.str()) {}
  void runBeforePass(mlir::Pass *pass, mlir::Operation *op) override;
  void runAfterPass(mlir::Pass *pass, mlir::Operation *op) override;
  bool failed() const { return broken; }

private:
  /// Answers of the module's program; false (with `error`) when it has
  /// neither a match nor a ucode program of that name.
  bool answers(mlir::Operation *module, std::vector<match::ListDecision> &out,
               std::string &error);

  MatchCases cases;
  std::string name;
  std::vector<match::ListDecision> reference;
  bool haveReference = false, broken = false;
};

} // namespace npcc::interp

#endif // NPCC_TARGETS_INTERP_MATCHRUN_H
