//===- MatchRun.h - run match programs on musim's input files ---*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// `npcc --target=interp` for match programs: reads the list and header
// files musim reads (runtime/musim/InputFiles.h) and answers in musim's
// format without cycles, so `musim ... | sed 's/ cycles.*//'` and the
// interpreter's output can be diffed. The same files feed the ucode
// target's check after every pass (targets/ucode/PassCheck).
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_TARGETS_INTERP_MATCHRUN_H
#define NPCC_TARGETS_INTERP_MATCHRUN_H

#include "dialects/Match/Interp/Interp.h"

#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace npcc::interp {

/// Headers and a posted-receive list, as musim reads them.
using MatchCases = match::ListCases;

/// Reads a list file and a header file; false with "file:line: message".
bool readMatchCases(const std::string &listFile, const std::string &headersFile,
                    MatchCases &cases, std::string &error);

/// The interpreter's decision for every header of the cases.
using match::interpretCases;

/// Prints `header N: ...` lines for `decisions`.
void printDecisions(llvm::raw_ostream &os,
                    const std::vector<match::ListDecision> &decisions);

} // namespace npcc::interp

#endif // NPCC_TARGETS_INTERP_MATCHRUN_H
