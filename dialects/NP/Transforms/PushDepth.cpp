//===- PushDepth.cpp - which pushed calls count toward the depth limit ----===//
//
// SPDX-License-Identifier: Apache-2.0
//
// A depth-first search of the graph of channels, from the instances in
// program order and along each one's channels in program order, finds the
// channels that close a cycle (to an instance still on the search's
// path): those count, so that a value going round any cycle is stopped
// after 64 rounds at most. Without them the graph is acyclic; a channel
// whose consumer starts chains of kUncountedDepth channels or more in it
// counts too. Between two counted calls a stack then holds calls along a
// path of that acyclic graph whose chains shrink at each call: fewer than
// kUncountedDepth of them.
//
//===----------------------------------------------------------------------===//

#include "dialects/NP/Transforms/PushDepth.h"

#include "dialects/NP/IR/NPOps.h"

#include <algorithm>
#include <utility>

using namespace npcc;

std::vector<bool> np::uncountedChannels(ProgramOp program) {
  unsigned nInst = program.getElements().size();
  unsigned nChan = program.getChannels().size();
  std::vector<unsigned> dst(nChan, 0);
  std::vector<std::vector<unsigned>> out(nInst);
  std::vector<bool> valid(nChan, false);
  for (unsigned i = 0; i < nChan; ++i) {
    ProgramOp::Channel c = program.getChannel(i);
    if (c.src >= nInst || c.dst >= nInst)
      continue;
    valid[i] = true;
    dst[i] = c.dst;
    out[c.src].push_back(i);
  }
  enum : char { kNew, kOnPath, kDone };
  std::vector<char> state(nInst, kNew);
  std::vector<bool> closesCycle(nChan, false);
  // The longest chain of channels that do not close a cycle, from each
  // instance: known when the search leaves it, since everything it
  // reaches without closing a cycle was left before.
  std::vector<unsigned> chain(nInst, 0);
  std::vector<std::pair<unsigned, unsigned>> path;
  for (unsigned root = 0; root < nInst; ++root) {
    if (state[root] != kNew)
      continue;
    state[root] = kOnPath;
    path.push_back({root, 0});
    while (!path.empty()) {
      auto &[v, k] = path.back();
      if (k < out[v].size()) {
        unsigned e = out[v][k++];
        unsigned w = dst[e];
        if (state[w] == kOnPath) {
          closesCycle[e] = true;
        } else if (state[w] == kNew) {
          state[w] = kOnPath;
          path.push_back({w, 0});
        }
        continue;
      }
      unsigned done = v;
      path.pop_back();
      state[done] = kDone;
      for (unsigned e : out[done])
        if (!closesCycle[e])
          chain[done] = std::max(chain[done], chain[dst[e]] + 1);
    }
  }
  std::vector<bool> uncounted(nChan, false);
  for (unsigned i = 0; i < nChan; ++i)
    uncounted[i] =
        valid[i] && !closesCycle[i] && chain[dst[i]] < kUncountedDepth;
  return uncounted;
}
