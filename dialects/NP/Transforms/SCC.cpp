//===- SCC.cpp - strongly connected components of instance graphs ---------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dialects/NP/Transforms/SCC.h"

#include <algorithm>

std::vector<std::vector<unsigned>> npcc::np::stronglyConnectedComponents(
    const std::vector<std::vector<unsigned>> &succ, std::vector<int> &comp) {
  unsigned n = succ.size();
  std::vector<int> index(n, -1), low(n, 0);
  comp.assign(n, -1);
  std::vector<bool> onStack(n, false);
  std::vector<unsigned> stack;
  std::vector<std::vector<unsigned>> comps;
  int next = 0;
  for (unsigned root = 0; root < n; ++root) {
    if (index[root] >= 0)
      continue;
    std::vector<std::pair<unsigned, unsigned>> work{{root, 0}};
    index[root] = low[root] = next++;
    stack.push_back(root);
    onStack[root] = true;
    while (!work.empty()) {
      auto &[v, k] = work.back();
      if (k < succ[v].size()) {
        unsigned w = succ[v][k++];
        if (index[w] < 0) {
          index[w] = low[w] = next++;
          stack.push_back(w);
          onStack[w] = true;
          work.push_back({w, 0});
        } else if (onStack[w]) {
          low[v] = std::min(low[v], index[w]);
        }
        continue;
      }
      unsigned done = v;
      work.pop_back();
      if (!work.empty())
        low[work.back().first] = std::min(low[work.back().first], low[done]);
      if (low[done] == index[done]) {
        std::vector<unsigned> c;
        unsigned w;
        do {
          w = stack.back();
          stack.pop_back();
          onStack[w] = false;
          comp[w] = comps.size();
          c.push_back(w);
        } while (w != done);
        std::sort(c.begin(), c.end());
        comps.push_back(std::move(c));
      }
    }
  }
  return comps;
}
