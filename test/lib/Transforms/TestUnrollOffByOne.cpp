//===- TestUnrollOffByOne.cpp - np-unroll with a planted bug --------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A copy of np-unroll (targets/hls/Transforms/Unroll.cpp) with one
// deliberate bug, for the tests of npsmith-reduce: a loop that carries
// `np.unroll` (NPL's `unroll k in a..b bound N`) is replaced by N - 1
// copies of its body instead of N, so the last iteration a full trip would
// run is lost. Loops without the attribute unroll correctly. Only the test
// driver npcc-test-interp registers it; no tool a user runs has it.
//
//===----------------------------------------------------------------------===//

#include "test/lib/Transforms/TestPasses.h"

#include "dialects/NP/IR/NPOps.h"
#include "targets/hls/Transforms/HLSMemory.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;
using namespace npcc::np;

namespace {

/// Turns each `np.exit_loop_if %stop` directly in `loop`'s body into a
/// guard of the rest of the iteration (as np-unroll does).
void guardExits(scf::ForOp loop) {
  Block *body = loop.getBody();
  SmallVector<ExitLoopIfOp> exits(body->getOps<ExitLoopIfOp>());
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  OpBuilder b(loop.getContext());
  for (ExitLoopIfOp exit : llvm::reverse(exits)) {
    Location loc = exit.getLoc();
    b.setInsertionPoint(exit);
    Value one = b.create<arith::ConstantIntOp>(loc, 1, 1);
    Value go = b.create<arith::XOrIOp>(loc, exit.getCond(), one);
    auto guard = b.create<scf::IfOp>(loc, yield.getOperandTypes(), go,
                                     /*withElseRegion=*/true);
    Block *then = guard.thenBlock();
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

/// Replaces `loop` by `trips` copies of its body (as np-unroll does).
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
  llvm::erase_if(made, [&](Operation *op) { return loop->isAncestor(op); });
  loop.erase();
}

struct TestUnrollOffByOne
    : PassWrapper<TestUnrollOffByOne, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestUnrollOffByOne)

  StringRef getArgument() const final { return "test-np-unroll-off-by-one"; }
  StringRef getDescription() const final {
    return "np-unroll with a planted bug: an `unroll` loop loses its last "
           "iteration (for npsmith-reduce's tests)";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<NPDialect, arith::ArithDialect, scf::SCFDialect>();
  }

  void runOnOperation() override {
    for (ElementOp element : npcc::hls::selectHLSElements(
             getOperation(), npcc::hls::HLSElements::All))
      for (Operation &body : *element.getBody())
        if (npcc::hls::isPacketPathBody(&body))
          unrollBody(&body);
  }

  void unrollBody(Operation *body) {
    SmallVector<scf::ForOp> loops;
    body->walk([&](scf::ForOp loop) { loops.push_back(loop); });
    SmallVector<Operation *> made;
    for (scf::ForOp loop : loops) {
      std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
      std::optional<int64_t> step = getConstantIntValue(loop.getStep());
      std::optional<int64_t> trips = constantTripCount(
          loop.getLowerBound(), loop.getUpperBound(), loop.getStep());
      if (!lb || !step || !trips)
        continue;
      bool marked = loop->hasAttr(npcc::hls::kUnrollAttr);
      if (!marked && (*trips > 64 || receives(loop)))
        continue;
      // The planted bug: np-unroll makes `*trips` copies.
      int64_t copies = marked && *trips > 0 ? *trips - 1 : *trips;
      guardExits(loop);
      unrollFull(loop, *lb, *step, copies, made);
    }
    if (made.empty())
      return;
    GreedyRewriteConfig config;
    config.strictMode = GreedyRewriteStrictness::ExistingAndNewOps;
    SmallVector<Operation *> ops;
    for (Operation *op : made)
      op->walk([&](Operation *nested) { ops.push_back(nested); });
    (void)applyOpPatternsAndFold(ops, FrozenRewritePatternSet(), config);
  }

  static bool receives(scf::ForOp loop) {
    return loop.getBody()
        ->walk([](Operation *op) {
          return isa<RecvOp, TryRecvOp, DeviceRecvOp>(op)
                     ? WalkResult::interrupt()
                     : WalkResult::advance();
        })
        .wasInterrupted();
  }
};

} // namespace

void npcc::test::registerTestUnrollOffByOne() {
  PassRegistration<TestUnrollOffByOne>();
}
