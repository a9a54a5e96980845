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

#include "runtime/musim/InputFifo.h"

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

/// The words the list manager pushes next without deciding anything: the
/// rest of a header or an item, one per cycle. The loop holds a copy and
/// pushes from it; the list manager decides only when it runs out.
struct Feed {
  const uint64_t *src = nullptr;
  unsigned left = 0;
  uint8_t flags = 0; // InputFifo's flags of the word at `src` (FIRST)
};

class ListManager {
public:
  ListManager(const std::vector<Item> &list, const std::vector<Item> &headers,
              const ListConfig &config);

  /// The feed, which the loop pushes from and advances. While the feed
  /// lasts, the answers that fall due need not be taken at once: they only
  /// count when the list manager next decides (or blockedOnAnswer() asks).
  Feed feed;

  /// The last word of a header or an item has been pushed at `cycle`.
  void blockDone(uint64_t cycle) {
    if (phase == HEADER)
      phase = ITEMS;
    else
      finished[item++] = cycle;
  }
  /// Start of a cycle: takes the answers due, then returns the word to
  /// push (null for none), with its InputFifo flags (an END mark, the first
  /// word of a header), advancing the feed.
  const uint64_t *decide(uint64_t cycle, uint8_t &flags);
  /// Start of a cycle with the feed empty: takes the answers due, then
  /// starts the next header or item if it can start now (the loop pushes
  /// its words); false if not, and decide() then pushes an END or nothing.
  bool refill(uint64_t cycle);
  /// The unit issued `fail` or `len` (a match) for `header` at `cycle`; the
  /// list manager sees it two cycles later.
  void answer(uint64_t cycle, unsigned header, bool match);
  /// Every header, with its END, has been pushed.
  bool done() const { return header >= numHeaders; }
  /// Waiting for an answer that nobody has issued: the window is full and
  /// no answer is in flight.
  bool blockedOnAnswer() const {
    return !done() && phase == ITEMS && feed.left == 0 && !matched &&
           item < listSize && sent[header] - answered >= config.window &&
           qHead == qTail;
  }
  /// Items of `h` whose first word has been pushed.
  uint64_t itemsSent(unsigned h) const { return sent[h]; }

private:
  void takeAnswers(uint64_t cycle);
  /// With the feed empty and the answers taken: starts the next header or
  /// item if it can start at `cycle`.
  bool startNext(uint64_t cycle);
  enum Phase { HEADER, ITEMS };
  // Raw pointers and sizes rather than vectors: this runs every cycle.
  const Item *list, *headers;
  uint64_t listSize;
  unsigned numHeaders;
  ListConfig config;
  std::vector<uint64_t> sentStore, finishedStore;
  uint64_t *sent;     // per header
  uint64_t *finished; // per item of the current header
  unsigned header = 0;
  Phase phase = HEADER;
  uint64_t item = 0, answered = 0, start = 0;
  bool matched = false;
  struct Answer {
    uint64_t due;
    unsigned header;
    bool match;
  };
  // At most one answer per cycle, and the loop leaves them untaken for at
  // most the words of one item: 8 + ANSWER_DELAY + 1 pending, at most.
  Answer queue[16];
  unsigned qHead = 0, qTail = 0;
};

/// Answers reach the list manager this many cycles after the issuing word.
constexpr unsigned ANSWER_DELAY = 2;

// Inline: the loop calls these once per item.
inline void ListManager::answer(uint64_t cycle, unsigned h, bool match) {
  // A fixed delay: they fall due in queue order.
  queue[qTail++ & 15] = {cycle + ANSWER_DELAY, h, match};
}

inline void ListManager::takeAnswers(uint64_t cycle) {
  // In locals, written back once: the loop runs this once per item.
  unsigned h = qHead, t = qTail;
  uint64_t n = answered;
  bool m = matched;
  for (; h != t && queue[h & 15].due <= cycle; ++h) {
    const Answer &a = queue[h & 15];
    if (a.header == header) { // else an answer for a header already ended
      ++n;
      m |= a.match;
    }
  }
  qHead = h;
  answered = n;
  matched = m;
}

inline bool ListManager::startNext(uint64_t cycle) {
  if (done())
    return false;
  if (phase == HEADER) {
    start = cycle;
    feed.src = headers[header].data();
    feed.left = 8;
    feed.flags = InputFifo::FIRST;
    return true;
  }
  if (matched || item == listSize)
    return false; // END
  if (sent[header] - answered >= config.window)
    return false;
  uint64_t c = config.cacheItems;
  if (item >= c) {
    uint64_t fetched = item == c ? start : finished[item - c - 1];
    if (cycle < fetched + config.memLatency)
      return false;
  }
  ++sent[header];
  feed.src = list[item].data();
  feed.left = 8;
  feed.flags = 0;
  return true;
}

inline bool ListManager::refill(uint64_t cycle) {
  takeAnswers(cycle);
  return startNext(cycle);
}

} // namespace npcc::musim

#endif // NPCC_RUNTIME_MUSIM_LISTMANAGER_H
