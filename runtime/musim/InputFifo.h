//===- InputFifo.h - the match unit's input FIFO ----------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Every word pushed into the FIFO already sits in an array that outlives
// the run (a header, a list item, the input file's words, the value of an
// END mark), and the list manager pushes runs of consecutive words (the
// items of a list are consecutive too). So the FIFO copies nothing: it
// keeps the runs pushed and not yet popped, and the unit reads through a
// pointer into the current one. Pushing a run of n words is one step,
// which lets the loop (Simulate.cpp) push a whole item at once.
//
// A word the run's bookkeeping must hear of (an END mark, the first word
// of a header) always starts a run. So a pop inside a run is a compare
// and a load, with no flags to read and no count to keep; the reader
// looks further only at the end of a run, and the count of words held is
// worked out when asked (size()). Everything but the ring's growth is
// inline and nothing takes the FIFO's address, so that the loop keeps the
// reader's pointers in registers.
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_RUNTIME_MUSIM_INPUTFIFO_H
#define NPCC_RUNTIME_MUSIM_INPUTFIFO_H

#include <cstddef>
#include <cstdint>

namespace npcc::musim {

class InputFifo {
public:
  /// What a word is, besides its value: an END mark, the first word of a
  /// header.
  enum : uint8_t { END = 1, FIRST = 2 };
  /// A popped word and its flags.
  struct Word {
    uint64_t value;
    uint8_t flags;
  };

  InputFifo() : runs(new Run[16]), mask(15) {}
  InputFifo(const InputFifo &) = delete;
  InputFifo &operator=(const InputFifo &) = delete;
  ~InputFifo() { delete[] runs; }

  bool empty() const { return size() == 0; }
  uint64_t size() const {
    return pushed - poppedBefore - uint64_t(cur.rd - rdBegin);
  }

  /// Pushes the `n` words from `w`, which stay valid until popped; the
  /// first has the flags `flags` (END: an END mark, one word).
  void push(const uint64_t *w, uint32_t n, uint8_t flags) {
    if (w != wrEnd || flags)
      openRun(w, flags);
    wrEnd = w + n;
    pushed += n;
    if (rCur + 1 == rTail) // the reader is in the open run
      cur.stop = wrEnd;
  }
  /// Takes back the last `n` words pushed, all from the last push and none
  /// popped.
  void unpush(uint32_t n) {
    wrEnd -= n;
    pushed -= n;
    if (rCur + 1 == rTail)
      cur.stop = wrEnd;
  }
  /// The reader's position in its run. A loop may hold a copy, pop with
  /// it and give it back (`cursor() = copy`) before the FIFO is used
  /// otherwise: the copy can live in registers.
  struct Cursor {
    const uint64_t *rd = nullptr, *stop = nullptr;
  };
  Cursor &cursor() { return cur; }

  /// Whether the next pop at `c` stays in its run: then it has no flags
  /// and popInRun() is the pop.
  static bool inRun(const Cursor &c) { return c.rd != c.stop; }
  static uint64_t popInRun(Cursor &c) { return *c.rd++; }

  /// Requires !empty().
  Word pop() { return pop(cur); }
  /// The same, with the reader at `c` (cursor()).
  Word pop(Cursor &c) {
    if (__builtin_expect(c.rd != c.stop, 1))
      return {*c.rd++, 0};
    // The first word of the next run; runs taken back whole (unpush) may
    // be empty.
    for (;;) {
      poppedBefore += c.stop - rdBegin;
      const Run &r = runs[++rCur & mask];
      c.rd = rdBegin = r.begin;
      c.stop = rCur + 1 == rTail ? wrEnd : r.end;
      rdFlags = r.flags;
      if (c.rd != c.stop)
        return {*c.rd++, rdFlags};
    }
  }

  /// Whether a word has been popped, and whether the last one was an END.
  bool poppedAny() const { return rCur != ~0u; }
  bool lastPoppedEnd() const {
    return cur.rd == rdBegin + 1 && (rdFlags & END);
  }

private:
  struct Run {
    const uint64_t *begin, *end; // `end` set once the run is closed
    uint8_t flags;               // of its first word
  };
  void openRun(const uint64_t *w, uint8_t flags) {
    if (rTail != 0) // close the open run
      runs[(rTail - 1) & mask].end = wrEnd;
    if (rTail - rCur > mask) { // full
      runs = grow(runs, mask, rCur, rTail);
      mask = 2 * mask + 1;
    }
    runs[rTail++ & mask] = {w, nullptr, flags};
  }
  /// The runs [from, to) of `ring` (its mask `mask`) in a ring twice as
  /// big; frees `ring`.
  static Run *grow(Run *ring, uint32_t mask, uint32_t from, uint32_t to);

  Run *runs; // a ring: the runs [rCur, rTail)
  uint32_t mask, rCur = ~0u, rTail = 0;
  // The writer: the open run, runs[rTail - 1], ends at wrEnd.
  const uint64_t *wrEnd = nullptr;
  uint64_t pushed = 0;
  // The reader, in runs[rCur] from rdBegin: it stops at cur.stop, the
  // run's end (the writer's end while the run is open).
  Cursor cur;
  const uint64_t *rdBegin = nullptr;
  uint8_t rdFlags = 0;
  uint64_t poppedBefore = 0; // the words of the runs before rCur
};

} // namespace npcc::musim

#endif // NPCC_RUNTIME_MUSIM_INPUTFIFO_H
