//===- AnnotateCosts.cpp - c-annotate-costs -------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The cost annotations npsim runs on (docs/npsim.md, "Cost annotations"):
// every basic block of the emitted C starts with
// NPRT_SIM_BLOCK(cycles, code_offset, code_bytes), its static cost from
// the per-operation table (CostTable.h) and where its code lies, and every
// access to an element's state or shared state is preceded by
// NPRT_SIM_RD(x) or NPRT_SIM_WR(x), x the very element the next statement
// reads or writes. nprt.h defines them to nothing unless NPRT_SIM is
// defined: the native executable is the same code.
//
//===----------------------------------------------------------------------===//

#include "targets/c/CostTable.h"
#include "targets/c/Passes.h"

#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/IR/Builders.h"

namespace npcc::c {
#define GEN_PASS_DEF_ANNOTATECOSTS
#include "targets/c/Passes.h.inc"
} // namespace npcc::c

using namespace mlir;
using namespace npcc;

namespace {

/// Whether `v` is an element of a state object's member: an
/// emitc.subscript of an emitc.member_of_ptr (the state and shared objects
/// are the only structs the C target reaches through a pointer).
bool isStateElement(emitc::SubscriptOp sub) {
  Value base = sub.getValue();
  while (auto inner = base.getDefiningOp<emitc::SubscriptOp>())
    base = inner.getValue();
  return base.getDefiningOp<emitc::MemberOfPtrOp>() != nullptr;
}

bool isWritten(emitc::SubscriptOp sub) {
  for (Operation *user : sub->getUsers())
    if (auto assign = dyn_cast<emitc::AssignOp>(user))
      if (assign.getVar() == sub.getResult())
        return true;
  return false;
}

struct AnnotateCostsPass : npcc::c::impl::AnnotateCostsBase<AnnotateCostsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    uint64_t codeOffset = 0;
    for (auto fn : module.getOps<emitc::FuncOp>()) {
      // main() only hands the program to the runtime.
      if (fn.getSymName() == "main" || fn.isExternal())
        continue;
      SmallVector<Block *> blocks;
      // An expression's ops are one C expression: its block is not a
      // basic block (costOf charges them to the one it stands in).
      fn->walk([&](Block *b) {
        if (!b->getParentOp()->getParentOfType<emitc::ExpressionOp>() &&
            !isa<emitc::ExpressionOp>(b->getParentOp()))
          blocks.push_back(b);
      });
      for (Block *b : blocks)
        annotate(b, codeOffset);
    }
  }

  void annotate(Block *b, uint64_t &codeOffset) {
    OpBuilder builder(b->getParentOp()->getContext());
    MLIRContext *ctx = builder.getContext();
    c::OpCost sum;
    // A loop's compare, increment and branch, once an iteration.
    if (isa<emitc::ForOp>(b->getParentOp())) {
      sum.cycles += 2;
      sum.instrs += 2;
    }
    SmallVector<emitc::SubscriptOp> accesses;
    for (Operation &op : *b) {
      c::OpCost c = c::costOf(&op);
      sum.cycles += c.cycles;
      sum.instrs += c.instrs;
      if (auto sub = dyn_cast<emitc::SubscriptOp>(op))
        if (isStateElement(sub) &&
            !isa<emitc::SubscriptOp>(*sub->getUsers().begin()))
          accesses.push_back(sub);
    }
    for (emitc::SubscriptOp sub : accesses) {
      // Before the statement that reads or writes it, and after the
      // values its index needs.
      Operation *first = *sub->getUsers().begin();
      for (Operation *u : sub->getUsers())
        if (u->getBlock() == b && u->isBeforeInBlock(first))
          first = u;
      builder.setInsertionPoint(first->getBlock() == b ? first
                                                       : b->getTerminator());
      builder.create<emitc::CallOpaqueOp>(
          sub.getLoc(), TypeRange(),
          builder.getStringAttr(isWritten(sub) ? "NPRT_SIM_WR" : "NPRT_SIM_RD"),
          ValueRange{sub.getResult()}, ArrayAttr(), ArrayAttr());
    }
    if (sum.cycles == 0)
      return;
    unsigned bytes = sum.instrs * c::kInstrBytes;
    builder.setInsertionPointToStart(b);
    SmallVector<Attribute> args = {
        emitc::OpaqueAttr::get(ctx, std::to_string(sum.cycles) + "u"),
        emitc::OpaqueAttr::get(ctx, std::to_string(codeOffset) + "u"),
        emitc::OpaqueAttr::get(ctx, std::to_string(bytes) + "u")};
    builder.create<emitc::CallOpaqueOp>(
        b->getParentOp()->getLoc(), TypeRange(),
        builder.getStringAttr("NPRT_SIM_BLOCK"), ValueRange(),
        builder.getArrayAttr(args), ArrayAttr());
    codeOffset += bytes;
  }
};

} // namespace
