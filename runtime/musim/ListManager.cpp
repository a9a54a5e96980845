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
    : list(list.data()), headers(headers.data()), listSize(list.size()),
      numHeaders(headers.size()), config(config), sentStore(headers.size(), 0),
      finishedStore(list.size(), 0), sent(sentStore.data()),
      finished(finishedStore.data()) {}

void ListManager::answer(uint64_t cycle, unsigned h, bool match) {
  // A fixed delay: they fall due in queue order.
  queue[qTail++ & 15] = {cycle + ANSWER_DELAY, h, match};
}

void ListManager::takeAnswers(uint64_t cycle) {
  while (qHead != qTail && queue[qHead & 15].due <= cycle) {
    const Answer &a = queue[qHead++ & 15];
    if (a.header != header)
      continue; // an answer for a header already ended
    ++answered;
    matched |= a.match;
  }
}

bool ListManager::startNext(uint64_t cycle) {
  if (done())
    return false;
  if (phase == HEADER) {
    start = cycle;
    feed.src = headers[header].data();
    feed.left = 8;
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
  return true;
}

bool ListManager::refill(uint64_t cycle) {
  takeAnswers(cycle);
  return startNext(cycle);
}

const uint64_t *ListManager::decide(uint64_t cycle, bool &end) {
  static const uint64_t EndValue = 0;
  takeAnswers(cycle);
  end = false;
  if (done())
    return nullptr;
  if (feed.left == 0 && !startNext(cycle)) { // between headers and items
    if (phase == HEADER || !(matched || item == listSize))
      return nullptr;
    end = true;
    ++header;
    phase = HEADER;
    item = answered = 0;
    matched = false;
    return &EndValue;
  }
  const uint64_t *word = feed.src++;
  if (--feed.left == 0)
    blockDone(cycle);
  return word;
}

} // namespace npcc::musim
