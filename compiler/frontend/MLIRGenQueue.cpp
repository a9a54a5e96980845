//===- MLIRGenQueue.cpp - packet queues in element state ------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// enqueue, if let ... dequeue, len of a queue, and the drain at fini.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/BodyGen.h"

#include "dialects/NP/IR/NPOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace npcc;
using namespace npcc::ast;
namespace np = npcc::np;
using mlir::Value;

//===----------------------------------------------------------------------===//
// Packet queues: a state memref of N + 2 words, the packets' words in a
// ring, then the head and the count.
//===----------------------------------------------------------------------===//

namespace {
struct QueueRefs {
  Value mem, n, head, count, headAt, countAt;
};
} // namespace

static QueueRefs queueRefs(mlir::OpBuilder &b, mlir::Location l, Value mem,
                           uint64_t n) {
  QueueRefs q;
  q.mem = mem;
  q.n = b.create<mlir::arith::ConstantIntOp>(l, (int64_t)n, 64);
  q.headAt = b.create<mlir::arith::ConstantIndexOp>(l, (int64_t)n);
  q.countAt = b.create<mlir::arith::ConstantIndexOp>(l, (int64_t)n + 1);
  q.head = b.create<mlir::memref::LoadOp>(l, mem, mlir::ValueRange{q.headAt});
  q.count = b.create<mlir::memref::LoadOp>(l, mem, mlir::ValueRange{q.countAt});
  return q;
}

/// (a + c) % n as an index into the ring.
static Value ringSlot(mlir::OpBuilder &b, mlir::Location l, Value a, Value c,
                      Value n) {
  Value sum = b.create<mlir::arith::AddIOp>(l, a, c);
  Value slot = b.create<mlir::arith::RemUIOp>(l, sum, n);
  return b.create<mlir::arith::IndexCastUIOp>(l, b.getIndexType(), slot);
}

Value BodyGen::genEnqueue(const Expr &e) {
  mlir::Location l = loc(e.loc);
  Binding *bd = lookup(e.args[0]->text);
  Value p = gen(*e.args[1]);
  QueueRefs q = queueRefs(b, l, stateRef(bd->state), bd->ty.len);
  Value room = b.create<mlir::arith::CmpIOp>(l, mlir::arith::CmpIPredicate::ult,
                                             q.count, q.n);
  auto ifOp = b.create<mlir::scf::IfOp>(l, mlir::TypeRange{b.getI1Type()}, room,
                                        /*withElse=*/true);
  mlir::OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  Value slot = ringSlot(b, l, q.head, q.count, q.n);
  b.create<mlir::memref::StoreOp>(
      l, b.create<np::PktToWordOp>(l, b.getI64Type(), p), q.mem,
      mlir::ValueRange{slot});
  Value one = constInt(l, b.getI64Type(), 1);
  b.create<mlir::memref::StoreOp>(
      l, b.create<mlir::arith::AddIOp>(l, q.count, one), q.mem,
      mlir::ValueRange{q.countAt});
  b.create<mlir::scf::YieldOp>(l, constInt(l, b.getI1Type(), 1));
  // Full: the packet is dropped, and counted, like a Queue's tail drop.
  b.setInsertionPointToStart(&ifOp.getElseRegion().front());
  b.create<np::DropOp>(l, p);
  b.create<mlir::scf::YieldOp>(l, constInt(l, b.getI1Type(), 0));
  return ifOp.getResult(0);
}

void BodyGen::genDequeue(const Stmt &s) {
  mlir::Location l = loc(s.loc);
  Binding *bd = lookup(s.init->args[0]->text);
  QueueRefs q = queueRefs(b, l, stateRef(bd->state), bd->ty.len);
  Value zero = constInt(l, b.getI64Type(), 0);
  Value some = b.create<mlir::arith::CmpIOp>(l, mlir::arith::CmpIPredicate::ne,
                                             q.count, zero);
  auto ifOp = b.create<mlir::scf::IfOp>(l, some, !s.elseBody.empty());
  mlir::OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  Value at = b.create<mlir::arith::IndexCastUIOp>(l, b.getIndexType(), q.head);
  Value word = b.create<mlir::memref::LoadOp>(l, q.mem, mlir::ValueRange{at});
  Value one = constInt(l, b.getI64Type(), 1);
  Value next = b.create<mlir::arith::RemUIOp>(
      l, b.create<mlir::arith::AddIOp>(l, q.head, one), q.n);
  b.create<mlir::memref::StoreOp>(l, next, q.mem, mlir::ValueRange{q.headAt});
  b.create<mlir::memref::StoreOp>(
      l, b.create<mlir::arith::SubIOp>(l, q.count, one), q.mem,
      mlir::ValueRange{q.countAt});
  genIfLetArms(s, ifOp, Ty::of(Ty::Pkt),
               b.create<np::WordToPktOp>(l, np::PacketType::get(ctx), word));
}

void BodyGen::genIfLetArms(const Stmt &s, mlir::scf::IfOp ifOp, const Ty &ty,
                           Value bound) {
  Binding bd;
  bd.ty = ty;
  bd.value = bound;
  genIfLetArms(s, ifOp, bd);
}

void BodyGen::genIfLetArms(const Stmt &s, mlir::scf::IfOp ifOp,
                           const Binding &bd) {
  scopes.emplace_back();
  scopes.back()[s.name] = bd;
  genBlock(s.body);
  scopes.pop_back();
  if (!s.elseBody.empty()) {
    b.setInsertionPointToStart(&ifOp.getElseRegion().front());
    genBlock(s.elseBody);
  }
}

Value BodyGen::queueLength(const Expr &q) {
  mlir::Location l = loc(q.loc);
  Binding *bd = lookup(q.text);
  QueueRefs r = queueRefs(b, l, stateRef(bd->state), bd->ty.len);
  return b.create<mlir::arith::TruncIOp>(l, b.getI32Type(), r.count);
}

void BodyGen::emitQueueDrain(mlir::Location l, const std::string &name,
                             uint64_t n) {
  QueueRefs q = queueRefs(b, l, stateRef(name), n);
  auto forOp = b.create<mlir::scf::ForOp>(
      l, b.create<mlir::arith::ConstantIndexOp>(l, 0),
      b.create<mlir::arith::ConstantIndexOp>(l, (int64_t)n),
      b.create<mlir::arith::ConstantIndexOp>(l, 1));
  {
    mlir::OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(forOp.getBody());
    Value k = b.create<mlir::arith::IndexCastUIOp>(l, b.getI64Type(),
                                                   forOp.getInductionVar());
    Value held = b.create<mlir::arith::CmpIOp>(
        l, mlir::arith::CmpIPredicate::ult, k, q.count);
    auto ifOp = b.create<mlir::scf::IfOp>(l, held, /*withElse=*/false);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    Value slot = ringSlot(b, l, q.head, k, q.n);
    Value word =
        b.create<mlir::memref::LoadOp>(l, q.mem, mlir::ValueRange{slot});
    b.create<np::DropOp>(
        l, b.create<np::WordToPktOp>(l, np::PacketType::get(ctx), word));
  }
  b.create<mlir::memref::StoreOp>(l, constInt(l, b.getI64Type(), 0), q.mem,
                                  mlir::ValueRange{q.countAt});
}
