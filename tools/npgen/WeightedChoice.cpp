//===- WeightedChoice.cpp - Weighted mixes such as --size-mix -------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "tools/npgen/WeightedChoice.h"

#include "tools/common/ArgParser.h"

#include <algorithm>

using namespace npcc::tools;

std::string npcc::tools::parseMix(const std::string &Flag,
                                  const std::string &Spec, char Sep,
                                  std::vector<MixEntry> &Out) {
  std::string Form = std::string(" (expected key") + Sep + "weight,...)";
  Out.clear();
  double Total = 0;
  for (const std::string &Item : split(Spec, ',')) {
    size_t Pos = Item.find(Sep);
    if (Pos == std::string::npos || Pos == 0)
      return "malformed " + Flag + " entry '" + Item + "'" + Form;
    std::string Key = Item.substr(0, Pos);
    double Weight = 0;
    if (!parseNonNegative(Item.substr(Pos + 1), Weight))
      return "malformed " + Flag + " weight in '" + Item + "'" + Form;
    for (const MixEntry &E : Out)
      if (E.first == Key)
        return "duplicate key '" + Key + "' in " + Flag;
    Out.emplace_back(Key, Weight);
    Total += Weight;
  }
  if (!(Total > 0))
    return Flag + " weights must not all be zero";
  return "";
}

WeightedChoice::WeightedChoice(const std::vector<double> &Weights) {
  size_t NonZero = 0;
  double Sum = 0;
  for (size_t I = 0; I < Weights.size(); ++I) {
    Sum += Weights[I];
    Cumulative.push_back(Sum);
    if (Weights[I] > 0) {
      ++NonZero;
      Only = I;
    }
  }
  Single = NonZero <= 1;
  for (double &C : Cumulative)
    C /= Sum;
}

size_t WeightedChoice::pick(Random &Rng) const {
  if (Single)
    return Only;
  double U = Rng.unit();
  auto It = std::upper_bound(Cumulative.begin(), Cumulative.end(), U);
  // Rounding can leave the last sum just below 1: fall back to the last
  // index that has a weight.
  return It == Cumulative.end() ? Only
                                : static_cast<size_t>(It - Cumulative.begin());
}
