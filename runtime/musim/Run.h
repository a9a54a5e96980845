//===- Run.h - run a match-unit program against its input -------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The simulator's API. runList feeds the unit through the list manager and
// reports, per header, the matched item, offset, length and cycles; runRaw
// feeds a fixed stream of input words and collects the output FIFO. Both
// end when all input is consumed and the unit waits for more, on `halt`, or
// with an error (a fault, with its PC, or the cycle limit).
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_RUNTIME_MUSIM_RUN_H
#define NPCC_RUNTIME_MUSIM_RUN_H

#include "runtime/musim/ListManager.h"
#include "runtime/musim/Program.h"

#include <cstdint>
#include <string>
#include <vector>

namespace npcc::musim {

class Observer;

/// Cycles after the last issued word until its results are final.
constexpr unsigned DRAIN_CYCLES = 2;

struct RunConfig {
  ListConfig list;
  uint64_t maxCycles = 1000000000;
};

struct HeaderResult {
  bool complete = false; // the unit popped this header's END
  int64_t match = -1;    // item index, -1: no match
  uint64_t offset = 0, length = 0;
  uint64_t firstCycle = 0;  // the unit popped the first header word
  uint64_t endCycle = 0;    // the unit popped the END mark
  uint64_t cycles = 0;      // endCycle - firstCycle
  uint64_t itemsPushed = 0; // list items the list manager sent
};

struct OutputWord {
  uint64_t value;
  unsigned tag;
  uint64_t cycle;
  unsigned pc;
};

struct InputWord {
  uint64_t value;
  bool end;
};

struct RunStats {
  uint64_t cycles = 0; // including the drain
  uint64_t stalls = 0, words = 0, taken = 0, cancelled = 0;
  uint64_t slots[NUM_SLOTS] = {}; // words issued with the slot in use
  bool halted = false;
};

struct RunResult {
  std::vector<HeaderResult> headers; // runList only
  std::vector<OutputWord> outputs;   // runRaw only
  RunStats stats;
  std::string error; // set when the run returns false
};

bool runList(const Program &prog, const std::vector<Item> &list,
             const std::vector<Item> &headers, const RunConfig &config,
             RunResult &result, Observer *observer = nullptr);

bool runRaw(const Program &prog, const std::vector<InputWord> &input,
            const RunConfig &config, RunResult &result,
            Observer *observer = nullptr);

/// Output tag names: fail, off, len, data.
const char *tagName(unsigned tag);

} // namespace npcc::musim

#endif // NPCC_RUNTIME_MUSIM_RUN_H
