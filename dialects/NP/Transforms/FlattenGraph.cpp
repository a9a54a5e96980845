//===- FlattenGraph.cpp - inline compound elements into the top graph -----===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dialects/NP/IR/NPOps.h"
#include "dialects/NP/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

namespace npcc::np {
#define GEN_PASS_DEF_FLATTENGRAPH
#include "dialects/NP/Transforms/Passes.h.inc"
} // namespace npcc::np

using namespace mlir;
using namespace npcc::np;

namespace {

/// True when `end` names a boundary port (`@port`) rather than a port of an
/// instance (`@inst::@port`).
bool isBoundary(SymbolRefAttr end) { return end.getNestedReferences().empty(); }

/// True when `end` is `@inst::@port` for the instance named `inst`.
bool namesInstance(SymbolRefAttr end, StringAttr inst) {
  return !isBoundary(end) && end.getRootReference() == inst;
}

/// Replaces one instance of a compound element by the graph's contents.
class CompoundInliner {
public:
  CompoundInliner(GraphOp top, InstanceOp instance, GraphOp callee)
      : top(top), instance(instance), callee(callee),
        builder(instance.getContext()) {}

  LogicalResult run();

private:
  /// `@inner::@port` inside the compound as `@"outer/inner"::@port`.
  SymbolRefAttr rename(SymbolRefAttr end) {
    auto name = builder.getStringAttr(instance.getSymName() + "/" +
                                      end.getRootReference().getValue());
    return SymbolRefAttr::get(name, end.getNestedReferences());
  }
  LogicalResult wiredBack() {
    return instance.emitOpError()
           << "cannot be flattened: a pass-through of '" << callee.getSymName()
           << "' is wired back to the instance";
  }
  LogicalResult cloneInstances();
  LogicalResult stitch(ConnectOp outer);

  GraphOp top;
  InstanceOp instance;
  GraphOp callee;
  OpBuilder builder;
  // Inner connections by the boundary port they start or end at.
  llvm::DenseMap<StringAttr, ConnectOp> innerFrom, innerTo;
  // Outer connections that start at a port of `instance`, by port.
  llvm::DenseMap<StringAttr, ConnectOp> outerFrom;
};

} // namespace

LogicalResult CompoundInliner::cloneInstances() {
  StringAttr placement = instance.getPlacementAttr();
  for (InstanceOp inner : callee.getBody()->getOps<InstanceOp>()) {
    std::string name = (instance.getSymName() + "/" + inner.getSymName()).str();
    if (SymbolTable::lookupSymbolIn(top, name))
      return instance.emitOpError()
             << "cannot be flattened: graph '" << top.getSymName()
             << "' already has a symbol named '" << name << "'";
    auto clone = cast<InstanceOp>(builder.clone(*inner));
    clone.setSymName(name);
    if (clone.getPlacement() == "npu")
      clone.setPlacementAttr(placement);
  }
  return success();
}

/// Replaces `outer`, a connection of the top graph with one or both ends at
/// a port of `instance`, by the channel it forms with the inner connections.
LogicalResult CompoundInliner::stitch(ConnectOp outer) {
  StringAttr name = instance.getSymNameAttr();
  SymbolRefAttr src = outer.getSrc(), dst = outer.getDst();
  int64_t depth = outer.getDepthAttr().getInt();
  bool lossy = outer.getLossy();

  if (namesInstance(src, name)) {
    ConnectOp inner = innerTo.lookup(src.getLeafReference());
    assert(inner && "verified graphs connect every boundary port");
    // A pass-through is stitched from the connection into the compound.
    if (isBoundary(inner.getSrc())) {
      if (namesInstance(dst, name))
        return wiredBack();
      return success();
    }
    src = rename(inner.getSrc());
    lossy |= inner.getLossy();
  }
  if (namesInstance(dst, name)) {
    ConnectOp inner = innerFrom.lookup(dst.getLeafReference());
    assert(inner && "verified graphs connect every boundary port");
    lossy |= inner.getLossy();
    if (!isBoundary(inner.getDst())) {
      dst = rename(inner.getDst());
    } else {
      ConnectOp next = outerFrom.lookup(inner.getDst().getRootReference());
      assert(next && "verified graphs connect every instance port");
      if (namesInstance(next.getDst(), name))
        return wiredBack();
      dst = next.getDst();
      depth = std::max(depth, next.getDepthAttr().getInt());
      lossy |= next.getLossy();
    }
  }
  builder.setInsertionPoint(outer);
  builder.create<ConnectOp>(outer.getLoc(), src, dst,
                            builder.getI64IntegerAttr(depth),
                            lossy ? builder.getUnitAttr() : UnitAttr());
  return success();
}

LogicalResult CompoundInliner::run() {
  StringAttr name = instance.getSymNameAttr();
  builder.setInsertionPoint(instance);
  if (failed(cloneInstances()))
    return failure();

  for (ConnectOp inner : callee.getBody()->getOps<ConnectOp>()) {
    if (isBoundary(inner.getSrc()))
      innerFrom[inner.getSrc().getRootReference()] = inner;
    if (isBoundary(inner.getDst()))
      innerTo[inner.getDst().getRootReference()] = inner;
    if (isBoundary(inner.getSrc()) || isBoundary(inner.getDst()))
      continue;
    builder.create<ConnectOp>(inner.getLoc(), rename(inner.getSrc()),
                              rename(inner.getDst()), inner.getDepthAttr(),
                              inner.getLossyAttr());
  }

  SmallVector<ConnectOp> touching;
  for (ConnectOp outer : top.getBody()->getOps<ConnectOp>()) {
    if (namesInstance(outer.getSrc(), name))
      outerFrom[outer.getSrc().getLeafReference()] = outer;
    if (namesInstance(outer.getSrc(), name) ||
        namesInstance(outer.getDst(), name))
      touching.push_back(outer);
  }
  for (ConnectOp outer : touching)
    if (failed(stitch(outer)))
      return failure();
  for (ConnectOp outer : touching)
    outer.erase();
  instance.erase();
  return success();
}

namespace {

struct FlattenGraphPass
    : public npcc::np::impl::FlattenGraphBase<FlattenGraphPass> {
  using Base::Base;
  void runOnOperation() override;

private:
  FailureOr<GraphOp> findTop(ModuleOp module);
};

} // namespace

FailureOr<GraphOp> FlattenGraphPass::findTop(ModuleOp module) {
  if (!topName.empty()) {
    auto graph =
        dyn_cast_or_null<GraphOp>(SymbolTable::lookupSymbolIn(module, topName));
    if (!graph)
      return module.emitError()
             << "no graph named '" << topName << "' (option 'top')";
    return graph;
  }

  GraphOp marked;
  for (GraphOp graph : module.getOps<GraphOp>()) {
    if (!graph.getTop())
      continue;
    if (marked) {
      InFlightDiagnostic diag = graph.emitOpError()
                                << "is marked 'top', and so is graph '"
                                << marked.getSymName() << "'";
      diag.attachNote(marked.getLoc()) << "other top graph here";
      return diag;
    }
    marked = graph;
  }
  if (marked)
    return marked;

  llvm::DenseSet<StringAttr> instantiated;
  for (GraphOp graph : module.getOps<GraphOp>())
    for (InstanceOp inst : graph.getBody()->getOps<InstanceOp>())
      instantiated.insert(inst.getCalleeAttr().getAttr());
  SmallVector<GraphOp> roots;
  for (GraphOp graph : module.getOps<GraphOp>())
    if (!instantiated.contains(graph.getSymNameAttr()))
      roots.push_back(graph);
  if (roots.size() == 1)
    return roots.front();
  if (roots.empty())
    return module.emitError()
           << "no top graph: every graph is instantiated by another graph";
  InFlightDiagnostic diag =
      roots.back().emitOpError()
      << "is one of " << roots.size()
      << " graphs that no graph instantiates; mark the top graph with "
         "'top' or name it with the 'top' option";
  for (GraphOp root : ArrayRef(roots).drop_back())
    diag.attachNote(root.getLoc())
        << "graph '" << root.getSymName() << "' is not instantiated either";
  return diag;
}

void FlattenGraphPass::runOnOperation() {
  ModuleOp module = getOperation();
  if (module.getOps<GraphOp>().empty())
    return;
  FailureOr<GraphOp> top = findTop(module);
  if (failed(top))
    return signalPassFailure();

  // Inline compound instances until only element instances remain; the
  // verifier has ruled out recursive graphs, so this terminates.
  SymbolTable moduleSymbols(module);
  while (true) {
    InstanceOp compound;
    GraphOp callee;
    for (InstanceOp inst : top->getBody()->getOps<InstanceOp>()) {
      callee = moduleSymbols.lookup<GraphOp>(inst.getCallee());
      if (callee) {
        compound = inst;
        break;
      }
    }
    if (!compound)
      break;
    if (failed(CompoundInliner(*top, compound, callee).run()))
      return signalPassFailure();
  }

  // Erase the graphs nothing instantiates any more.
  for (bool changed = true; changed;) {
    changed = false;
    llvm::DenseSet<StringAttr> used;
    for (GraphOp graph : module.getOps<GraphOp>())
      for (InstanceOp inst : graph.getBody()->getOps<InstanceOp>())
        used.insert(inst.getCalleeAttr().getAttr());
    for (GraphOp graph : llvm::make_early_inc_range(module.getOps<GraphOp>())) {
      if (graph == *top || used.contains(graph.getSymNameAttr()))
        continue;
      graph.erase();
      changed = true;
    }
  }
  for (GraphOp graph : module.getOps<GraphOp>())
    graph.setTop(graph == *top);
}
