//===- InputFifo.h - the match unit's input FIFO ----------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Every word pushed into the FIFO already sits in an array that outlives
// the run (a header, a list item, the input file's words, the value of an
// END mark), and the list manager pushes runs of consecutive words. So
// the FIFO copies nothing: it keeps the runs pushed and not yet popped,
// and the unit reads through a pointer into the current one. Pushing a run
// of n words is one step, and a pop is a load and a compare, which lets
// the loop (Simulate.cpp) push a whole item at once.
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_RUNTIME_MUSIM_INPUTFIFO_H
#define NPCC_RUNTIME_MUSIM_INPUTFIFO_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace npcc::musim {

class InputFifo {
public:
  InputFifo() : runs(16), mask(15) {}
  bool empty() const { return avail == 0; }
  size_t size() const { return avail; }

  /// Pushes the `n` words from `w`, which stay valid until popped; an END
  /// mark (`end`) is one word.
  void push(const uint64_t *w, uint32_t n, bool end) {
    if (w != wrEnd || end || openIsEnd)
      openRun(w, end);
    wrEnd = w + n;
    avail += n;
  }
  /// Takes back the last `n` words pushed, all from the last push and none
  /// popped.
  void unpush(uint32_t n) {
    wrEnd -= n;
    avail -= n;
  }
  /// Requires !empty().
  void pop(uint64_t &v, bool &end) {
    --avail;
    while (rd == rdStop) // a run taken back whole (unpush) may be empty
      nextRun();
    v = *rd++;
    end = rdIsEnd;
  }

private:
  struct Run {
    const uint64_t *begin, *end; // `end` set once the run is closed
    bool isEnd;
  };
  void openRun(const uint64_t *w, bool end);
  void nextRun();

  std::vector<Run> runs; // a ring: the runs [rCur, rTail)
  uint32_t rCur = ~0u, rTail = 0, mask;
  // The writer: the open run, runs[rTail - 1], ends at wrEnd.
  const uint64_t *wrEnd = nullptr;
  bool openIsEnd = false;
  // The reader, in runs[rCur]: rdStop is null while that run is open (the
  // count `avail` keeps the reader behind the writer).
  const uint64_t *rd = nullptr, *rdStop = nullptr;
  bool rdIsEnd = false;
  uint32_t avail = 0;
};

} // namespace npcc::musim

#endif // NPCC_RUNTIME_MUSIM_INPUTFIFO_H
