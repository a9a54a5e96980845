//===- TopGraph.h - the top graph after flattening --------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_DIALECTS_NP_TRANSFORMS_TOPGRAPH_H
#define NPCC_DIALECTS_NP_TRANSFORMS_TOPGRAPH_H

#include "dialects/NP/IR/NPOps.h"

#include "mlir/IR/BuiltinOps.h"

namespace npcc::np {

/// The graph marked `top` by np-flatten-graph; reports an error on `module`
/// and returns null when there is none.
GraphOp getFlatTopGraph(mlir::ModuleOp module);

/// A pass on the flattened top graph: `Base` is its generated base class.
/// Runs `runOnTopGraph` when the module has a top graph (an error
/// otherwise) and fails the pass when it fails.
template <typename Base> struct TopGraphPass : Base {
  using Base::Base;
  virtual mlir::LogicalResult runOnTopGraph(mlir::ModuleOp module,
                                            GraphOp top) = 0;
  void runOnOperation() final {
    mlir::ModuleOp module = this->getOperation();
    GraphOp top = getFlatTopGraph(module);
    if (!top || mlir::failed(runOnTopGraph(module, top)))
      this->signalPassFailure();
  }
};

/// A sequence of C identifier characters standing for `name`.
std::string sanitizeIdentifier(llvm::StringRef name);

} // namespace npcc::np

#endif // NPCC_DIALECTS_NP_TRANSFORMS_TOPGRAPH_H
