//===- FlowTable.h - The distinct 5-tuples npgen sends ----------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Drawn once from the seed before any frame: F distinct IPv4 5-tuples with
// sources in --src-net, destinations in --dst-net and a protocol drawn from
// --l4. Frames pick a flow round-robin or at random.
//
// With --distinct-sources N, N distinct source addresses are drawn first
// (uniformly from --src-net, in random order) and flow i takes source
// i mod N. Round-robin then shows every source within the first N IPv4
// frames; random order does too, because its first N picks are flows of
// sources 0, 1, ..., N-1 (each a random flow among those of that source).
//
//===----------------------------------------------------------------------===//

#ifndef TOOLS_NPGEN_FLOWTABLE_H
#define TOOLS_NPGEN_FLOWTABLE_H

#include "tools/common/TrafficCounts.h"
#include "tools/npgen/GenOptions.h"
#include "tools/npgen/Random.h"

#include <string>
#include <vector>

namespace npcc::tools {

class FlowTable {
public:
  /// Draws Opts.Flows distinct flows; returns an error when the networks
  /// and protocols leave too few distinct 5-tuples, or "".
  std::string build(const GenOptions &Opts, Random &Rng);

  size_t size() const { return Flows.size(); }
  const FlowKey &operator[](size_t I) const { return Flows[I]; }

  /// The flow of the next frame.
  size_t next(Random &Rng) {
    if (RandomOrder && Covered < Sources) {
      // A random flow of source Covered: Covered + Sources * k < size().
      uint64_t K = Rng.below((Flows.size() - Covered + Sources - 1) / Sources);
      return static_cast<size_t>(Covered++ + Sources * K);
    }
    if (RandomOrder)
      return static_cast<size_t>(Rng.below(Flows.size()));
    size_t I = Cursor;
    Cursor = Cursor + 1 == Flows.size() ? 0 : Cursor + 1;
    return I;
  }

private:
  std::vector<FlowKey> Flows;
  size_t Cursor = 0;
  /// --distinct-sources (0: off), and how many of them random order has
  /// shown so far.
  uint64_t Sources = 0;
  uint64_t Covered = 0;
  bool RandomOrder = false;
};

} // namespace npcc::tools

#endif // TOOLS_NPGEN_FLOWTABLE_H
