//===- Bench.h - the paper's matching benchmark (section 5.1) ---*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// For list lengths 10, 30, 100, 300 and match positions 0%..100% in steps
// of 10%, runs 64 identical headers against a Portals list (layout of
// docs/match-unit-isa.md) whose items fail on the match bits except item
// round(P/100 * (L-1)), which matches. Per run:
//
//   total_cycles     from the unit's first header word to the END of the
//                    64th header, plus the pipeline drain
//   cycles_per_item  total_cycles / (64 * items traversed), items traversed
//                    = match index + 1
//   hw_bound_ratio   total_cycles / sum over headers of (8 + 8 * items
//                    pushed), the doc's hardware bound
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_RUNTIME_MUSIM_BENCH_H
#define NPCC_RUNTIME_MUSIM_BENCH_H

#include "runtime/musim/Run.h"

#include <ostream>
#include <string>
#include <vector>

namespace npcc::musim {

struct BenchRun {
  unsigned listLength = 0, matchPercent = 0;
  uint64_t totalCycles = 0;
  double cyclesPerItem = 0, hwBoundRatio = 0;
};

struct BenchResult {
  std::vector<BenchRun> runs;
  double simCyclesPerSecond = 0;
};

/// The list and header of one benchmark point.
void paperCase(unsigned length, unsigned matchAt, std::vector<Item> &list,
               Item &header);

/// Runs every point; fails if a run fails or a header does not match the
/// item it should.
bool runPaperBench(const Program &prog, const RunConfig &config,
                   BenchResult &result, std::string &error);

void printBenchTable(std::ostream &os, const std::string &program,
                     const BenchResult &result);
void printBenchJson(std::ostream &os, const std::string &program,
                    const BenchResult &result);

} // namespace npcc::musim

#endif // NPCC_RUNTIME_MUSIM_BENCH_H
