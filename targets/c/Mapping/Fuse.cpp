//===- Fuse.cpp - channels into direct calls (push fusion) ----------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Decides which channels of the flat top graph become direct calls, and
// rewrites both ends: the consumer gets an np.push body (its handler with
// the receive replaced by an argument), the producer's sends on the port
// become np.fused_send to it, and the connection is marked `fused`. The
// decision mirrors the runtime's: only a channel the runtime would serve
// by a pushed call (nprt_exec_handoff, after nprt_graph_settle_push) is
// fused, so a fused program schedules exactly as an unfused one.
//
//===----------------------------------------------------------------------===//

#include "targets/c/Mapping/Passes.h"

#include "dialects/NP/IR/HandlerShape.h"
#include "dialects/NP/IR/NPOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"

namespace npcc::c {
#define GEN_PASS_DEF_FUSE
#include "targets/c/Mapping/Passes.h.inc"
} // namespace npcc::c

using namespace mlir;
using namespace npcc::np;

namespace {

/// The handler's receive if it is a plain `np.recv` that comes, at the top
/// level of the handler, before any other receive; null for a handler that
/// starts with `np.select` (those stay pushed calls of the runtime: which
/// port the value came from is only known there).
RecvOp leadingRecv(Block &handler) {
  for (Operation &op : handler) {
    if (auto recv = dyn_cast<RecvOp>(op))
      return recv;
    if (isa<SelectOp>(op))
      return {};
  }
  return {};
}

/// An instance of the top graph.
struct Node {
  InstanceOp inst;
  /// Null for an instance of a graph (before np-flatten-graph).
  ElementOp element;
  /// Its element is used by no other instance (np-instantiate-elements).
  bool own = false;
  /// Input port name to its index among the element's input ports.
  llvm::StringMap<unsigned> inIndex;
  /// Input ports the runtime may push to: np::pushPortMask, then settled.
  uint64_t push = 0;
  /// Instances this one calls through fused channels.
  SmallVector<unsigned> calls;
};

/// A connection between two instance ports.
struct Edge {
  ConnectOp connect;
  unsigned src, dst;
  StringRef out, in;
  bool lossy;
};

struct FusePass : npcc::c::impl::FuseBase<FusePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    GraphOp top;
    for (auto g : module.getOps<GraphOp>())
      if (g.getTop()) {
        top = g;
        break;
      }
    if (!top)
      return; // nothing to fuse; np-describe-graph reports the missing graph

    SymbolTable symbols(module);
    SmallVector<Node> nodes;
    llvm::DenseMap<StringAttr, unsigned> byName;
    llvm::DenseMap<Operation *, unsigned> uses;
    for (auto inst : top.getBody()->getOps<InstanceOp>()) {
      Node &n = nodes.emplace_back();
      n.inst = inst;
      n.element = symbols.lookup<ElementOp>(inst.getCallee());
      byName[inst.getSymNameAttr()] = nodes.size() - 1;
      if (!n.element)
        continue;
      ++uses[n.element];
      for (auto port : n.element.getBody()->getOps<PortOp>())
        if (port.isInput())
          n.inIndex[port.getSymName()] = n.inIndex.size();
      n.push = pushPortMask(n.element);
    }
    for (Node &n : nodes)
      n.own = n.element && uses.lookup(n.element) == 1;

    // Every connection between instance ports, in order. A top graph that
    // np-describe-graph accepts has no boundary ports; a connection to one
    // is never fused.
    SmallVector<Edge> edges;
    for (auto c : top.getBody()->getOps<ConnectOp>()) {
      SymbolRefAttr src = c.getSrc(), dst = c.getDst();
      if (src.getNestedReferences().size() != 1 ||
          dst.getNestedReferences().size() != 1)
        continue;
      edges.push_back({c, byName.lookup(src.getRootReference()),
                       byName.lookup(dst.getRootReference()),
                       src.getLeafReference().getValue(),
                       dst.getLeafReference().getValue(), c.getLossy()});
    }
    settle(nodes, edges);

    SmallVector<Edge *> fused;
    for (Edge &e : edges)
      if (fusible(nodes, e) && !reaches(nodes, e.dst, e.src)) {
        nodes[e.src].calls.push_back(e.dst);
        fused.push_back(&e);
      }

    // Push bodies first, from the handlers as written; then every send on
    // a fused port, in every body (push bodies included), becomes a call.
    for (Edge *e : fused) {
      Node &dst = nodes[e->dst];
      PortOp in = dst.element.lookupPort(e->in);
      makePushBody(dst.element, in);
      e->connect.setFused(true);
    }
    for (Edge *e : fused) {
      ElementOp to = nodes[e->dst].element;
      auto target = SymbolRefAttr::get(
          to.getSymNameAttr(), FlatSymbolRefAttr::get(&getContext(), e->in));
      SmallVector<SendOp> sends;
      nodes[e->src].element.walk([&](SendOp s) {
        if (s.getPort() == e->out)
          sends.push_back(s);
      });
      for (SendOp s : sends) {
        OpBuilder b(s);
        b.create<FusedSendOp>(s.getLoc(), s.getPortAttr(), target,
                              s.getValue());
        s.erase();
      }
    }
    numFused += fused.size();
  }

  /// nprt_graph_settle_push on the graph: an instance keeps its push ports
  /// only if every lossless channel out of it leads to a port that is
  /// pushed to; the largest such set, removing offenders until none is
  /// left.
  static void settle(MutableArrayRef<Node> nodes, ArrayRef<Edge> edges) {
    for (bool changed = true; changed;) {
      changed = false;
      for (const Edge &e : edges) {
        Node &src = nodes[e.src];
        if (!src.push || e.lossy)
          continue;
        const Node &dst = nodes[e.dst];
        auto it = dst.inIndex.find(e.in);
        if (it == dst.inIndex.end() || it->second >= 64 ||
            !(dst.push >> it->second & 1)) {
          src.push = 0;
          changed = true;
        }
      }
    }
  }

  /// The runtime would call the consumer's handler for every value of `e`,
  /// and the call can be written statically: both ends are instances of
  /// elements of their own at the same placement, the channel is lossless,
  /// and the consumer, pushed to on that port after settling, starts with
  /// a plain receive from it.
  static bool fusible(MutableArrayRef<Node> nodes, const Edge &e) {
    Node &src = nodes[e.src], &dst = nodes[e.dst];
    if (!src.own || !dst.own || e.lossy ||
        src.inst.getPlacement() != dst.inst.getPlacement())
      return false;
    auto it = dst.inIndex.find(e.in);
    if (it == dst.inIndex.end() || it->second >= 64 ||
        !(dst.push >> it->second & 1))
      return false;
    RecvOp recv = leadingRecv(*dst.element.getHandler().getBody());
    return recv && recv.getPort() == e.in;
  }

  /// Whether `from` calls `to` through the fused channels chosen so far.
  static bool reaches(ArrayRef<Node> nodes, unsigned from, unsigned to) {
    SmallVector<unsigned> work{from};
    llvm::DenseSet<unsigned> seen{from};
    while (!work.empty()) {
      unsigned n = work.pop_back_val();
      if (n == to)
        return true;
      for (unsigned m : nodes[n].calls)
        if (seen.insert(m).second)
          work.push_back(m);
    }
    return false;
  }

  /// Adds to `element`, after its handler, the np.push body for `in`: the
  /// handler with its leading receive replaced by the body's last argument.
  static void makePushBody(ElementOp element, PortOp in) {
    for (auto push : element.getBody()->getOps<PushOp>())
      if (push.getPort() == in.getSymName())
        return;
    HandlerOp handler = element.getHandler();
    OpBuilder b(handler);
    b.setInsertionPointAfter(handler);
    auto push = b.create<PushOp>(handler.getLoc(), in.getSymName());
    IRMapping map;
    handler.getBodyRegion().cloneInto(&push.getBodyRegion(), map);
    Block &body = push.getBodyRegion().front();
    RecvOp recv = leadingRecv(body);
    assert(recv && recv.getPort() == in.getSymName() &&
           "fusible() checked the handler's receive");
    recv.replaceAllUsesWith(body.addArgument(in.getType(), recv.getLoc()));
    recv.erase();
  }
};

} // namespace
