//===- MatchRun.cpp - run match programs on musim's input files -----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "targets/interp/MatchRun.h"

#include "runtime/musim/InputFiles.h"

namespace npcc::interp {

bool readMatchCases(const std::string &listFile, const std::string &headersFile,
                    MatchCases &cases, std::string &error) {
  std::string text;
  return musim::readFile(listFile, text, error) &&
         musim::parseItems(listFile, text, cases.list, error) &&
         musim::readFile(headersFile, text, error) &&
         musim::parseItems(headersFile, text, cases.headers, error);
}

void printDecisions(llvm::raw_ostream &os,
                    const std::vector<match::ListDecision> &decisions) {
  for (size_t i = 0; i < decisions.size(); ++i)
    os << match::formatListDecision(i, decisions[i]) << '\n';
}

} // namespace npcc::interp
