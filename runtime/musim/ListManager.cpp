//===- ListManager.cpp - the list manager of section 3.2 ------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
#include "runtime/musim/ListManager.h"

namespace npcc::musim {

/// Answers reach the list manager this many cycles after the issuing word.
constexpr unsigned ANSWER_DELAY = 2;

ListManager::ListManager(const std::vector<Item> &list,
                         const std::vector<Item> &headers,
                         const ListConfig &config)
    : list(list), headers(headers), config(config), sent(headers.size(), 0),
      finished(list.size(), 0) {}

void ListManager::answer(uint64_t cycle, unsigned h, bool match) {
  // At most one answer per cycle and a fixed delay: never more than
  // ANSWER_DELAY + 1 pending.
  queue[qTail++ & 3] = {cycle + ANSWER_DELAY, h, match};
}

void ListManager::tickSlow(uint64_t cycle, InputFifo &fifo) {
  while (qHead != qTail && queue[qHead & 3].due <= cycle) {
    const Answer &a = queue[qHead++ & 3];
    if (a.header != header)
      continue; // an answer for a header already ended
    ++answered;
    matched |= a.match;
  }
  if (done())
    return;
  const Item &hdr = headers[header];
  if (phase == HEADER) {
    if (word == 0)
      start = cycle;
    fifo.push(hdr[word], false);
    if (++word == 8) {
      phase = ITEMS;
      word = 0;
    }
    return;
  }
  if (word == 0) { // between items
    if (matched || item == list.size()) {
      fifo.push(0, true);
      ++header;
      phase = HEADER;
      item = answered = 0;
      matched = false;
      return;
    }
    if (sent[header] - answered >= config.window)
      return;
    uint64_t c = config.cacheItems;
    if (item >= c) {
      uint64_t fetched = item == c ? start : finished[item - c - 1];
      if (cycle < fetched + config.memLatency)
        return;
    }
    ++sent[header];
  }
  fifo.push(list[item][word], false);
  if (++word == 8) {
    finished[item++] = cycle;
    word = 0;
  }
}

} // namespace npcc::musim
