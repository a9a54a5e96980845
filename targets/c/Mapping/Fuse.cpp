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

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
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
/// starts with `np.select`.
RecvOp leadingRecv(Block &handler) {
  for (Operation &op : handler) {
    if (auto recv = dyn_cast<RecvOp>(op))
      return recv;
    if (isa<SelectOp>(op))
      return {};
  }
  return {};
}

/// The handler's `np.select` if it comes, at the top level, before any
/// receive (Merge: `send(o, recv_any(i))`).
SelectOp leadingSelect(Block &handler) {
  for (Operation &op : handler) {
    if (isa<RecvOp>(op))
      return {};
    if (auto select = dyn_cast<SelectOp>(op))
      return select;
  }
  return {};
}

/// The position of `port` among the ports `select` waits on, or -1.
int selectIndex(SelectOp select, StringRef port) {
  for (auto [k, a] : llvm::enumerate(select.getPorts()))
    if (cast<FlatSymbolRefAttr>(a).getValue() == port)
      return k;
  return -1;
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
      if (!reaches(nodes, e.dst, e.src) && fusible(nodes, e)) {
        nodes[e.src].calls.push_back(e.dst);
        fused.push_back(&e);
      }

    // Push bodies first, from the handlers as written; then every send on
    // a fused port, in every body (push bodies included), becomes a call.
    for (Edge *e : fused) {
      Node &dst = nodes[e->dst];
      PortOp in = dst.element.lookupPort(e->in);
      if (failed(makePushBody(dst.element, in)))
        llvm_unreachable("fusible() made or checked the push body");
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
  /// a plain receive from it, or with a select whose answer for a value
  /// that came on that port folds the handler down to a plain receive from
  /// it (makePushBody).
  static bool fusible(MutableArrayRef<Node> nodes, const Edge &e) {
    Node &src = nodes[e.src], &dst = nodes[e.dst];
    if (!src.own || !dst.own || e.lossy ||
        src.inst.getPlacement() != dst.inst.getPlacement())
      return false;
    auto it = dst.inIndex.find(e.in);
    if (it == dst.inIndex.end() || it->second >= 64 ||
        !(dst.push >> it->second & 1))
      return false;
    Block &handler = *dst.element.getHandler().getBody();
    if (RecvOp recv = leadingRecv(handler))
      return recv.getPort() == e.in;
    SelectOp select = leadingSelect(handler);
    return select && selectIndex(select, e.in) >= 0 &&
           succeeded(makePushBody(dst.element, dst.element.lookupPort(e.in)));
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
  /// A handler that starts with a select gets the select's answer for a
  /// value on `in` (its position among the select's ports), folded, and
  /// must then start with a plain receive from `in`; if it does not, the
  /// body is not made and the connection stays a channel. The runtime
  /// moves the select's round-robin start on each call as the select would
  /// (nprt_instance_desc.select_ports).
  static LogicalResult makePushBody(ElementOp element, PortOp in) {
    for (auto push : element.getBody()->getOps<PushOp>())
      if (push.getPort() == in.getSymName())
        return success();
    HandlerOp handler = element.getHandler();
    OpBuilder b(handler);
    b.setInsertionPointAfter(handler);
    auto push = b.create<PushOp>(handler.getLoc(), in.getSymName());
    IRMapping map;
    handler.getBodyRegion().cloneInto(&push.getBodyRegion(), map);
    if (SelectOp select = leadingSelect(push.getBodyRegion().front())) {
      b.setInsertionPoint(select);
      Value k = b.create<arith::ConstantIntOp>(
          select.getLoc(), selectIndex(select, in.getSymName()), 32);
      select.replaceAllUsesWith(k);
      select.erase();
      foldBranches(push);
    }
    Block &body = push.getBodyRegion().front();
    RecvOp recv = leadingRecv(body);
    bool otherReceive = false;
    body.walk([&](Operation *op) {
      otherReceive |= op != recv && isa<RecvOp, SelectOp>(op);
    });
    if (!recv || recv.getPort() != in.getSymName() || otherReceive) {
      push.erase();
      return failure();
    }
    recv.replaceAllUsesWith(body.addArgument(in.getType(), recv.getLoc()));
    recv.erase();
    return success();
  }

  /// Folds the arithmetic a select's known answer feeds and the `scf.if`s
  /// it decides in `push`, so that only the receive it leads to is left.
  /// Nothing else is touched: a general canonicalization would also erase
  /// operations whose only effect is one the dialect does not declare (a
  /// print's output).
  static void foldBranches(PushOp push) {
    IRRewriter rewriter(push.getContext());
    for (bool changed = true; changed;) {
      changed = false;
      SmallVector<Operation *> ops;
      push.walk<WalkOrder::PreOrder>([&](Operation *op) {
        if (op != push.getOperation())
          ops.push_back(op);
      });
      for (Operation *op : ops) {
        if (auto ifOp = dyn_cast<scf::IfOp>(op))
          changed = succeeded(inlineDecided(rewriter, ifOp));
        else if (isa<arith::ArithDialect>(op->getDialect()))
          changed = succeeded(foldConstant(rewriter, op));
        if (changed)
          break; // the list may hold erased operations now
      }
    }
    // What the answer was computed from is left unused (arith is pure).
    for (bool erased = true; erased;) {
      SmallVector<Operation *> dead;
      push.walk([&](Operation *op) {
        if (isa<arith::ArithDialect>(op->getDialect()) && op->use_empty())
          dead.push_back(op);
      });
      for (Operation *op : dead)
        rewriter.eraseOp(op);
      erased = !dead.empty();
    }
  }

  /// Replaces an arith operation of constant operands by its value, as a
  /// constant in its place.
  static LogicalResult foldConstant(IRRewriter &rewriter, Operation *op) {
    if (isa<arith::ConstantOp>(op) || op->getNumResults() != 1)
      return failure();
    SmallVector<Attribute> operands;
    for (Value v : op->getOperands()) {
      Attribute a;
      if (!matchPattern(v, m_Constant(&a)))
        return failure();
      operands.push_back(a);
    }
    SmallVector<OpFoldResult> folded;
    if (failed(op->fold(operands, folded)) || folded.size() != 1)
      return failure();
    Value v = dyn_cast<Value>(folded[0]);
    if (!v) {
      auto attr = dyn_cast<TypedAttr>(cast<Attribute>(folded[0]));
      if (!attr || attr.getType() != op->getResult(0).getType())
        return failure();
      rewriter.setInsertionPoint(op);
      v = rewriter.create<arith::ConstantOp>(op->getLoc(), attr);
    }
    rewriter.replaceOp(op, v);
    return success();
  }

  /// Replaces an `scf.if` whose condition is a constant by the region it
  /// takes.
  static LogicalResult inlineDecided(IRRewriter &rewriter, scf::IfOp ifOp) {
    APInt cond;
    if (!matchPattern(ifOp.getCondition(), m_ConstantInt(&cond)))
      return failure();
    Region &taken =
        cond.getBoolValue() ? ifOp.getThenRegion() : ifOp.getElseRegion();
    if (taken.empty()) {
      rewriter.eraseOp(ifOp); // no results without an else region
      return success();
    }
    Block &block = taken.front();
    auto yield = cast<scf::YieldOp>(block.getTerminator());
    SmallVector<Value> results(yield.getOperands());
    rewriter.eraseOp(yield);
    rewriter.inlineBlockBefore(&block, ifOp);
    rewriter.replaceOp(ifOp, results);
    return success();
  }
};

} // namespace
