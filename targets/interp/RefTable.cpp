//===- RefTable.cpp - the interpreter's own lookup tables -----------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "targets/interp/RefTable.h"

using namespace npcc::interp;

namespace {
enum { kInsert, kRemove, kLookup, kCount, kClear };

uint32_t maskOf(uint32_t len) {
  return len == 0 ? 0 : ~uint32_t(0) << (32 - len);
}
} // namespace

uint32_t RefTable::run(unsigned kind, unsigned op, uint32_t capacity,
                       unsigned kw, unsigned vw, uint64_t *slot, uint32_t a0,
                       uint32_t a1) {
  if (kind == 0) { // longest prefix match: try lengths 32 down to 0
    std::pair<uint32_t, uint32_t> key{a1, a0 & maskOf(a1)};
    switch (op) {
    case kInsert:
      if (a1 > 32 || (!prefixes.count(key) && prefixes.size() >= capacity))
        return 0;
      prefixes[key] = slot[0];
      return 1;
    case kRemove:
      return a1 <= 32 && prefixes.erase(key);
    case kLookup:
      for (int len = 32; len >= 0; --len) {
        auto it = prefixes.find({len, a0 & maskOf(len)});
        if (it != prefixes.end()) {
          slot[0] = it->second;
          return 1;
        }
      }
      return 0;
    case kCount:
      return prefixes.size();
    default:
      prefixes.clear();
      return 1;
    }
  }
  std::vector<uint64_t> key(slot, slot + kw);
  switch (op) {
  case kInsert:
    if (!entries.count(key) && entries.size() >= capacity)
      return 0;
    entries[key].assign(slot + kw, slot + kw + vw);
    return 1;
  case kRemove:
    return entries.erase(key);
  case kLookup: {
    auto it = entries.find(key);
    if (it == entries.end())
      return 0;
    std::copy(it->second.begin(), it->second.end(), slot + kw);
    return 1;
  }
  case kCount:
    return entries.size();
  default:
    entries.clear();
    return 1;
  }
}
