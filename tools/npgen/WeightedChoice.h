//===- WeightedChoice.h - Weighted mixes such as --size-mix -----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Parses `key<sep>weight,...` lists (`64:7,576:4`, `udp=60,tcp=30`) and
// draws indices in proportion to the weights.
//
//===----------------------------------------------------------------------===//

#ifndef TOOLS_NPGEN_WEIGHTEDCHOICE_H
#define TOOLS_NPGEN_WEIGHTEDCHOICE_H

#include "tools/npgen/Random.h"

#include <string>
#include <utility>
#include <vector>

namespace npcc::tools {

/// One `key<sep>weight` entry of a mix.
using MixEntry = std::pair<std::string, double>;

/// Splits \p Spec into entries; returns an error naming \p Flag, or "".
/// Keys must be distinct, weights non-negative, and their sum positive.
std::string parseMix(const std::string &Flag, const std::string &Spec, char Sep,
                     std::vector<MixEntry> &Out);

/// Draws an index with probability proportional to its weight.
class WeightedChoice {
public:
  WeightedChoice() = default;
  explicit WeightedChoice(const std::vector<double> &Weights);

  /// Draws an index; draws no random bits when only one index is possible.
  size_t pick(Random &Rng) const;

private:
  std::vector<double> Cumulative;
  size_t Only = 0;
  bool Single = true;
};

} // namespace npcc::tools

#endif // TOOLS_NPGEN_WEIGHTEDCHOICE_H
