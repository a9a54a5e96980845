//===- DelayWrite.cpp - forward a block RAM's last write ------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "targets/hls/Transforms/Passes.h"

#include "dialects/NP/IR/NPOps.h"
#include "targets/hls/Transforms/HLSMemory.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/MathExtras.h"

namespace npcc::hls {
#define GEN_PASS_DEF_DELAYWRITE
#include "targets/hls/Transforms/Passes.h.inc"
} // namespace npcc::hls

using namespace mlir;
using namespace npcc::np;
using namespace npcc::hls;

namespace {

/// The accesses of one state, by body.
struct Accesses {
  SmallVector<memref::LoadOp> loads;   // in packet-path bodies
  SmallVector<memref::StoreOp> stores; // in packet-path bodies
  SmallVector<memref::StoreOp> others; // stores in other bodies
  /// An op other than a load or store uses the state's memref.
  Operation *escape = nullptr;
};

/// The state an np.state_ref or np.state_field names, or null.
StringAttr stateOf(Operation *op) {
  if (auto ref = dyn_cast<StateRefOp>(op))
    return ref.getStateAttr().getAttr();
  if (auto field = dyn_cast<StateFieldOp>(op))
    return field.getStateAttr().getAttr();
  return {};
}

/// The body (np.handler, np.init, ...) `op` is in.
Operation *bodyOf(Operation *op) {
  while (!isa<ElementOp>(op->getParentOp()))
    op = op->getParentOp();
  return op;
}

/// The accesses of every state of `element`.
llvm::DenseMap<StringAttr, Accesses> collect(ElementOp element) {
  llvm::DenseMap<StringAttr, Accesses> all;
  element.walk([&](Operation *op) {
    StringAttr state = stateOf(op);
    if (!state)
      return;
    bool packetPath = isPacketPathBody(bodyOf(op));
    Accesses &a = all[state];
    for (OpOperand &use : op->getResult(0).getUses()) {
      Operation *user = use.getOwner();
      if (auto load = dyn_cast<memref::LoadOp>(user)) {
        if (packetPath)
          a.loads.push_back(load);
      } else if (auto store = dyn_cast<memref::StoreOp>(user);
                 store && use.getOperandNumber() == 1) {
        (packetPath ? a.stores : a.others).push_back(store);
      } else if (!a.escape) {
        a.escape = user;
      }
    }
  });
  return all;
}

struct DelayWrite : npcc::hls::impl::DelayWriteBase<DelayWrite> {
  using DelayWriteBase::DelayWriteBase;

  void runOnOperation() override {
    auto selected =
        selectHLSElements(getOperation(), elements, "np-delay-write");
    if (failed(selected))
      return signalPassFailure();
    for (ElementOp element : *selected)
      runOnElement(element);
  }

  void runOnElement(ElementOp element) {
    llvm::DenseMap<StringAttr, Accesses> all = collect(element);
    auto states = llvm::to_vector(element.getBody()->getOps<StateOp>());
    for (StateOp state : states) {
      StringAttr name = state.getSymNameAttr();
      auto it = all.find(name);
      if (it == all.end())
        continue;
      Accesses &a = it->second;
      if (hlsMemoryKind(state) != HLSMemoryKind::BlockRAM || a.loads.empty() ||
          a.stores.empty() || hasDelayedWrite(state))
        continue;
      if (state.getShared() || a.escape ||
          state.getMemRefType().getRank() != 1) {
        InFlightDiagnostic d = state.emitRemark()
                               << "last write of '" << name.getValue()
                               << "' not forwarded: ";
        if (state.getShared())
          d << "it is shared by the instances of '" << element.getSourceName()
            << "'";
        else if (a.escape)
          d << "'" << a.escape->getName() << "' uses it";
        else
          d << "it is not one-dimensional";
        continue;
      }
      forward(element, state, a);
      ++numDelayed;
    }
  }

  /// Adds the registers of `state` and rewrites its accesses `a`.
  void forward(ElementOp element, StateOp state, Accesses &a) {
    MLIRContext *ctx = &getContext();
    Location loc = state.getLoc();
    StringRef name = state.getSymName();
    MemRefType type = state.getMemRefType();
    Type idxType = IntegerType::get(
        ctx, std::max(1u, llvm::Log2_64_Ceil(type.getNumElements())));
    Type valType = type.getElementType();
    Type i1 = IntegerType::get(ctx, 1);
    OpBuilder b(state);
    b.setInsertionPointAfter(state);
    auto declare = [&](HLSForwardPart part, Type t) {
      auto reg = b.create<StateOp>(loc, hlsForwardStateName(name, part),
                                   MemRefType::get({1}, t));
      reg->setAttr(kHLSForwardOfAttr, b.getStringAttr(name));
      return reg;
    };
    StateOp regs[] = {declare(HLSForwardPart::Index, idxType),
                      declare(HLSForwardPart::Value, valType),
                      declare(HLSForwardPart::Valid, i1)};
    state->setAttr(kHLSDelayedWriteAttr, UnitAttr::get(ctx));

    // The three registers' memrefs at the start of `body`, once per body.
    DenseMap<Operation *, SmallVector<Value, 3>> refs;
    auto registersOf = [&](Operation *at) -> ArrayRef<Value> {
      Operation *body = bodyOf(at);
      auto &r = refs[body];
      if (r.empty()) {
        Block &block = body->getRegion(0).front();
        OpBuilder rb = OpBuilder::atBlockBegin(&block);
        Value self;
        if (block.getNumArguments() &&
            isa<SelfType>(block.getArgument(0).getType()))
          self = block.getArgument(0);
        for (StateOp reg : regs) {
          auto t = reg.getMemRefType();
          auto sym = FlatSymbolRefAttr::get(reg.getSymNameAttr());
          r.push_back(
              self ? rb.create<StateFieldOp>(loc, t, self, sym).getResult()
                   : rb.create<StateRefOp>(loc, t, sym).getResult());
        }
      }
      return r;
    };

    for (memref::StoreOp store : a.stores) {
      ArrayRef<Value> r = registersOf(store);
      b.setInsertionPointAfter(store);
      Location l = store.getLoc();
      Value zero = b.create<arith::ConstantIndexOp>(l, 0);
      Value idx =
          b.create<arith::IndexCastUIOp>(l, idxType, store.getIndices()[0]);
      b.create<memref::StoreOp>(l, idx, r[0], zero);
      b.create<memref::StoreOp>(l, store.getValueToStore(), r[1], zero);
      Value valid = b.create<arith::ConstantIntOp>(l, 1, 1);
      b.create<memref::StoreOp>(l, valid, r[2], zero);
    }
    for (memref::LoadOp load : a.loads) {
      ArrayRef<Value> r = registersOf(load);
      b.setInsertionPointAfter(load);
      Location l = load.getLoc();
      Value zero = b.create<arith::ConstantIndexOp>(l, 0);
      Value valid = b.create<memref::LoadOp>(l, r[2], zero);
      Value last = b.create<memref::LoadOp>(l, r[0], zero);
      Value held = b.create<memref::LoadOp>(l, r[1], zero);
      Value idx =
          b.create<arith::IndexCastUIOp>(l, idxType, load.getIndices()[0]);
      Value same =
          b.create<arith::CmpIOp>(l, arith::CmpIPredicate::eq, idx, last);
      Value hit = b.create<arith::AndIOp>(l, valid, same);
      auto value = b.create<arith::SelectOp>(l, hit, held, load.getResult());
      load.getResult().replaceAllUsesExcept(value, value);
    }
    for (memref::StoreOp store : a.others) {
      ArrayRef<Value> r = registersOf(store);
      b.setInsertionPointAfter(store);
      Location l = store.getLoc();
      Value zero = b.create<arith::ConstantIndexOp>(l, 0);
      Value invalid = b.create<arith::ConstantIntOp>(l, 0, 1);
      b.create<memref::StoreOp>(l, invalid, r[2], zero);
    }
    state.emitRemark() << "forwarding the last write of '" << name
                       << "' through a register (" << a.loads.size()
                       << (a.loads.size() == 1 ? " load, " : " loads, ")
                       << a.stores.size()
                       << (a.stores.size() == 1 ? " store)" : " stores)");
  }
};

} // namespace
