//===- PortalsCorpus.h - seeded random Portals lists and headers -*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Random posted-receive lists and headers that exercise every branch of
// Figure 1: wildcard NIDs and PIDs, ignore bits, every option combination,
// zero thresholds, PUT/GET/other operations, remote offsets beyond the MD,
// local offsets beyond it, max-size and truncation cases, and headers that
// match nothing. Items are derived from the headers often enough that
// matches happen at every list position.
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_EXAMPLES_PORTALS_CORPUS_H
#define NPCC_EXAMPLES_PORTALS_CORPUS_H

#include <array>
#include <cstdint>
#include <vector>

namespace npcc::portals {

using Words = std::array<uint64_t, 8>;

struct Case {
  std::vector<Words> list;
  std::vector<Words> headers;
};

/// A list of 0..maxItems items and `headers` headers, a pure function of
/// `seed`.
Case makeCase(uint64_t seed, unsigned maxItems, unsigned headers);

/// The paper's benchmark list (section 5.1): `length` items that fail on
/// the match bits except item `matchAt`, and the header that matches it.
Case paperCase(unsigned length, unsigned matchAt, unsigned headers);

} // namespace npcc::portals

#endif // NPCC_EXAMPLES_PORTALS_CORPUS_H
