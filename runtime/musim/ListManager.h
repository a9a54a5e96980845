//===- ListManager.h - the list manager of section 3.2 ----------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Feeds the match unit's input FIFO, one word per cycle: for each header
// its 8 words, then the posted-receive list from item 0, at most `window`
// items sent but not answered, uncached items arriving `memLatency` cycles
// after their fetch; END after a match (once the item being sent is done)
// or after the last item; the next header right after END.
//
// Fetch model: the first `cacheItems` items stay cached. Item k beyond
// them is fetched when the list manager finishes sending item k-C-1 (C =
// cacheItems), or when the header starts if k = C, so the cache covers C
// items of look-ahead (cacheItems = 0: every item waits for memory).
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_RUNTIME_MUSIM_LISTMANAGER_H
#define NPCC_RUNTIME_MUSIM_LISTMANAGER_H

#include "runtime/musim/Machine.h"

#include <array>
#include <cstdint>
#include <vector>

namespace npcc::musim {

/// Eight 64-bit words: a list item or a header.
using Item = std::array<uint64_t, 8>;

struct ListConfig {
  unsigned memLatency = 10;
  unsigned cacheItems = 3;
  unsigned window = 2;
};

class ListManager {
public:
  ListManager(const std::vector<Item> &list, const std::vector<Item> &headers,
              const ListConfig &config);

  /// Start of a cycle: take the answers due now, then push at most one
  /// word into `fifo`.
  void tick(uint64_t cycle, InputFifo &fifo) {
    if (qHead == qTail && phase == ITEMS && word != 0) {
      // The common case: in the middle of an item, nothing to hear.
      fifo.push(list[item][word], false);
      if (++word == 8) {
        finished[item++] = cycle;
        word = 0;
      }
      return;
    }
    tickSlow(cycle, fifo);
  }
  /// The unit issued `fail` or `len` (a match) for `header` at `cycle`; the
  /// list manager sees it two cycles later.
  void answer(uint64_t cycle, unsigned header, bool match);
  /// Every header, with its END, has been pushed.
  bool done() const { return header >= headers.size(); }
  /// Waiting for an answer that nobody has issued: the window is full and
  /// no answer is in flight.
  bool blockedOnAnswer() const {
    return !done() && phase == ITEMS && word == 0 && !matched &&
           item < list.size() && sent[header] - answered >= config.window &&
           qHead == qTail;
  }
  /// Items of `h` whose first word has been pushed.
  uint64_t itemsSent(unsigned h) const { return sent[h]; }

private:
  void tickSlow(uint64_t cycle, InputFifo &fifo);
  enum Phase { HEADER, ITEMS };
  const std::vector<Item> &list, &headers;
  ListConfig config;
  std::vector<uint64_t> sent;     // per header
  std::vector<uint64_t> finished; // per item of the current header
  unsigned header = 0, word = 0;
  Phase phase = HEADER;
  uint64_t item = 0, answered = 0, start = 0;
  bool matched = false;
  struct Answer {
    uint64_t due;
    unsigned header;
    bool match;
  };
  Answer queue[4];
  unsigned qHead = 0, qTail = 0;
};

} // namespace npcc::musim

#endif // NPCC_RUNTIME_MUSIM_LISTMANAGER_H
