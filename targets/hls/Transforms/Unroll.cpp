//===- Unroll.cpp - fully unroll the loops of the packet path -------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "targets/hls/Transforms/Passes.h"

#include "dialects/NP/IR/NPOps.h"
#include "targets/hls/Transforms/HLSMemory.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace npcc::hls {
#define GEN_PASS_DEF_UNROLL
#include "targets/hls/Transforms/Passes.h.inc"
} // namespace npcc::hls

using namespace mlir;
using namespace npcc::np;
using namespace npcc::hls;

namespace {

/// Whether an iteration of `loop` may receive a value.
bool receives(scf::ForOp loop) {
  return loop.getBody()
      ->walk([](Operation *op) {
        return isa<RecvOp, TryRecvOp, DeviceRecvOp>(op)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Turns each `np.exit_loop_if %stop` directly in `loop`'s body into a
/// guard: what follows it in the iteration moves into `scf.if (not %stop)`,
/// whose other branch passes the loop-carried values on unchanged (what
/// leaving the loop there would keep). np.exit_loop_if says the rest does
/// nothing once %stop holds, so this changes nothing; it is what lets the
/// body leave its scf.for.
void guardExits(scf::ForOp loop) {
  Block *body = loop.getBody();
  SmallVector<ExitLoopIfOp> exits(body->getOps<ExitLoopIfOp>());
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  OpBuilder b(loop.getContext());
  // The last first: an earlier guard then takes the later one with it.
  for (ExitLoopIfOp exit : llvm::reverse(exits)) {
    Location loc = exit.getLoc();
    b.setInsertionPoint(exit);
    Value one = b.create<arith::ConstantIntOp>(loc, 1, 1);
    Value go = b.create<arith::XOrIOp>(loc, exit.getCond(), one);
    auto guard = b.create<scf::IfOp>(loc, yield.getOperandTypes(), go,
                                     /*withElseRegion=*/true);
    Block *then = guard.thenBlock();
    // scf.if's builder gives a block without results an scf.yield.
    if (!then->empty())
      then->getTerminator()->erase();
    then->getOperations().splice(then->end(), body->getOperations(),
                                 std::next(exit->getIterator()),
                                 yield->getIterator());
    b.setInsertionPointToEnd(then);
    b.create<scf::YieldOp>(loc, yield.getOperands());
    Block *other = guard.elseBlock();
    if (!other->empty())
      other->getTerminator()->erase();
    b.setInsertionPointToEnd(other);
    b.create<scf::YieldOp>(loc, loop.getRegionIterArgs());
    yield->setOperands(guard.getResults());
    exit.erase();
  }
}

/// Replaces `loop` by `trips` copies of its body, each with the induction
/// variable a constant; appends the ops made to `made`. (MLIR 19 has no
/// full unroll for scf.for: loopUnrollByFactor leaves `lb + step * k`
/// arithmetic and a one-iteration loop to promote.)
void unrollFull(scf::ForOp loop, int64_t lb, int64_t step, int64_t trips,
                SmallVectorImpl<Operation *> &made) {
  OpBuilder b(loop);
  Block *body = loop.getBody();
  SmallVector<Value> carried(loop.getInitArgs());
  for (int64_t k = 0; k < trips; ++k) {
    IRMapping map;
    auto iv = b.create<arith::ConstantIndexOp>(loop.getLoc(), lb + k * step);
    made.push_back(iv);
    map.map(loop.getInductionVar(), iv.getResult());
    map.map(loop.getRegionIterArgs(), carried);
    for (Operation &op : body->without_terminator())
      made.push_back(b.clone(op, map));
    carried.clear();
    for (Value v : body->getTerminator()->getOperands())
      carried.push_back(map.lookupOrDefault(v));
  }
  loop.replaceAllUsesWith(carried);
  // Copies made earlier inside this loop (unrolled inner loops) go with it.
  llvm::erase_if(made, [&](Operation *op) { return loop->isAncestor(op); });
  loop.erase();
}

struct Unroll : npcc::hls::impl::UnrollBase<Unroll> {
  using UnrollBase::UnrollBase;

  void runOnOperation() override {
    auto selected = selectHLSElements(getOperation(), elements, "np-unroll");
    if (failed(selected))
      return signalPassFailure();
    for (ElementOp element : *selected)
      for (Operation &body : *element.getBody())
        if (isPacketPathBody(&body))
          unrollBody(&body);
  }

  void unrollBody(Operation *body) {
    // Post-order: inner loops first, so nests of small loops unroll fully.
    SmallVector<scf::ForOp> loops;
    body->walk([&](scf::ForOp loop) { loops.push_back(loop); });
    SmallVector<Operation *> made;
    for (scf::ForOp loop : loops) {
      std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
      std::optional<int64_t> step = getConstantIntValue(loop.getStep());
      std::optional<int64_t> trips = constantTripCount(
          loop.getLowerBound(), loop.getUpperBound(), loop.getStep());
      if (!lb || !step || !trips) {
        loop.emitRemark() << "loop not unrolled: unknown trip count";
        ++numKept;
        continue;
      }
      if (!loop->hasAttr(kUnrollAttr) && receives(loop)) {
        // Each iteration takes a datum of its own: the loop is the
        // pipeline, one datum per clock, as the handler's loop is.
        // Unrolled, every datum would pay for all the iterations.
        loop.emitRemark() << "loop not unrolled: each iteration receives";
        ++numKept;
        continue;
      }
      if (!loop->hasAttr(kUnrollAttr) && *trips > maxTripCount) {
        loop.emitRemark() << "loop of " << *trips
                          << " iterations not unrolled: more than "
                             "max-trip-count ("
                          << maxTripCount.getValue() << ")";
        ++numKept;
        continue;
      }
      loop.emitRemark() << "unrolled loop of " << *trips << " iteration"
                        << (*trips == 1 ? "" : "s");
      guardExits(loop);
      unrollFull(loop, *lb, *step, *trips, made);
      ++numUnrolled;
    }
    if (made.empty())
      return;
    // Fold the constant induction variables into the copies (casts,
    // compares, index arithmetic); nothing else is rewritten.
    GreedyRewriteConfig config;
    config.strictMode = GreedyRewriteStrictness::ExistingAndNewOps;
    SmallVector<Operation *> ops;
    for (Operation *op : made)
      op->walk([&](Operation *nested) { ops.push_back(nested); });
    (void)applyOpPatternsAndFold(ops, FrozenRewritePatternSet(), config);
  }
};

} // namespace
