//===- DescribeGraph.cpp - the top graph as an np.program table -----------===//
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
#define GEN_PASS_DEF_DESCRIBEGRAPH
#include "dialects/NP/Transforms/Passes.h.inc"
} // namespace npcc::np

using namespace mlir;
using namespace npcc::np;

namespace {

/// Writes the instances and channels of the top graph as an np.program
/// and erases the graph.
struct DescribeGraphPass
    : TopGraphPass<npcc::np::impl::DescribeGraphBase<DescribeGraphPass>> {
  LogicalResult runOnTopGraph(ModuleOp module, GraphOp top) override {
    auto ports = top.getBody()->getOps<PortOp>();
    if (!ports.empty())
      return (*ports.begin())
          .emitOpError("of the top graph has nothing to connect to; the "
                       "program's inputs and outputs are devices");
    SymbolTable symbols(module);
    Builder b(module.getContext());
    SmallVector<Attribute> elements, names, placements, channels;
    SmallVector<int64_t> inferred;
    // Instance index, and each port's index within its direction.
    llvm::DenseMap<StringAttr, unsigned> instanceIndex;
    SmallVector<llvm::DenseMap<StringAttr, unsigned>> portIndex;
    llvm::DenseSet<Operation *> used;
    for (auto inst : top.getBody()->getOps<InstanceOp>()) {
      auto element = symbols.lookup<ElementOp>(inst.getCallee());
      if (!element || !used.insert(element).second) {
        return inst.emitOpError("must instantiate an element of its own; run "
                                "np-flatten-graph and np-instantiate-elements "
                                "first");
      }
      instanceIndex[inst.getSymNameAttr()] = elements.size();
      elements.push_back(inst.getCalleeAttr());
      names.push_back(inst.getSymNameAttr());
      placements.push_back(b.getStringAttr(inst.getPlacement()));
      auto &ports = portIndex.emplace_back();
      unsigned in = 0, out = 0;
      for (auto port : element.getBody()->getOps<PortOp>())
        ports[port.getSymNameAttr()] = port.isInput() ? in++ : out++;
    }
    for (auto c : top.getBody()->getOps<ConnectOp>()) {
      auto end = [&](SymbolRefAttr ref, int64_t &inst, int64_t &port) {
        inst = instanceIndex.lookup(ref.getRootReference());
        port = portIndex[inst].lookup(ref.getLeafReference());
      };
      int64_t row[7];
      end(c.getSrc(), row[0], row[1]);
      end(c.getDst(), row[2], row[3]);
      row[4] = c.getDepth();
      row[5] = c.getLossy() ? 1 : 0;
      row[6] = c.getFused() ? 1 : 0;
      channels.push_back(b.getDenseI64ArrayAttr(row));
      auto depth = c->getAttrOfType<IntegerAttr>(kInferredDepthAttr);
      inferred.push_back(depth ? depth.getInt() : 0);
    }
    OpBuilder ob(top);
    auto program = ob.create<ProgramOp>(
        top.getLoc(), top.getSymNameAttr(), b.getArrayAttr(elements),
        b.getArrayAttr(names), b.getArrayAttr(placements),
        b.getArrayAttr(channels));
    if (llvm::any_of(inferred, [](int64_t d) { return d > 0; }))
      program->setAttr(kInferredDepthsAttr, b.getDenseI64ArrayAttr(inferred));
    top.erase();
    return success();
  }
};

} // namespace
