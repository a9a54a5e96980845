//===- PortalsCorpus.cpp - seeded random Portals lists and headers --------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "examples/portals-match/PortalsCorpus.h"
#include "examples/portals-match/portals_ref.h"
#include "runtime/musim/Bench.h"

using namespace npcc::portals;

namespace {

/// splitmix64: small, fast and the same everywhere.
struct Rng {
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  uint64_t below(uint64_t n) { return n ? next() % n : 0; }
  bool chance(unsigned percent) { return below(100) < percent; }
};

uint64_t pick(Rng &r, std::initializer_list<uint64_t> values) {
  return values.begin()[r.below(values.size())];
}

uint64_t lengthValue(Rng &r) {
  switch (r.below(5)) {
  case 0:
    return r.below(64);
  case 1:
    return r.below(4096);
  case 2:
    return pick(r, {0, 1, 8, 64, 1024, 4096, 65536});
  case 3:
    return r.next() >> r.below(64);
  default:
    return 0xffffffffffffffffull - r.below(16);
  }
}

Words makeHeader(Rng &r) {
  Words h{};
  h[0] = r.chance(30) ? r.below(16) : r.next();
  uint64_t nid = r.chance(70) ? r.below(4) : r.next() & 0xffffffffu;
  uint64_t pid = r.chance(70) ? r.below(4) : r.next() & 0xffffu;
  uint64_t op = r.chance(85) ? 1 + r.below(2) : pick(r, {0, 3, 0xffff});
  h[1] = nid | pid << 32 | op << 48;
  for (unsigned i = 2; i < 8; ++i)
    h[i] = r.next();
  h[4] = lengthValue(r);
  h[5] = lengthValue(r);
  return h;
}

Words makeItem(Rng &r, const Words &like) {
  Words it{};
  // Match bits: equal to the header's, except some bits that may be ignored.
  uint64_t flips = r.chance(50) ? 0 : r.next() & r.next();
  it[0] = r.chance(85) ? like[0] ^ flips : r.next();
  switch (r.below(4)) {
  case 0:
    it[1] = ~0ull;
    break;
  case 1:
    it[1] = 0;
    break;
  default:
    it[1] = ~flips | (r.chance(30) ? r.next() : 0);
    break;
  }
  uint64_t hnid = like[1] & 0xffffffffu, hpid = (like[1] >> 32) & 0xffff;
  uint64_t nid = r.chance(30) ? PTL_NID_ANY : r.chance(75) ? hnid : r.below(4);
  uint64_t pid = r.chance(30) ? PTL_PID_ANY : r.chance(75) ? hpid : r.below(4);
  uint64_t threshold = r.chance(10) ? 0 : 1 + r.below(0xffff);
  it[2] = nid | pid << 32 | threshold << 48;
  uint64_t opts = r.below(64);
  if (r.chance(80))
    opts |= PTL_OPT_VALID;
  if (r.chance(70))
    opts |= PTL_OPT_PUT | PTL_OPT_GET;
  it[3] = opts | (r.next() & ~0xffffull & (r.chance(50) ? ~0ull : 0));
  it[4] = lengthValue(r);
  it[5] = r.chance(80) ? r.below(it[4] + 1) : lengthValue(r);
  it[6] = r.chance(50) ? r.below(it[4] + 2) : lengthValue(r);
  it[7] = r.next();
  return it;
}

} // namespace

Case npcc::portals::makeCase(uint64_t seed, unsigned maxItems,
                             unsigned headers) {
  Rng r{seed * 0x2545f4914f6cdd1dull + 1};
  Case c;
  for (unsigned h = 0; h < headers; ++h)
    c.headers.push_back(makeHeader(r));
  unsigned n = (unsigned)r.below(maxItems + 1);
  for (unsigned i = 0; i < n; ++i) {
    const Words &like = c.headers.empty()
                            ? makeHeader(r)
                            : c.headers[r.below(c.headers.size())];
    c.list.push_back(makeItem(r, like));
  }
  return c;
}

Case npcc::portals::paperCase(unsigned length, unsigned matchAt,
                              unsigned headers) {
  // The benchmark list is musim's (--bench=paper), so that the native peer
  // runs exactly the workload the simulator runs.
  std::vector<musim::Item> list;
  musim::Item header;
  musim::paperCase(length, matchAt, list, header);
  Case c;
  c.list.assign(list.begin(), list.end());
  c.headers.assign(headers, header);
  return c;
}
