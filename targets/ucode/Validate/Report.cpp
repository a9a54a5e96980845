//===- Report.cpp - print a translation-validation result -----------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
#include "targets/ucode/Validate/Validate.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <fstream>

using namespace npcc;

static bool writeFile(const std::string &path, const std::string &text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  return bool(out);
}

bool validate::validateAndReport(match::ProgramOp program,
                                 const std::vector<mu::Word> &words,
                                 const Options &options,
                                 const std::string &cexPrefix) {
  Result r = validateMatchProgram(program, words, options);
  std::string name = program.getSymName().str();
  auto stats = [&] {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << llvm::format("%.3f", r.seconds) << " s CPU, " << r.paths << " paths, "
       << r.queries << " solver queries";
    return s;
  };
  switch (r.verdict) {
  case Verdict::Proved:
    llvm::errs() << "npcc: validated @" << name << ": " << r.message << " ("
                 << stats() << ")\n";
    return true;
  case Verdict::Undecided:
    llvm::errs() << "npcc: warning: validation of @" << name
                 << " undecided: " << r.message << " (" << stats() << ")\n";
    return true;
  case Verdict::Refuted:
    break;
  }
  std::string headerText = "# header\n" + itemLine(r.header) + "\n";
  std::string listText = "# item 0\n" + itemLine(r.item) + "\n";
  auto diag = mlir::emitError(program.getLoc())
              << "translation validation of @" << name
              << " failed: " << r.message;
  diag.attachNote() << "counterexample header: " << itemLine(r.header);
  diag.attachNote() << "counterexample item 0: " << itemLine(r.item);
  diag.attachNote() << "musim answers: " << r.microcodeAnswer;
  diag.attachNote() << "the match program answers: " << r.programAnswer;
  diag.report();
  if (!cexPrefix.empty()) {
    if (!writeFile(cexPrefix + ".headers", headerText) ||
        !writeFile(cexPrefix + ".list", listText))
      llvm::errs() << "npcc: error: cannot write the counterexample to '"
                   << cexPrefix << ".headers' and '.list'\n";
  }
  return false;
}
