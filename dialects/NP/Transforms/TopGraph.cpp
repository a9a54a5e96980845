//===- TopGraph.cpp - the top graph after flattening ----------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dialects/NP/Transforms/TopGraph.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;

npcc::np::GraphOp npcc::np::getFlatTopGraph(ModuleOp module) {
  for (auto g : module.getOps<GraphOp>())
    if (g.getTop())
      return g;
  module.emitError("no top-level graph to compile; declare a graph without "
                   "parameters that no other graph uses");
  return {};
}

std::string npcc::np::sanitizeIdentifier(llvm::StringRef name) {
  std::string out;
  for (char c : name)
    out.push_back(llvm::isAlnum(c) ? c : '_');
  return out;
}
