//===- SpeculateOptionFlags.cpp - split a program on option flags ---------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The pass's contract is in Passes.td. Everything here is a rewrite that
// keeps the program's decision: the `or`s of failure conditions are split,
// the checks and answer that depend on the chosen flag tests are moved
// into `otherwise` unchanged, and `assumed` is a folded copy of them.
//
//===----------------------------------------------------------------------===//

#include "dialects/Match/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/CommandLine.h"

namespace npcc::match {
#define GEN_PASS_DEF_SPECULATEOPTIONFLAGS
#include "dialects/Match/Transforms/Passes.h.inc"
} // namespace npcc::match

using namespace mlir;
using namespace npcc;
using namespace npcc::match;

static bool constantInt(Value v, uint64_t &c) {
  auto op = v.getDefiningOp<arith::ConstantOp>();
  auto attr = op ? dyn_cast<IntegerAttr>(op.getValue()) : IntegerAttr();
  if (!attr)
    return false;
  c = attr.getValue().getZExtValue();
  return true;
}

bool npcc::match::isItemFlagTest(Value v, Value &field, uint64_t &bits) {
  auto cmp = v.getDefiningOp<arith::CmpIOp>();
  if (!cmp || (cmp.getPredicate() != arith::CmpIPredicate::eq &&
               cmp.getPredicate() != arith::CmpIPredicate::ne))
    return false;
  uint64_t zero;
  if (!constantInt(cmp.getRhs(), zero) || zero != 0)
    return false;
  auto andOp = cmp.getLhs().getDefiningOp<arith::AndIOp>();
  if (!andOp || !constantInt(andOp.getRhs(), bits))
    return false;
  auto f = andOp.getLhs().getDefiningOp<FieldOp>();
  if (!f || !f.getWord().getDefiningOp<ItemWordOp>())
    return false;
  field = f;
  return true;
}

void npcc::match::appendFailureTerms(Value cond, std::vector<Value> &terms) {
  if (auto orOp = cond.getDefiningOp<arith::OrIOp>()) {
    appendFailureTerms(orOp.getLhs(), terms);
    appendFailureTerms(orOp.getRhs(), terms);
    return;
  }
  terms.push_back(cond);
}

std::vector<Value> npcc::match::failureTerms(Block &block) {
  std::vector<Value> terms;
  for (auto f : block.getOps<FailIfOp>())
    appendFailureTerms(f.getCond(), terms);
  return terms;
}

void npcc::match::addCone(Value v, llvm::SmallPtrSetImpl<Operation *> &seen) {
  Operation *def = v ? v.getDefiningOp() : nullptr;
  if (!def || !seen.insert(def).second)
    return;
  for (Value o : def->getOperands())
    addCone(o, seen);
}

bool npcc::match::isArithmetic(Operation *op) {
  if (isa<arith::AddIOp, arith::SubIOp, arith::SelectOp>(op))
    return true;
  if (auto cmp = dyn_cast<arith::CmpIOp>(op))
    return cmp.getPredicate() != arith::CmpIPredicate::eq &&
           cmp.getPredicate() != arith::CmpIPredicate::ne;
  return false;
}

namespace {

/// A deliberate miscompile for testing --check-each-pass
/// (test/targets/interp/match-interp.test): the assumed region takes every
/// speculated flag as set instead of clear.
llvm::cl::opt<bool> debugBreakSpeculation(
    "debug-break-speculation", llvm::cl::Hidden,
    llvm::cl::desc("Assume the wrong value of the speculated option flags"));

/// `fail_if (a | b)` becomes `fail_if a; fail_if b`, recursively, in place.
void splitOrs(Block &body) {
  for (auto fail : llvm::make_early_inc_range(body.getOps<FailIfOp>())) {
    std::vector<Value> terms;
    appendFailureTerms(fail.getCond(), terms);
    if (terms.size() == 1)
      continue;
    OpBuilder b(fail);
    for (Value t : terms)
      b.create<FailIfOp>(fail.getLoc(), t);
    fail.erase();
  }
}

struct SpeculateOptionFlagsPass
    : match::impl::SpeculateOptionFlagsBase<SpeculateOptionFlagsPass> {
  void runOnOperation() override {
    for (auto program : getOperation().getOps<ProgramOp>())
      if (failed(speculate(program)))
        return signalPassFailure();
  }

  LogicalResult speculate(ProgramOp program);
};

LogicalResult SpeculateOptionFlagsPass::speculate(ProgramOp program) {
  Block &body = program.getBody().front();
  auto accept = dyn_cast<AcceptOp>(body.back());
  if (!accept)
    return success(); // already speculated
  splitOrs(body);
  SmallVector<FailIfOp> fails(body.getOps<FailIfOp>());

  // The answers and the checks with arithmetic may speculate; the checks
  // without arithmetic before the first one with it are tested first, for
  // every item, and keep their flags.
  llvm::SmallPtrSet<Operation *, 32> late, early;
  addCone(accept.getOffset(), late);
  addCone(accept.getLength(), late);
  bool arithmeticSeen = false;
  for (FailIfOp f : fails) {
    llvm::SmallPtrSet<Operation *, 32> cone;
    addCone(f.getCond(), cone);
    bool arith = llvm::any_of(cone, isArithmetic);
    arithmeticSeen |= arith;
    if (arith)
      late.insert(cone.begin(), cone.end());
    else if (!arithmeticSeen)
      early.insert(cone.begin(), cone.end());
  }
  Value flagField;
  uint64_t flagBits = 0;
  llvm::SmallDenseMap<Value, bool> assume; // flag test -> its value
  for (Operation &op : body) {
    Value field;
    uint64_t bits;
    if (op.getNumResults() != 1 || !late.count(&op) || early.count(&op) ||
        !isItemFlagTest(op.getResult(0), field, bits))
      continue;
    if (flagField && field != flagField)
      return success(); // one ternary compare must test them all
    flagField = field;
    flagBits |= bits;
    assume[op.getResult(0)] =
        cast<arith::CmpIOp>(op).getPredicate() == arith::CmpIPredicate::eq;
  }
  if (!flagField || flagBits == 0)
    return success();

  // Everything computed from a speculated flag test.
  llvm::SmallPtrSet<Operation *, 32> dependent;
  for (Operation &op : body)
    if (llvm::any_of(op.getOperands(), [&](Value v) {
          return assume.count(v) ||
                 (v.getDefiningOp() && dependent.count(v.getDefiningOp()));
        }))
      dependent.insert(&op);
  SmallVector<Operation *> moved;
  for (FailIfOp f : fails)
    if (dependent.count(f))
      moved.push_back(f);
  moved.push_back(accept);

  // (x & M) == 0, then the two regions.
  OpBuilder b(accept);
  Location loc = accept.getLoc();
  Type fieldType = flagField.getType();
  Value mask =
      b.create<arith::ConstantOp>(loc, b.getIntegerAttr(fieldType, flagBits));
  Value zero = b.create<arith::ConstantOp>(loc, b.getIntegerAttr(fieldType, 0));
  Value masked = b.create<arith::AndIOp>(loc, flagField, mask);
  Value simple =
      b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, masked, zero);
  auto spec = b.create<SpeculateOp>(loc, simple);
  Block *assumed = b.createBlock(&spec.getAssumed());
  Block *otherwise = b.createBlock(&spec.getOtherwise());
  for (Operation *op : moved)
    op->moveBefore(otherwise, otherwise->end());

  // The assumed copy: flag tests are constants, what depends on them is
  // cloned in program order, the checks and the answer last.
  b.setInsertionPointToStart(assumed);
  IRMapping map;
  for (auto [test, value] : assume)
    map.map(test,
            b.create<arith::ConstantOp>(
                test.getLoc(), b.getBoolAttr(value != debugBreakSpeculation)));
  llvm::SmallPtrSet<Operation *, 32> needed;
  for (Operation *op : moved)
    for (Value v : op->getOperands())
      addCone(v, needed);
  for (Operation &op : body)
    if (&op != spec && dependent.count(&op) && needed.count(&op))
      b.clone(op, map);
  for (Operation *op : moved)
    b.clone(*op, map);

  // Fold the copy: selects on constants pick their operand, and so on.
  RewritePatternSet patterns(&getContext());
  for (RegisteredOperationName name : getContext().getRegisteredOperations())
    if (name.getDialectNamespace() == "arith")
      name.getCanonicalizationPatterns(patterns, &getContext());
  GreedyRewriteConfig config;
  config.scope = &spec.getAssumed();
  (void)applyPatternsAndFoldGreedily(spec.getAssumed(), std::move(patterns),
                                     config);
  // A check the assumption disables is gone.
  for (auto f : llvm::make_early_inc_range(assumed->getOps<FailIfOp>())) {
    uint64_t c;
    if (constantInt(f.getCond(), c) && c == 0)
      f.erase();
  }
  return success();
}

} // namespace
