//===- CostTable.cpp - cycles of one C operation on an NPU core -----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Where the numbers come from: one cycle per ALU operation, compare,
// branch and load/store issue is the single-issue pipeline of the MIPS
// R3000 the modular-NPU paper simulates and of the NFP microengine; its
// multiply takes 12 cycles on the R3000 (an NFP microengine does one in a
// few multiply-step instructions: 4 here, between the two), and neither
// divides in hardware (35 cycles, the R3000's divider; a software divide on
// an NFP is longer). A call or return costs its jump and the argument
// moves. Moves and casts that only rename a register are free. A runtime
// call's own work (a send, a receive, a clone) is charged
// by the runtime, from the configuration's [costs].
//
//===----------------------------------------------------------------------===//

#include "targets/c/CostTable.h"

#include "mlir/Dialect/EmitC/IR/EmitC.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace npcc::c;

namespace {
constexpr OpCost kAlu{1, 1};
constexpr OpCost kMul{4, 1};
constexpr OpCost kDiv{35, 1};
constexpr OpCost kFree{0, 0};
} // namespace

OpCost npcc::c::costOf(Operation *op) {
  return llvm::TypeSwitch<Operation *, OpCost>(op)
      .Case<emitc::AddOp, emitc::SubOp, emitc::BitwiseAndOp, emitc::BitwiseOrOp,
            emitc::BitwiseXorOp, emitc::BitwiseNotOp, emitc::BitwiseLeftShiftOp,
            emitc::BitwiseRightShiftOp, emitc::LogicalAndOp, emitc::LogicalOrOp,
            emitc::LogicalNotOp, emitc::UnaryMinusOp, emitc::UnaryPlusOp,
            emitc::CmpOp, emitc::ConditionalOp>(
          [](Operation *) { return kAlu; })
      // An assignment is a register move the compiler folds into the
      // instruction that made the value (a store is its subscript's).
      .Case<emitc::AssignOp>([](Operation *) { return kFree; })
      // A cast between integers of one width only renames the register;
      // one that changes the width masks or sign-extends.
      .Case<emitc::CastOp>([](emitc::CastOp cast) {
        auto width = [](Type t) {
          if (auto i = dyn_cast<IntegerType>(t))
            return i.getWidth();
          return 64u; // size_t, pointers, opaque types: a register
        };
        return width(cast.getSource().getType()) == width(cast.getType())
                   ? kFree
                   : kAlu;
      })
      .Case<emitc::MulOp>([](Operation *) { return kMul; })
      .Case<emitc::DivOp, emitc::RemOp>([](Operation *) { return kDiv; })
      // An element of an array: its load or store instruction (the memory
      // it reaches is charged when it runs).
      .Case<emitc::SubscriptOp>([](Operation *) { return kAlu; })
      // The branch of an if; a loop's compare, increment and branch are
      // charged to its body, once an iteration.
      .Case<emitc::IfOp>([](Operation *) { return kAlu; })
      .Case<emitc::ForOp>([](Operation *) { return OpCost{2, 2}; })
      .Case<emitc::CallOp, emitc::CallOpaqueOp>([](Operation *call) {
        unsigned args = call->getNumOperands();
        return OpCost{2 + args, 2 + args};
      })
      .Case<emitc::ReturnOp>([](Operation *) { return OpCost{2, 1}; })
      .Case<emitc::ExpressionOp>([](emitc::ExpressionOp e) {
        OpCost sum;
        for (Operation &inner : e.getBodyRegion().front()) {
          OpCost c = costOf(&inner);
          sum.cycles += c.cycles;
          sum.instrs += c.instrs;
        }
        return sum;
      })
      .Default([](Operation *) { return kFree; });
}
