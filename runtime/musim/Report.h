//===- Report.h - text and JSON reports of a run ----------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Stable text for FileCheck and one JSON object with a fixed key order.
//
//   header H: match I offset O length L cycles C
//   header H: no match cycles C
//   header H: incomplete
//   out N: TAG 0xVALUE                      (raw input runs)
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_RUNTIME_MUSIM_REPORT_H
#define NPCC_RUNTIME_MUSIM_REPORT_H

#include "runtime/musim/Run.h"

#include <ostream>

namespace npcc::musim {

void printResults(std::ostream &os, const RunResult &result, bool raw);
void printStats(std::ostream &os, const RunResult &result, bool raw);
void printJson(std::ostream &os, const RunResult &result, bool raw);

} // namespace npcc::musim

#endif // NPCC_RUNTIME_MUSIM_REPORT_H
