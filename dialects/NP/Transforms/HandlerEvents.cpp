//===- HandlerEvents.cpp - what a body does on its channels ---------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dialects/NP/Transforms/HandlerEvents.h"

#include "dialects/NP/IR/NPOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/APInt.h"
#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace npcc::np;

/// Loops of at most this many iterations are walked once per iteration,
/// with the loop counter known.
static constexpr int64_t kMaxUnroll = 64;
/// Iterations walked in all, per body; past it loops are multiplied out.
static constexpr unsigned kMaxWork = 4096;
/// Events kept per body; a longer run is treated as data-dependent.
static constexpr size_t kMaxEvents = 1024;
/// Counts saturate here.
static constexpr int64_t kMaxCount = int64_t(1) << 30;

namespace {
/// Integer values known at compile time: constants, loop counters of the
/// iteration being walked, and arithmetic on them.
class Constants {
public:
  void bind(Value v, int64_t x) { known[v] = APInt(64, x, /*isSigned=*/true); }
  void unbind(Value v) { known.erase(v); }

  std::optional<APInt> eval(Value v, unsigned depth = 0) {
    if (auto it = known.find(v); it != known.end())
      return it->second;
    Operation *def = v.getDefiningOp();
    if (!def || depth > 32)
      return std::nullopt;
    unsigned width = scalarBitWidth(v.getType());
    if (!width)
      return std::nullopt;
    if (auto c = dyn_cast<arith::ConstantOp>(def)) {
      auto attr = dyn_cast<IntegerAttr>(c.getValue());
      if (!attr)
        return std::nullopt;
      return attr.getValue().zextOrTrunc(width);
    }
    auto operand = [&](unsigned i) {
      return eval(def->getOperand(i), depth + 1);
    };
    if (isa<arith::IndexCastOp, arith::ExtSIOp, arith::IndexCastUIOp,
            arith::ExtUIOp, arith::TruncIOp>(def)) {
      std::optional<APInt> x = operand(0);
      if (!x)
        return std::nullopt;
      bool isSigned = isa<arith::IndexCastOp, arith::ExtSIOp>(def);
      return isSigned ? x->sextOrTrunc(width) : x->zextOrTrunc(width);
    }
    if (auto sel = dyn_cast<arith::SelectOp>(def)) {
      std::optional<APInt> c = operand(0);
      if (!c)
        return std::nullopt;
      return operand(c->isZero() ? 2 : 1);
    }
    if (def->getNumOperands() != 2)
      return std::nullopt;
    std::optional<APInt> a = operand(0), b = operand(1);
    if (!a || !b || a->getBitWidth() != b->getBitWidth())
      return std::nullopt;
    if (auto cmp = dyn_cast<arith::CmpIOp>(def))
      return APInt(1, arith::applyCmpPredicate(cmp.getPredicate(), *a, *b));
    if (isa<arith::AddIOp>(def))
      return *a + *b;
    if (isa<arith::SubIOp>(def))
      return *a - *b;
    if (isa<arith::MulIOp>(def))
      return *a * *b;
    if (isa<arith::AndIOp>(def))
      return *a & *b;
    if (isa<arith::OrIOp>(def))
      return *a | *b;
    if (isa<arith::XOrIOp>(def))
      return *a ^ *b;
    return std::nullopt;
  }

  /// Lower bound, step and trip count of a loop with constant bounds.
  std::optional<std::array<int64_t, 3>> loop(scf::ForOp f) {
    std::optional<APInt> lb = eval(f.getLowerBound()),
                         ub = eval(f.getUpperBound()), step = eval(f.getStep());
    if (!lb || !ub || !step || !step->isStrictlyPositive())
      return std::nullopt;
    int64_t l = lb->getSExtValue(), u = ub->getSExtValue(),
            s = step->getSExtValue();
    int64_t n = u > l ? (u - l + s - 1) / s : 0;
    return std::array<int64_t, 3>{l, s, n};
  }

private:
  llvm::DenseMap<Value, APInt> known;
};

/// Whether `op` holds an operation that waits on or changes a channel, or
/// ends the instance.
bool hasChannelOps(Operation &op) {
  return op
      .walk([](Operation *inner) {
        return isa<RecvOp, TryRecvOp, SelectOp, SendOp, FusedSendOp, FinishOp>(
                   inner)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// The port `op` sends on, if it sends.
std::optional<StringRef> sentPort(Operation &op) {
  if (auto s = dyn_cast<SendOp>(op))
    return s.getPort();
  if (auto s = dyn_cast<FusedSendOp>(op))
    return s.getPort();
  return std::nullopt;
}

class SequenceBuilder {
public:
  EventSequence seq;

  /// False once the rest of the run depends on data.
  bool block(Block &b) {
    for (Operation &op : b)
      if (!operation(op))
        return false;
    return true;
  }

private:
  Constants consts;

  bool open(Operation *at) {
    seq.openAt = at;
    return false;
  }
  bool push(ChannelEvent::Kind kind, ArrayRef<StringRef> ports, Operation *op) {
    if (seq.events.size() >= kMaxEvents)
      return open(op);
    seq.events.push_back({kind, {ports.begin(), ports.end()}, op});
    return true;
  }

  bool operation(Operation &op) {
    if (auto r = dyn_cast<RecvOp>(op))
      return push(ChannelEvent::Recv, {r.getPort()}, &op);
    if (std::optional<StringRef> port = sentPort(op))
      return push(ChannelEvent::Send, {*port}, &op);
    if (auto s = dyn_cast<SelectOp>(op)) {
      SmallVector<StringRef> ports;
      for (auto p : s.getPorts().getAsRange<FlatSymbolRefAttr>())
        ports.push_back(p.getValue());
      // Which case runs depends on which channel is ready first.
      push(ChannelEvent::Select, ports, &op);
      return open(&op);
    }
    if (isa<TryRecvOp, FinishOp>(op))
      return open(&op);
    if (op.getNumRegions() == 0 || !hasChannelOps(op))
      return true;
    if (auto i = dyn_cast<scf::IfOp>(op)) {
      std::optional<APInt> c = consts.eval(i.getCondition());
      if (!c)
        return open(&op);
      Region &taken = c->isZero() ? i.getElseRegion() : i.getThenRegion();
      return taken.empty() || block(taken.front());
    }
    if (auto f = dyn_cast<scf::ForOp>(op)) {
      auto bounds = consts.loop(f);
      if (!bounds || (*bounds)[2] > kMaxUnroll)
        return open(&op);
      auto [lb, step, n] = *bounds;
      for (int64_t k = 0; k < n; ++k) {
        consts.bind(f.getInductionVar(), lb + k * step);
        if (!block(*f.getBody()))
          return false;
      }
      consts.unbind(f.getInductionVar());
      return true;
    }
    return open(&op);
  }
};

class SendCounter {
public:
  explicit SendCounter(StringRef port) : port(port) {}

  std::optional<int64_t> block(Block &b) {
    int64_t n = 0;
    for (Operation &op : b) {
      std::optional<int64_t> k = operation(op);
      if (!k)
        return std::nullopt;
      n = std::min(n + *k, kMaxCount);
    }
    return n;
  }

private:
  StringRef port;
  Constants consts;
  unsigned work = 0;

  bool sendsOnPort(Operation &op) {
    return op
        .walk([&](Operation *inner) {
          std::optional<StringRef> p = sentPort(*inner);
          return p && *p == port ? WalkResult::interrupt()
                                 : WalkResult::advance();
        })
        .wasInterrupted();
  }
  std::optional<int64_t> region(Region &r) {
    return r.empty() ? std::optional<int64_t>(0) : block(r.front());
  }

  std::optional<int64_t> operation(Operation &op) {
    if (std::optional<StringRef> p = sentPort(op))
      return *p == port ? 1 : 0;
    if (op.getNumRegions() == 0 || !sendsOnPort(op))
      return 0;
    if (auto i = dyn_cast<scf::IfOp>(op)) {
      if (std::optional<APInt> c = consts.eval(i.getCondition()))
        return region(c->isZero() ? i.getElseRegion() : i.getThenRegion());
      std::optional<int64_t> a = region(i.getThenRegion()),
                             b = region(i.getElseRegion());
      if (!a || !b)
        return std::nullopt;
      return std::max(*a, *b);
    }
    auto f = dyn_cast<scf::ForOp>(op);
    // A loop that may stop early (`while`, `break`, `return`) runs as
    // often as the data says: its bound is no rate.
    if (!f || !f.getBody()->getOps<ExitLoopIfOp>().empty())
      return std::nullopt;
    auto bounds = consts.loop(f);
    if (!bounds)
      return std::nullopt;
    auto [lb, step, n] = *bounds;
    if (n <= kMaxUnroll && work + n <= kMaxWork) {
      work += n;
      int64_t total = 0;
      for (int64_t k = 0; k < n; ++k) {
        consts.bind(f.getInductionVar(), lb + k * step);
        std::optional<int64_t> once = block(*f.getBody());
        if (!once)
          return std::nullopt;
        total = std::min(total + *once, kMaxCount);
      }
      consts.unbind(f.getInductionVar());
      return total;
    }
    std::optional<int64_t> once = block(*f.getBody());
    if (!once)
      return std::nullopt;
    if (*once == 0 || n == 0)
      return 0;
    return *once > kMaxCount / n ? kMaxCount : n * *once;
  }
};
} // namespace

EventSequence npcc::np::eventSequence(Region &body) {
  SequenceBuilder builder;
  if (!body.empty())
    builder.block(body.front());
  return std::move(builder.seq);
}

std::optional<int64_t> npcc::np::maxSendsPerRun(Region &body, StringRef port) {
  if (body.empty())
    return 0;
  return SendCounter(port).block(body.front());
}
