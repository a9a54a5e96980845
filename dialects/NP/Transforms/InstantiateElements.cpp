//===- InstantiateElements.cpp - one element per instance -----------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dialects/NP/Transforms/Passes.h"
#include "dialects/NP/Transforms/TopGraph.h"

#include "dialects/NP/IR/NPOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

namespace npcc::np {
#define GEN_PASS_DEF_INSTANTIATEELEMENTS
#include "dialects/NP/Transforms/Passes.h.inc"
} // namespace npcc::np

using namespace mlir;
using namespace npcc::np;

namespace {
/// Clones every element used by more than one instance, once per further
/// instance, and erases the elements no instance uses.
struct InstantiateElementsPass
    : TopGraphPass<
          npcc::np::impl::InstantiateElementsBase<InstantiateElementsPass>> {
  LogicalResult runOnTopGraph(ModuleOp module, GraphOp top) override {
    // One symbol table for the whole module: lookups and insertions stay
    // constant-time, so 10,000 instances cost 10,000 clones and no more.
    SymbolTable symbols(module);
    llvm::DenseSet<Operation *> claimed;
    OpBuilder b(module.getContext());
    for (auto inst : top.getBody()->getOps<InstanceOp>()) {
      Operation *callee = symbols.lookup(inst.getCallee());
      auto element = dyn_cast_or_null<ElementOp>(callee);
      if (!element) {
        return inst.emitOpError("does not instantiate an element; run "
                                "np-flatten-graph first");
      }
      if (claimed.insert(element).second)
        continue;
      b.setInsertionPointAfter(element);
      auto copy = cast<ElementOp>(b.clone(*element));
      // The copy is still an instance of the same NPL element.
      if (!copy.getOrigin())
        copy.setOrigin(element.getSymName());
      copy.setSymName((element.getSymName() + "." + inst.getSymName()).str());
      symbols.insert(copy);
      claimed.insert(copy);
      inst.setCalleeAttr(FlatSymbolRefAttr::get(copy.getSymNameAttr()));
    }
    for (auto element : llvm::make_early_inc_range(module.getOps<ElementOp>()))
      if (!claimed.contains(element))
        symbols.erase(element);
    return success();
  }
};
} // namespace
