//===- MakeStateExplicit.cpp - state through !np.self ---------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dialects/NP/Transforms/Passes.h"

#include "dialects/NP/IR/NPOps.h"

#include "mlir/IR/Builders.h"

namespace npcc::np {
#define GEN_PASS_DEF_MAKESTATEEXPLICIT
#include "dialects/NP/Transforms/Passes.h.inc"
} // namespace npcc::np

using namespace mlir;
using namespace npcc::np;

namespace {

/// Gives `body` its `!np.self` argument and routes its state_refs through it.
void makeExplicit(Operation *body) {
  Block &block = body->getRegion(0).front();
  Type selfType = SelfType::get(body->getContext());
  if (block.getNumArguments() == 0 ||
      !isa<SelfType>(block.getArgument(0).getType()))
    block.insertArgument(0u, selfType, body->getLoc());
  Value self = block.getArgument(0);
  OpBuilder b(body->getContext());
  body->walk([&](StateRefOp ref) {
    b.setInsertionPoint(ref);
    auto field = b.create<StateFieldOp>(ref.getLoc(), ref.getType(), self,
                                        ref.getStateAttr());
    ref.replaceAllUsesWith(field.getResult());
    ref.erase();
  });
}

struct MakeStateExplicitPass
    : npcc::np::impl::MakeStateExplicitBase<MakeStateExplicitPass> {
  void runOnOperation() override {
    for (auto element : getOperation().getOps<ElementOp>())
      for (Operation &op : *element.getBody())
        if (isa<InitOp, HandlerOp, PushOp, SignalOp, TimerOp, FiniOp,
                ControlOp>(op))
          makeExplicit(&op);
  }
};

} // namespace
