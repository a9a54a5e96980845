//===- TablesTest.cpp - LPM and hash tables in state objects ----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
#include "nprt/tables.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <random>
#include <utility>
#include <vector>

namespace {

// The sizes are integer constant expressions, as generated C needs them.
static_assert(NPRT_LPM_BYTES(0) == 16, "LPM header");
static_assert(NPRT_LPM_BYTES(1) == 64, "LPM: two nodes per prefix");
static_assert(NPRT_HASH_SLOTS(3) == 4 && NPRT_HASH_SLOTS(4) == 8,
              "hash slots: a power of two >= 4/3 capacity");
static_assert(NPRT_HASH_BYTES(3, 1, 1) == 8 + 4 * 24, "hash size");
static_assert(NPRT_LPM_BYTES(100) % NPRT_TABLE_ALIGN == 0 &&
                  NPRT_HASH_BYTES(100, 3, 5) % NPRT_TABLE_ALIGN == 0,
              "sizes keep the alignment of what follows");

uint32_t ip(uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
  return a << 24 | b << 16 | c << 8 | d;
}

uint32_t maskOf(uint32_t len) { return len ? ~0u << (32 - len) : 0; }

// A table in zeroed, 8-byte aligned memory, as in a state object. Spare
// words after the region must stay untouched.
class Region {
public:
  explicit Region(size_t bytes) : words(bytes / 8), mem(words + Guard) {
    for (size_t i = 0; i < Guard; ++i)
      mem[words + i] = 0x5a5a5a5a5a5a5a5aull;
  }
  void *data() { return mem.data(); }
  bool guardIntact() const {
    for (size_t i = 0; i < Guard; ++i)
      if (mem[words + i] != 0x5a5a5a5a5a5a5a5aull)
        return false;
    return true;
  }
  bool allZero() const {
    for (size_t i = 0; i < words; ++i)
      if (mem[i])
        return false;
    return true;
  }
  // Moves the table to a new buffer and poisons the old one, which is what
  // would expose a pointer kept inside the region.
  void relocate() {
    std::vector<uint64_t> moved(mem.size());
    std::memcpy(moved.data(), mem.data(), mem.size() * 8);
    std::fill(mem.begin(), mem.end(), ~0ull);
    mem.swap(moved);
  }

private:
  static constexpr size_t Guard = 4;
  size_t words;
  std::vector<uint64_t> mem;
};

//===----------------------------------------------------------------------===//
// LPM
//===----------------------------------------------------------------------===//

class Lpm {
public:
  explicit Lpm(uint32_t cap) : cap(cap), region(NPRT_LPM_BYTES(cap)) {}
  bool insert(uint32_t a, uint32_t l, uint64_t v) {
    return nprt_lpm_insert(region.data(), cap, a, l, v);
  }
  bool remove(uint32_t a, uint32_t l) {
    return nprt_lpm_remove(region.data(), cap, a, l);
  }
  // The value of the longest match, or -1.
  int64_t lookup(uint32_t a) {
    uint64_t v = 0xdead;
    if (!nprt_lpm_lookup(region.data(), cap, a, &v)) {
      EXPECT_EQ(v, 0xdeadu) << "a miss must leave *value alone";
      return -1;
    }
    return (int64_t)v;
  }
  uint32_t count() { return nprt_lpm_count(region.data(), cap); }
  void clear() { nprt_lpm_clear(region.data(), cap); }
  using Entries =
      std::vector<std::pair<std::pair<uint32_t, uint32_t>, uint64_t>>;
  Entries entries() {
    Entries out;
    uint32_t a, l;
    uint64_t v;
    for (bool ok = nprt_lpm_first(region.data(), cap, &a, &l, &v); ok;
         ok = nprt_lpm_next(region.data(), cap, &a, &l, &v))
      out.push_back({{a, l}, v});
    return out;
  }

  uint32_t cap;
  Region region;
};

TEST(TableLpm, AllZeroMemoryIsEmpty) {
  Lpm t(8);
  EXPECT_EQ(t.count(), 0u);
  EXPECT_EQ(t.lookup(0), -1);
  EXPECT_EQ(t.lookup(ip(10, 1, 2, 3)), -1);
  EXPECT_EQ(t.lookup(~0u), -1);
  EXPECT_TRUE(t.entries().empty());
  EXPECT_FALSE(t.remove(0, 0));
  EXPECT_TRUE(t.region.allZero()) << "reads and failed removes write nothing";
}

TEST(TableLpm, DefaultRouteMatchesEverything) {
  Lpm t(4);
  ASSERT_TRUE(t.insert(ip(1, 2, 3, 4), 0, 7)); // bits past /0 are ignored
  EXPECT_EQ(t.lookup(0), 7);
  EXPECT_EQ(t.lookup(ip(192, 168, 1, 1)), 7);
  EXPECT_EQ(t.lookup(~0u), 7);
  EXPECT_EQ(t.entries(), (Lpm::Entries{{{0, 0}, 7}}));
  ASSERT_TRUE(t.insert(ip(10, 0, 0, 0), 8, 8));
  EXPECT_EQ(t.lookup(ip(10, 9, 9, 9)), 8);
  EXPECT_EQ(t.lookup(ip(11, 0, 0, 0)), 7);
  EXPECT_TRUE(t.remove(ip(9, 9, 9, 9), 0));
  EXPECT_EQ(t.lookup(ip(11, 0, 0, 0)), -1);
  EXPECT_EQ(t.lookup(ip(10, 0, 0, 1)), 8);
}

TEST(TableLpm, HostRoutesMatchOnlyTheirAddress) {
  Lpm t(4);
  ASSERT_TRUE(t.insert(ip(10, 0, 0, 1), 32, 1));
  ASSERT_TRUE(t.insert(ip(10, 0, 0, 2), 32, 2));
  ASSERT_TRUE(t.insert(~0u, 32, 3));
  ASSERT_TRUE(t.insert(0, 32, 4));
  EXPECT_EQ(t.lookup(ip(10, 0, 0, 1)), 1);
  EXPECT_EQ(t.lookup(ip(10, 0, 0, 2)), 2);
  EXPECT_EQ(t.lookup(ip(10, 0, 0, 3)), -1);
  EXPECT_EQ(t.lookup(ip(10, 0, 0, 0)), -1);
  EXPECT_EQ(t.lookup(~0u), 3);
  EXPECT_EQ(t.lookup(~0u - 1), -1);
  EXPECT_EQ(t.lookup(0), 4);
  EXPECT_EQ(t.lookup(1), -1);
}

TEST(TableLpm, LongestOverlappingPrefixWins) {
  Lpm t(8);
  ASSERT_TRUE(t.insert(ip(10, 1, 2, 3), 32, 32));
  ASSERT_TRUE(t.insert(ip(10, 1, 2, 0), 24, 24));
  ASSERT_TRUE(t.insert(ip(10, 0, 0, 0), 8, 8));
  ASSERT_TRUE(t.insert(ip(10, 1, 0, 0), 16, 16));
  ASSERT_TRUE(t.insert(ip(10, 1, 2, 0), 25, 25));
  EXPECT_EQ(t.lookup(ip(10, 1, 2, 3)), 32);
  EXPECT_EQ(t.lookup(ip(10, 1, 2, 4)), 25);
  EXPECT_EQ(t.lookup(ip(10, 1, 2, 200)), 24);
  EXPECT_EQ(t.lookup(ip(10, 1, 3, 0)), 16);
  EXPECT_EQ(t.lookup(ip(10, 2, 0, 0)), 8);
  EXPECT_EQ(t.lookup(ip(11, 1, 2, 3)), -1);
  EXPECT_EQ(t.count(), 5u);
}

TEST(TableLpm, InsertReplacesAndNormalises) {
  Lpm t(2);
  ASSERT_TRUE(t.insert(ip(10, 1, 2, 3), 8, 1));
  ASSERT_TRUE(t.insert(ip(10, 0, 0, 0), 8, 2)); // the same prefix
  EXPECT_EQ(t.count(), 1u);
  EXPECT_EQ(t.lookup(ip(10, 200, 0, 0)), 2);
  EXPECT_EQ(t.entries(), (Lpm::Entries{{{ip(10, 0, 0, 0), 8}, 2}}));
  EXPECT_TRUE(t.remove(ip(10, 255, 255, 255), 8));
  EXPECT_EQ(t.count(), 0u);
}

TEST(TableLpm, RejectsLengthsOver32) {
  Lpm t(2);
  EXPECT_FALSE(t.insert(0, 33, 1));
  EXPECT_FALSE(t.remove(0, 33));
  EXPECT_EQ(t.count(), 0u);
  EXPECT_TRUE(t.region.allZero());
}

TEST(TableLpm, RemoveOnlyPrefix) {
  Lpm t(1);
  for (int round = 0; round < 3; ++round) {
    ASSERT_TRUE(t.insert(ip(10, 0, 0, 0), 8, round));
    EXPECT_TRUE(t.remove(ip(10, 0, 0, 0), 8));
    EXPECT_FALSE(t.remove(ip(10, 0, 0, 0), 8));
    EXPECT_EQ(t.count(), 0u);
    EXPECT_EQ(t.lookup(ip(10, 0, 0, 0)), -1);
    EXPECT_TRUE(t.entries().empty());
  }
}

TEST(TableLpm, RemoveCoveringPrefixKeepsMoreSpecific) {
  Lpm t(4);
  ASSERT_TRUE(t.insert(ip(10, 0, 0, 0), 8, 8));
  ASSERT_TRUE(t.insert(ip(10, 1, 0, 0), 16, 16));
  ASSERT_TRUE(t.insert(ip(10, 2, 0, 0), 16, 17));
  EXPECT_TRUE(t.remove(ip(10, 0, 0, 0), 8));
  EXPECT_EQ(t.lookup(ip(10, 1, 0, 1)), 16);
  EXPECT_EQ(t.lookup(ip(10, 2, 0, 1)), 17);
  EXPECT_EQ(t.lookup(ip(10, 3, 0, 1)), -1);
  EXPECT_EQ(t.count(), 2u);
  // The covering prefix of the two is now a node without a value.
  EXPECT_FALSE(t.remove(ip(10, 0, 0, 0), 8));
  EXPECT_FALSE(t.remove(ip(10, 0, 0, 0), 14));
  EXPECT_FALSE(t.remove(ip(10, 1, 0, 0), 17));
  EXPECT_EQ(t.count(), 2u);
}

TEST(TableLpm, BranchNodesAreNotEntries) {
  Lpm t(2);
  // 10.0/16 and 10.128/16 hang off a valueless branch at 10/8.
  ASSERT_TRUE(t.insert(ip(10, 0, 0, 0), 16, 1));
  ASSERT_TRUE(t.insert(ip(10, 128, 0, 0), 16, 2));
  EXPECT_EQ(t.lookup(ip(10, 64, 0, 0)), -1);
  EXPECT_FALSE(t.remove(ip(10, 0, 0, 0), 8));
  EXPECT_EQ(t.entries(), (Lpm::Entries{{{ip(10, 0, 0, 0), 16}, 1},
                                       {{ip(10, 128, 0, 0), 16}, 2}}));
  // The table is full, but giving the branch a value would add a prefix.
  EXPECT_FALSE(t.insert(ip(10, 0, 0, 0), 8, 3));
  EXPECT_EQ(t.lookup(ip(10, 64, 0, 0)), -1);
}

TEST(TableLpm, FullTableRefusesNewPrefixesOnly) {
  Lpm t(4);
  ASSERT_TRUE(t.insert(ip(10, 0, 0, 0), 8, 1));
  ASSERT_TRUE(t.insert(ip(10, 1, 0, 0), 16, 2));
  ASSERT_TRUE(t.insert(ip(192, 168, 0, 0), 16, 3));
  ASSERT_TRUE(t.insert(0, 0, 4));
  Lpm::Entries before = t.entries();
  EXPECT_FALSE(t.insert(ip(10, 1, 2, 0), 24, 5));   // below a node
  EXPECT_FALSE(t.insert(ip(10, 0, 0, 0), 7, 5));    // above a node
  EXPECT_FALSE(t.insert(ip(172, 16, 0, 0), 12, 5)); // needs a branch
  EXPECT_EQ(t.entries(), before);
  EXPECT_TRUE(t.insert(ip(10, 1, 0, 0), 16, 6)); // replacing still works
  EXPECT_EQ(t.lookup(ip(10, 1, 0, 0)), 6);
  EXPECT_TRUE(t.remove(ip(192, 168, 0, 0), 16));
  EXPECT_TRUE(t.insert(ip(10, 1, 2, 0), 24, 5));
  EXPECT_EQ(t.lookup(ip(10, 1, 2, 9)), 5);
  EXPECT_TRUE(t.region.guardIntact());
}

TEST(TableLpm, CapacityOneAndZero) {
  Lpm one(1);
  ASSERT_TRUE(one.insert(ip(10, 0, 0, 0), 8, 1));
  EXPECT_FALSE(one.insert(ip(10, 0, 0, 0), 9, 2));
  EXPECT_FALSE(one.insert(ip(11, 0, 0, 0), 8, 2));
  EXPECT_TRUE(one.insert(ip(10, 0, 0, 0), 8, 3));
  EXPECT_EQ(one.lookup(ip(10, 0, 0, 0)), 3);
  EXPECT_TRUE(one.region.guardIntact());

  Lpm zero(0);
  EXPECT_FALSE(zero.insert(0, 0, 1));
  EXPECT_EQ(zero.lookup(0), -1);
  EXPECT_TRUE(zero.entries().empty());
  EXPECT_TRUE(zero.region.guardIntact());
}

TEST(TableLpm, IteratesByAddressThenLength) {
  Lpm t(8);
  ASSERT_TRUE(t.insert(ip(11, 0, 0, 0), 8, 5));
  ASSERT_TRUE(t.insert(ip(10, 1, 0, 0), 16, 4));
  ASSERT_TRUE(t.insert(ip(10, 0, 0, 0), 16, 3));
  ASSERT_TRUE(t.insert(ip(10, 0, 0, 0), 8, 2));
  ASSERT_TRUE(t.insert(0, 0, 1));
  ASSERT_TRUE(t.insert(~0u, 32, 6));
  EXPECT_EQ(t.entries(), (Lpm::Entries{{{0, 0}, 1},
                                       {{ip(10, 0, 0, 0), 8}, 2},
                                       {{ip(10, 0, 0, 0), 16}, 3},
                                       {{ip(10, 1, 0, 0), 16}, 4},
                                       {{ip(11, 0, 0, 0), 8}, 5},
                                       {{~0u, 32}, 6}}));
}

TEST(TableLpm, IterationSurvivesRemovingTheCurrentEntry) {
  Lpm t(16);
  for (uint32_t i = 0; i < 16; ++i)
    ASSERT_TRUE(t.insert(ip(10, i % 4, i, 0), 16 + i % 9, i));
  Lpm::Entries all = t.entries(), seen;
  uint32_t a, l;
  uint64_t v;
  for (bool ok = nprt_lpm_first(t.region.data(), t.cap, &a, &l, &v); ok;
       ok = nprt_lpm_next(t.region.data(), t.cap, &a, &l, &v)) {
    seen.push_back({{a, l}, v});
    ASSERT_TRUE(t.remove(a, l));
  }
  EXPECT_EQ(seen, all);
  EXPECT_EQ(t.count(), 0u);
}

TEST(TableLpm, ClearEmptiesAndAllowsRefill) {
  Lpm t(3);
  for (int round = 0; round < 3; ++round) {
    ASSERT_TRUE(t.insert(ip(1, 0, 0, 0), 8, 1));
    ASSERT_TRUE(t.insert(ip(2, 0, 0, 0), 8, 2));
    ASSERT_TRUE(t.insert(ip(2, 0, 0, 0), 9, 3));
    t.clear();
    EXPECT_EQ(t.count(), 0u);
    EXPECT_EQ(t.lookup(ip(2, 0, 0, 0)), -1);
    EXPECT_TRUE(t.entries().empty());
  }
}

TEST(TableLpm, WorksAfterMemcpy) {
  Lpm t(8);
  ASSERT_TRUE(t.insert(ip(10, 0, 0, 0), 8, 1));
  ASSERT_TRUE(t.insert(ip(10, 1, 0, 0), 16, 2));
  ASSERT_TRUE(t.insert(ip(10, 2, 0, 0), 16, 3));
  ASSERT_TRUE(t.remove(ip(10, 0, 0, 0), 8)); // leaves a node on the free list
  t.region.relocate();
  EXPECT_EQ(t.lookup(ip(10, 1, 9, 9)), 2);
  EXPECT_EQ(t.lookup(ip(10, 2, 9, 9)), 3);
  EXPECT_EQ(t.lookup(ip(10, 3, 9, 9)), -1);
  ASSERT_TRUE(t.insert(ip(10, 0, 0, 0), 8, 4));
  EXPECT_EQ(t.lookup(ip(10, 3, 9, 9)), 4);
  EXPECT_EQ(t.count(), 3u);
}

// The longest match by linear scan of a std::map keyed as the table
// iterates: (address, length).
using LpmModel = std::map<std::pair<uint32_t, uint32_t>, uint64_t>;

int64_t modelLookup(const LpmModel &m, uint32_t a) {
  int64_t best = -1;
  int bestLen = -1;
  for (const auto &[k, v] : m)
    if ((a & maskOf(k.second)) == k.first && (int)k.second > bestLen) {
      bestLen = (int)k.second;
      best = (int64_t)v;
    }
  return best;
}

void lpmDifferential(uint32_t cap, uint32_t ops, uint64_t seed) {
  std::mt19937_64 rng(seed);
  // Prefixes come from a few base addresses so that they nest and share
  // paths; lookups mostly probe near them.
  std::vector<uint32_t> bases;
  for (int i = 0; i < 24; ++i)
    bases.push_back((uint32_t)rng());
  bases.push_back(0);
  bases.push_back(~0u);
  auto someAddr = [&] {
    uint32_t a = bases[rng() % bases.size()];
    switch (rng() % 4) {
    case 0:
      return a;
    case 1:
      return a ^ (uint32_t)(1u << (rng() % 32));
    case 2:
      return a ^ (uint32_t)(rng() & 0xff);
    default:
      return (uint32_t)rng();
    }
  };
  auto someLen = [&] {
    uint32_t r = rng() % 40;
    return r <= 32 ? r : (uint32_t)(24 + rng() % 9);
  };

  Lpm t(cap);
  LpmModel model;
  uint32_t refused = 0;
  for (uint32_t op = 0; op < ops; ++op) {
    uint32_t kind = rng() % 100;
    if (kind < 40) {
      uint32_t a = someAddr(), l = someLen();
      uint64_t v = rng();
      auto key = std::make_pair(a & maskOf(l), l);
      bool fits = model.count(key) || model.size() < cap;
      ASSERT_EQ(t.insert(a, l, v), fits) << "op " << op;
      if (fits)
        model[key] = v;
      else
        ++refused;
    } else if (kind < 65) {
      uint32_t a, l;
      if (!model.empty() && rng() % 2) {
        auto it = model.begin();
        std::advance(it, rng() % model.size());
        a = it->first.first | ((uint32_t)rng() & ~maskOf(it->first.second));
        l = it->first.second;
      } else {
        a = someAddr();
        l = someLen();
      }
      bool present = model.erase({a & maskOf(l), l});
      ASSERT_EQ(t.remove(a, l), present) << "op " << op;
    } else if (kind < 99) {
      uint32_t a = someAddr();
      ASSERT_EQ(t.lookup(a), modelLookup(model, a)) << "op " << op;
    } else if (op % 7 == 0) {
      t.region.relocate();
    } else if (rng() % 20 == 0) {
      t.clear();
      model.clear();
    }
    ASSERT_EQ(t.count(), model.size()) << "op " << op;
    if (op % 512 == 0) {
      Lpm::Entries expected(model.begin(), model.end());
      ASSERT_EQ(t.entries(), expected) << "op " << op;
    }
    // nprt_lpm_next continues after any key, present in the table or not.
    if (op % 8 == 0) {
      uint32_t a = someAddr(), l = someLen();
      auto after = model.upper_bound({a & maskOf(l), l});
      uint64_t v = 0;
      bool more = nprt_lpm_next(t.region.data(), cap, &a, &l, &v);
      ASSERT_EQ(more, after != model.end()) << "op " << op;
      if (more) {
        ASSERT_EQ(std::make_pair(a, l), after->first) << "op " << op;
        ASSERT_EQ(v, after->second) << "op " << op;
      }
    }
  }
  Lpm::Entries expected(model.begin(), model.end());
  EXPECT_EQ(t.entries(), expected);
  EXPECT_TRUE(t.region.guardIntact());
  // The small table must have run full for the test to cover that.
  if (cap < 100) {
    EXPECT_GT(refused, 0u);
  }
}

TEST(TableLpm, MatchesModelSmallTable) { lpmDifferential(40, 100000, 1); }
TEST(TableLpm, MatchesModelLargeTable) { lpmDifferential(2000, 100000, 2); }

//===----------------------------------------------------------------------===//
// Hash
//===----------------------------------------------------------------------===//

using Words = std::vector<uint64_t>;

class Hash {
public:
  Hash(uint32_t cap, uint32_t kw, uint32_t vw)
      : cap(cap), kw(kw), vw(vw), region(NPRT_HASH_BYTES(cap, kw, vw)) {}
  bool insert(const Words &k, const Words &v) {
    return nprt_hash_insert(region.data(), cap, kw, vw, k.data(),
                            vw ? v.data() : nullptr);
  }
  bool remove(const Words &k) {
    return nprt_hash_remove(region.data(), cap, kw, vw, k.data());
  }
  // The value of `k`, or an empty optional-like pair.
  std::pair<bool, Words> lookup(const Words &k) {
    Words v(vw + 1, 0xdead);
    bool found =
        nprt_hash_lookup(region.data(), cap, kw, vw, k.data(), v.data());
    EXPECT_EQ(v[vw], 0xdeadu) << "lookup writes value_words words";
    v.pop_back();
    for (uint64_t w : v) {
      if (!found) {
        EXPECT_EQ(w, 0xdeadu) << "a miss must leave the value alone";
      }
    }
    return {found, found ? v : Words()};
  }
  uint64_t *find(const Words &k) {
    return nprt_hash_find(region.data(), cap, kw, vw, k.data());
  }
  uint32_t count() { return nprt_hash_count(region.data(), cap, kw, vw); }
  void clear() { nprt_hash_clear(region.data(), cap, kw, vw); }
  std::map<Words, Words> entries() {
    std::map<Words, Words> out;
    Words k(kw), v(vw);
    uint32_t pos = 0;
    while (nprt_hash_next(region.data(), cap, kw, vw, &pos, k.data(), v.data()))
      EXPECT_TRUE(out.emplace(k, v).second) << "a key seen twice";
    return out;
  }

  uint32_t cap, kw, vw;
  Region region;
};

TEST(TableHash, SlotCountIsThePowerOfTwoAboveFourThirds) {
  for (uint64_t cap = 0; cap < 100000; ++cap) {
    uint64_t want = (cap * 4 + 2) / 3, slots = 1;
    while (slots < want)
      slots <<= 1;
    ASSERT_EQ(NPRT_HASH_SLOTS(cap), slots) << cap;
    ASSERT_GT(slots, cap) << "an empty slot must always remain";
    ASSERT_LE(cap * 4, slots * 3) << "load factor at most 3/4";
  }
  EXPECT_EQ(NPRT_HASH_SLOTS(NPRT_HASH_MAX_CAPACITY), 1ull << 31);
}

TEST(TableHash, AllZeroMemoryIsEmpty) {
  Hash t(8, 2, 1);
  EXPECT_EQ(t.count(), 0u);
  EXPECT_FALSE(t.lookup({0, 0}).first);
  EXPECT_FALSE(t.lookup({1, 2}).first);
  EXPECT_EQ(t.find({0, 0}), nullptr);
  EXPECT_FALSE(t.remove({0, 0}));
  EXPECT_TRUE(t.entries().empty());
  EXPECT_TRUE(t.region.allZero());
}

TEST(TableHash, InsertAssignsAndRemoves) {
  Hash t(4, 1, 2);
  ASSERT_TRUE(t.insert({0}, {1, 2})); // key 0 is an ordinary key
  ASSERT_TRUE(t.insert({7}, {3, 4}));
  EXPECT_EQ(t.lookup({0}).second, (Words{1, 2}));
  EXPECT_EQ(t.lookup({7}).second, (Words{3, 4}));
  ASSERT_TRUE(t.insert({7}, {5, 6}));
  EXPECT_EQ(t.count(), 2u);
  EXPECT_EQ(t.lookup({7}).second, (Words{5, 6}));
  EXPECT_TRUE(t.remove({0}));
  EXPECT_FALSE(t.remove({0}));
  EXPECT_FALSE(t.lookup({0}).first);
  EXPECT_EQ(t.lookup({7}).second, (Words{5, 6}));
  EXPECT_EQ(t.count(), 1u);
  EXPECT_TRUE(t.remove({7}));
  EXPECT_TRUE(t.region.allZero()) << "removal clears whole slots";
}

TEST(TableHash, NullValueMeansZero) {
  Hash t(4, 1, 3);
  ASSERT_TRUE(t.insert({5}, {1, 2, 3}));
  ASSERT_TRUE(
      nprt_hash_insert(t.region.data(), 4, 1, 3, Words{5}.data(), nullptr));
  EXPECT_EQ(t.lookup({5}).second, (Words{0, 0, 0}));
  ASSERT_TRUE(
      nprt_hash_lookup(t.region.data(), 4, 1, 3, Words{5}.data(), nullptr));
}

TEST(TableHash, SetWithoutValues) {
  Hash t(3, 1, 0);
  ASSERT_TRUE(t.insert({1}, {}));
  ASSERT_TRUE(t.insert({2}, {}));
  ASSERT_TRUE(t.insert({1}, {}));
  EXPECT_EQ(t.count(), 2u);
  EXPECT_TRUE(t.lookup({1}).first);
  EXPECT_FALSE(t.lookup({3}).first);
  EXPECT_NE(t.find({2}), nullptr);
  EXPECT_EQ(t.entries(), (std::map<Words, Words>{{{1}, {}}, {{2}, {}}}));
}

TEST(TableHash, FindUpdatesInPlace) {
  Hash t(16, 2, 1);
  for (uint64_t i = 0; i < 16; ++i)
    ASSERT_TRUE(t.insert({i, ~i}, {0}));
  for (int round = 0; round < 3; ++round)
    for (uint64_t i = 0; i < 16; ++i) {
      uint64_t *v = t.find({i, ~i});
      ASSERT_NE(v, nullptr);
      *v += i;
    }
  for (uint64_t i = 0; i < 16; ++i)
    EXPECT_EQ(t.lookup({i, ~i}).second, (Words{3 * i}));
  EXPECT_EQ(t.find({1, 1}), nullptr);
}

TEST(TableHash, FullTableRefusesNewKeysOnly) {
  Hash t(5, 1, 1);
  for (uint64_t i = 0; i < 5; ++i)
    ASSERT_TRUE(t.insert({i * 1000}, {i}));
  auto before = t.entries();
  EXPECT_FALSE(t.insert({1}, {9}));
  EXPECT_EQ(t.entries(), before);
  EXPECT_TRUE(t.insert({2000}, {42}));
  EXPECT_EQ(t.lookup({2000}).second, (Words{42}));
  EXPECT_TRUE(t.remove({0}));
  EXPECT_TRUE(t.insert({1}, {9}));
  EXPECT_EQ(t.count(), 5u);
  EXPECT_TRUE(t.region.guardIntact());
}

TEST(TableHash, CapacityOneAndZero) {
  Hash one(1, 1, 1);
  ASSERT_TRUE(one.insert({3}, {4}));
  EXPECT_FALSE(one.insert({4}, {4}));
  EXPECT_FALSE(one.lookup({4}).first);
  EXPECT_TRUE(one.insert({3}, {5}));
  EXPECT_EQ(one.lookup({3}).second, (Words{5}));
  EXPECT_TRUE(one.remove({3}));
  EXPECT_TRUE(one.insert({4}, {6}));
  EXPECT_TRUE(one.region.guardIntact());

  Hash zero(0, 1, 1);
  EXPECT_FALSE(zero.insert({3}, {4}));
  EXPECT_FALSE(zero.lookup({3}).first);
  EXPECT_TRUE(zero.entries().empty());
  EXPECT_TRUE(zero.region.guardIntact());
}

TEST(TableHash, WidestKeysAndValues) {
  Hash t(10, NPRT_HASH_MAX_KEY_WORDS, NPRT_HASH_MAX_VALUE_WORDS);
  for (uint64_t i = 0; i < 10; ++i) {
    Words k{i, i, i, i}, v;
    for (uint64_t j = 0; j < 8; ++j)
      v.push_back(i * 8 + j);
    ASSERT_TRUE(t.insert(k, v));
  }
  // Keys that differ only in their last word are different keys.
  EXPECT_FALSE(t.lookup({1, 1, 1, 2}).first);
  EXPECT_EQ(t.lookup({9, 9, 9, 9}).second,
            (Words{72, 73, 74, 75, 76, 77, 78, 79}));
  EXPECT_TRUE(t.region.guardIntact());
}

TEST(TableHash, ClearEmptiesAndAllowsRefill) {
  Hash t(3, 1, 1);
  for (int round = 0; round < 3; ++round) {
    for (uint64_t i = 0; i < 3; ++i)
      ASSERT_TRUE(t.insert({i + (uint64_t)round}, {i}));
    t.clear();
    EXPECT_EQ(t.count(), 0u);
    EXPECT_TRUE(t.region.allZero());
    EXPECT_TRUE(t.region.guardIntact());
  }
}

TEST(TableHash, WorksAfterMemcpy) {
  Hash t(8, 1, 1);
  for (uint64_t i = 0; i < 8; ++i)
    ASSERT_TRUE(t.insert({i}, {i * i}));
  ASSERT_TRUE(t.remove({3}));
  t.region.relocate();
  for (uint64_t i = 0; i < 8; ++i)
    EXPECT_EQ(t.lookup({i}).first, i != 3) << i;
  EXPECT_EQ(t.lookup({7}).second, (Words{49}));
  ASSERT_TRUE(t.insert({3}, {1}));
  EXPECT_EQ(t.count(), 8u);
}

void hashDifferential(uint32_t cap, uint32_t kw, uint32_t vw, uint32_t ops,
                      uint64_t seed) {
  std::mt19937_64 rng(seed);
  // Drawing keys from a pool a bit larger than the table keeps it near full
  // (long probe runs that wrap around the slot array) and makes removes hit.
  std::vector<Words> pool;
  for (uint32_t i = 0; i < cap + cap / 2 + 2; ++i) {
    Words k(kw);
    for (uint64_t &w : k)
      w = rng() % 4 == 0 ? i : rng(); // some small, structured keys
    pool.push_back(k);
  }
  auto someValue = [&] {
    Words v(vw);
    for (uint64_t &w : v)
      w = rng();
    return v;
  };

  Hash t(cap, kw, vw);
  std::map<Words, Words> model;
  uint32_t refused = 0;
  for (uint32_t op = 0; op < ops; ++op) {
    const Words &k = pool[rng() % pool.size()];
    uint32_t kind = rng() % 100;
    if (kind < 45) {
      Words v = someValue();
      bool fits = model.count(k) || model.size() < cap;
      ASSERT_EQ(t.insert(k, v), fits) << "op " << op;
      if (fits)
        model[k] = v;
      else
        ++refused;
    } else if (kind < 65) {
      ASSERT_EQ(t.remove(k), model.erase(k) == 1) << "op " << op;
    } else if (kind < 75 && vw) {
      uint64_t *p = t.find(k);
      auto it = model.find(k);
      ASSERT_EQ(p != nullptr, it != model.end()) << "op " << op;
      if (p) {
        ASSERT_EQ(Words(p, p + vw), it->second) << "op " << op;
        p[vw - 1] += 1;
        it->second[vw - 1] += 1;
      }
    } else if (kind < 99) {
      auto it = model.find(k);
      auto got = t.lookup(k);
      ASSERT_EQ(got.first, it != model.end()) << "op " << op;
      if (got.first) {
        ASSERT_EQ(got.second, it->second) << "op " << op;
      }
    } else if (op % 3 == 0) {
      t.region.relocate();
    } else if (rng() % 20 == 0) {
      t.clear();
      model.clear();
    }
    ASSERT_EQ(t.count(), model.size()) << "op " << op;
    if (op % 256 == 0) {
      ASSERT_EQ(t.entries(), model) << "op " << op;
      for (const Words &key : pool)
        ASSERT_EQ(t.lookup(key).first, model.count(key) == 1) << "op " << op;
    }
  }
  EXPECT_EQ(t.entries(), model);
  EXPECT_TRUE(t.region.guardIntact());
  EXPECT_GT(refused, 0u) << "the table never ran full";
}

TEST(TableHash, MatchesModelTinyTable) { hashDifferential(3, 1, 1, 100000, 3); }
TEST(TableHash, MatchesModelSmallTable) {
  hashDifferential(12, 1, 0, 100000, 4);
}
TEST(TableHash, MatchesModelTwoWordKeys) {
  hashDifferential(100, 2, 1, 100000, 5);
}
TEST(TableHash, MatchesModelWideKeysAndValues) {
  hashDifferential(1000, 4, 8, 100000, 6);
}

} // namespace
