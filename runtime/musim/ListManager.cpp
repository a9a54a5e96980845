//===- ListManager.cpp - the list manager of section 3.2 ------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
#include "runtime/musim/ListManager.h"

namespace npcc::musim {

ListManager::ListManager(const std::vector<Item> &list,
                         const std::vector<Item> &headers,
                         const ListConfig &config)
    : list(list.data()), headers(headers.data()), listSize(list.size()),
      numHeaders(headers.size()), config(config), sentStore(headers.size(), 0),
      finishedStore(list.size(), 0), sent(sentStore.data()),
      finished(finishedStore.data()) {}

const uint64_t *ListManager::decide(uint64_t cycle, uint8_t &flags) {
  static const uint64_t EndValue = 0;
  takeAnswers(cycle);
  flags = 0;
  if (done())
    return nullptr;
  if (feed.left == 0 && !startNext(cycle)) { // between headers and items
    if (phase == HEADER || !(matched || item == listSize))
      return nullptr;
    flags = InputFifo::END;
    ++header;
    phase = HEADER;
    item = answered = 0;
    matched = false;
    return &EndValue;
  }
  const uint64_t *word = feed.src++;
  flags = feed.flags;
  feed.flags = 0;
  if (--feed.left == 0)
    blockDone(cycle);
  return word;
}

} // namespace npcc::musim
