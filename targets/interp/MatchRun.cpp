//===- MatchRun.cpp - run match programs on musim's input files -----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "targets/interp/MatchRun.h"

#include "runtime/musim/InputFiles.h"

using namespace mlir;

namespace npcc::interp {

bool readMatchCases(const std::string &listFile, const std::string &headersFile,
                    MatchCases &cases, std::string &error) {
  std::string text;
  return musim::readFile(listFile, text, error) &&
         musim::parseItems(listFile, text, cases.list, error) &&
         musim::readFile(headersFile, text, error) &&
         musim::parseItems(headersFile, text, cases.headers, error);
}

LogicalResult interpretCases(match::ProgramOp program, const MatchCases &cases,
                             std::vector<match::ListDecision> &out,
                             std::string &error) {
  out.assign(cases.headers.size(), match::ListDecision());
  for (size_t i = 0; i < cases.headers.size(); ++i)
    if (failed(match::interpretList(program, cases.headers[i], cases.list,
                                    out[i], error)))
      return failure();
  return success();
}

void printDecisions(llvm::raw_ostream &os,
                    const std::vector<match::ListDecision> &decisions) {
  for (size_t i = 0; i < decisions.size(); ++i)
    os << match::formatListDecision(i, decisions[i]) << '\n';
}

} // namespace npcc::interp
