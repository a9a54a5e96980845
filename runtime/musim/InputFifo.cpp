//===- InputFifo.cpp - the match unit's input FIFO ------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
#include "runtime/musim/InputFifo.h"

namespace npcc::musim {

void InputFifo::openRun(const uint64_t *w, bool end) {
  if (rTail != 0) { // close the open run
    runs[(rTail - 1) & mask].end = wrEnd;
    if (rCur == rTail - 1)
      rdStop = wrEnd;
  }
  if (rTail - rCur > mask) { // full: rCur..rTail-1 move to a ring twice as big
    std::vector<Run> bigger(2 * runs.size());
    for (uint32_t i = rCur; i != rTail; ++i)
      bigger[i & (2 * mask + 1)] = runs[i & mask];
    runs.swap(bigger);
    mask = 2 * mask + 1;
  }
  runs[rTail++ & mask] = {w, nullptr, end};
  openIsEnd = end;
}

void InputFifo::nextRun() {
  const Run &r = runs[++rCur & mask];
  rd = r.begin;
  rdIsEnd = r.isEnd;
  rdStop = rCur == rTail - 1 ? nullptr : r.end;
}

} // namespace npcc::musim
