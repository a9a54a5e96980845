//===- SCC.h - strongly connected components of instance graphs -*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef NPCC_DIALECTS_NP_TRANSFORMS_SCC_H
#define NPCC_DIALECTS_NP_TRANSFORMS_SCC_H

#include <vector>

namespace npcc::np {

/// Tarjan's strongly connected components (iteratively) of the graph whose
/// node v has the successors `succ[v]`. Returns the components, each
/// sorted, in the order Tarjan completes them (a component after every one
/// it reaches); `comp[v]` is the index of v's component.
std::vector<std::vector<unsigned>>
stronglyConnectedComponents(const std::vector<std::vector<unsigned>> &succ,
                            std::vector<int> &comp);

} // namespace npcc::np

#endif // NPCC_DIALECTS_NP_TRANSFORMS_SCC_H
