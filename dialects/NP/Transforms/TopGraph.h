//===- TopGraph.h - the top graph after flattening --------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_DIALECTS_NP_TRANSFORMS_TOPGRAPH_H
#define NPCC_DIALECTS_NP_TRANSFORMS_TOPGRAPH_H

#include "dialects/NP/IR/NPOps.h"

namespace npcc::np {

/// The graph marked `top` by np-flatten-graph; reports an error on `module`
/// and returns null when there is none.
GraphOp getFlatTopGraph(mlir::ModuleOp module);

/// A sequence of C identifier characters standing for `name`.
std::string sanitizeIdentifier(llvm::StringRef name);

} // namespace npcc::np

#endif // NPCC_DIALECTS_NP_TRANSFORMS_TOPGRAPH_H
