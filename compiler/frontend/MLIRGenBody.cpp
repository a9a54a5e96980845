//===- MLIRGenBody.cpp - element bodies to np + arith/scf/memref ----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Mutable variables and state live in memrefs (scalars as memref<1xT>) so
// that upstream memref lowerings apply to every target. `return` is lowered
// to a flag that guards the statements after it, which keeps the bodies in
// structured control flow (scf), the only form EmitC 19 prints without
// declaring all variables at the top.
//
// Defined behaviour everywhere: x / 0 == 0, x % 0 == 0, the most negative
// value divided by -1 wraps, array reads out of range give 0 and writes out
// of range are ignored, so that the C and HLS targets and the reference
// interpreter agree on every input.
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

mlir::Type npcc::toMLIRType(mlir::MLIRContext *ctx, const Ty &t) {
  switch (t.kind) {
  case Ty::Bool:
    return mlir::IntegerType::get(ctx, 1);
  case Ty::Int:
    return mlir::IntegerType::get(ctx, t.width);
  case Ty::IntLit:
  case Ty::Prefix:
    return mlir::IntegerType::get(ctx, 64);
  case Ty::Pkt:
    return np::PacketType::get(ctx);
  default:
    return mlir::NoneType::get(ctx);
  }
}

bool BodyGen::mayReturn(const Stmt &s) {
  switch (s.kind) {
  case Stmt::Return:
    return true;
  case Stmt::If:
  case Stmt::IfLet:
    return mayReturn(s.body) || mayReturn(s.elseBody);
  case Stmt::For:
  case Stmt::Unroll:
  case Stmt::While:
  case Stmt::Nested:
    return mayReturn(s.body);
  case Stmt::Select:
    for (const SelectCase &c : s.cases)
      if (mayReturn(c.body))
        return true;
    return false;
  default:
    return false;
  }
}

bool BodyGen::exitsLoop(const Stmt &s, Stmt::Kind which) {
  switch (s.kind) {
  case Stmt::Break:
  case Stmt::Continue:
    return s.kind == which;
  case Stmt::If:
  case Stmt::IfLet:
    return exitsLoop(s.body, which) || exitsLoop(s.elseBody, which);
  case Stmt::Nested:
    return exitsLoop(s.body, which);
  case Stmt::Select:
    for (const SelectCase &c : s.cases)
      if (exitsLoop(c.body, which))
        return true;
    return false;
  default: // a nested loop's break and continue are its own
    return false;
  }
}

Value BodyGen::exitFlagsSet(mlir::Location l) {
  Value any;
  auto add = [&](Value flag) {
    if (!flag)
      return;
    Value v = loadScalar(flag);
    any = any ? (Value)b.create<mlir::arith::OrIOp>(l, any, v) : v;
  };
  add(returnFlag);
  if (!loops.empty()) {
    add(loops.back().broken);
    add(loops.back().continued);
  }
  return any;
}

//===----------------------------------------------------------------------===//
// Element structure
//===----------------------------------------------------------------------===//

bool BodyGen::emit(np::ElementOp element) {
  errorsAtStart = sema.errorCount();
  const ElementDecl &e = *spec.decl;
  b.setInsertionPointToStart(&element.getBodyRegion().front());
  for (auto &p : spec.ports)
    b.create<np::PortOp>(loc(p.decl->loc), p.name,
                         p.isInput ? np::PortDirection::In
                                   : np::PortDirection::Out,
                         toMLIRType(ctx, p.elem));
  scopes.emplace_back();
  for (auto &[name, value] : spec.env) {
    Binding bd;
    bd.kind = Binding::Const;
    bd.cval = value;
    scopes.back()[name] = bd;
  }
  std::vector<std::pair<std::string, uint64_t>> queues;
  for (const StateVar &v : e.state) {
    Ty t = sema.resolve(*v.type, false);
    uint64_t len = 1;
    Ty elem = t;
    if (t.kind == Ty::Queue || t.kind == Ty::Lpm || t.kind == Ty::Hash) {
      // A container is one i64 memref: a queue holds packets as words in a
      // ring (slots 0..N-1, then the head and the count); a table is
      // np.table's slot and libnprt's region.
      bool queue = t.kind == Ty::Queue;
      auto n =
          ce.eval(*v.type->size, queue ? "queue capacity" : "table capacity");
      if (!n)
        continue;
      if (n->i == 0 || n->i > (1u << 20)) {
        sema.error(v.type->size->loc) << (queue ? "queue" : "table")
                                      << " capacity must be 1.." << (1u << 20);
        continue;
      }
      uint64_t words = n->i + 2;
      if (!queue) {
        auto kind =
            t.kind == Ty::Lpm ? np::TableKind::Lpm : np::TableKind::Hash;
        unsigned kw = t.kind == Ty::Lpm ? 1 : sema.tableWords(*t.key);
        unsigned vw = t.kind == Ty::Lpm ? 1 : sema.tableWords(*t.elem);
        words = np::TableOp::slotWords(kind, kw, vw) +
                np::TableOp::regionWords(kind, n->i, kw, vw);
      }
      auto mt = mlir::MemRefType::get({(int64_t)words}, b.getI64Type());
      b.create<np::StateOp>(loc(v.loc), v.name, mt, nullptr);
      Binding bd;
      bd.kind = Binding::State;
      bd.ty = t;
      bd.ty.len = n->i;
      bd.state = v.name;
      scopes.back()[v.name] = bd;
      if (queue)
        queues.push_back({v.name, n->i});
      continue;
    }
    if (t.kind == Ty::Array) {
      auto n = ce.eval(*v.type->size, "array size");
      if (!n)
        continue;
      if (n->i == 0 || n->i > (1u << 24)) {
        sema.error(v.type->size->loc) << "array size must be 1.." << (1u << 24);
        continue;
      }
      len = n->i;
      elem = *t.elem;
      t.len = len;
    }
    Binding bd;
    bd.kind = Binding::State;
    bd.ty = t;
    bd.state = v.name;
    np::StateOp lastState;
    auto declare = [&](const std::string &sym, const Ty &et,
                       mlir::ElementsAttr init) {
      auto mt = mlir::MemRefType::get({(int64_t)len}, toMLIRType(ctx, et));
      auto op = b.create<np::StateOp>(loc(v.loc), sym, mt, init, v.shared);
      lastState = op;
      if (!v.merge.empty()) {
        // max and min compare as the declared type does.
        std::string m = v.merge;
        if (m == "max" || m == "min")
          m = (et.isSigned ? "s" : "u") + m;
        op.setMerge(m);
      }
    };
    if (elem.kind == Ty::Record) {
      // One array per field, as ClickNP does; the fields of an array of
      // structs name the array (the HLS target keeps them in one memory).
      for (const Field &f : elem.record->fields) {
        declare(v.name + "." + f.name, sema.resolve(*f.type, false), nullptr);
        if (t.kind == Ty::Array)
          lastState->setAttr(np::kStructArrayAttr, b.getStringAttr(v.name));
      }
    } else {
      mlir::ElementsAttr init;
      if (v.init) {
        auto c = ce.eval(*v.init, "state initialiser");
        if (!c)
          continue;
        auto et = toMLIRType(ctx, elem);
        auto st = mlir::RankedTensorType::get({(int64_t)len}, et);
        llvm::SmallVector<mlir::APInt> vals;
        unsigned w = et.getIntOrFloatBitWidth();
        if (c->kind == CValue::List) {
          if (c->list.size() != len) {
            sema.error(v.init->loc) << "initialiser has " << c->list.size()
                                    << " elements, the array " << len;
            continue;
          }
          for (auto &x : c->list)
            vals.push_back(mlir::APInt(w, x.i, /*isSigned=*/false));
        } else {
          vals.assign(len, mlir::APInt(w, c->i, false));
        }
        init = mlir::DenseElementsAttr::get(st, vals);
      }
      declare(v.name, elem, init);
    }
    scopes.back()[v.name] = bd;
  }
  // Bodies use the state as declared: after an error in it there is
  // nothing sound to generate them against.
  if (failed())
    return false;
  if (e.hasInit) {
    auto op = b.create<np::InitOp>(loc(e.initLoc));
    emitBody(op.getBodyRegion(), e.init);
  }
  if (e.hasHandler) {
    auto op = b.create<np::HandlerOp>(loc(e.handlerLoc));
    emitBody(op.getBodyRegion(), e.handler);
  }
  if (e.hasSignal) {
    auto op = b.create<np::SignalOp>(loc(e.signalLoc));
    scopes.emplace_back();
    Binding bd;
    Ty t = sema.resolve(*e.signalType, false);
    bd.ty = t;
    mlir::BlockArgument arg = op.getBodyRegion().front().getArgument(0);
    emitBody(op.getBodyRegion(), e.signal, arg);
    scopes.pop_back();
  }
  if (!queues.empty()) {
    // At the end of the run, the packets still queued are dropped, and so
    // counted, by the instance.
    auto op = b.create<np::FiniOp>(loc(e.loc));
    mlir::OpBuilder::InsertionGuard g(b);
    b.setInsertionPoint(op.getBodyRegion().front().getTerminator());
    for (auto &[name, n] : queues)
      emitQueueDrain(loc(e.loc), name, n);
  }
  for (const ast::ControlDecl &c : e.controls)
    emitControl(c);
  if (e.hasTimer) {
    auto period = ce.eval(*e.timerPeriod, "timer period");
    if (period && period->i == 0)
      sema.error(e.timerPeriod->loc) << "a timer period is at least 1ns";
    if (period && period->i != 0 && period->i <= (uint64_t)INT64_MAX) {
      auto op = b.create<np::TimerOp>(loc(e.timerLoc), (int64_t)period->i);
      emitBody(op.getBodyRegion(), e.timer);
    }
  }
  return !failed();
}

/// The runtime's value kind (NPRT_VAL_*) of a handler parameter or result.
static uint32_t valueKind(const Ty &t) {
  if (t.kind == Ty::Bool)
    return 0x200;
  if (t.kind == Ty::Prefix)
    return 0x300;
  return t.width | (t.isSigned ? 0x100 : 0);
}

/// A read or write handler: its parameters come from np.handler_arg, a
/// read handler's `return e` fills a slot np.handler_result reads at the
/// end.
void BodyGen::emitControl(const ast::ControlDecl &c) {
  llvm::SmallVector<int32_t> kinds;
  llvm::SmallVector<int64_t> defaults;
  std::vector<Ty> types;
  for (const ast::Param &p : c.params) {
    Ty t = sema.resolve(*p.type, false);
    types.push_back(t);
    uint32_t k = valueKind(t);
    int64_t d = 0;
    if (p.defaultValue) {
      if (auto v =
              ConstEval(sema, Env()).eval(*p.defaultValue, "default value"))
        d = (int64_t)v->i;
      k |= 0x1000;
    }
    kinds.push_back((int32_t)k);
    defaults.push_back(d);
  }
  Ty rt = c.isWrite ? Ty() : sema.resolve(*c.result, false);
  auto op =
      b.create<np::ControlOp>(loc(c.loc), c.name, c.isWrite,
                              c.isWrite ? 0 : valueKind(rt), kinds, defaults);
  mlir::OpBuilder::InsertionGuard guard(b);
  mlir::Block &block = op.getBodyRegion().front();
  b.setInsertionPoint(block.getTerminator());
  scopes.emplace_back();
  for (size_t k = 0; k < c.params.size(); ++k) {
    Binding bd;
    bd.ty = types[k];
    bd.value = b.create<np::HandlerArgOp>(
        loc(c.params[k].loc), toMLIRType(ctx, types[k]), (int32_t)k);
    scopes.back()[c.params[k].name] = bd;
  }
  Value savedSlot = resultSlot;
  resultSlot = c.isWrite ? Value() : allocLocal(rt, 1);
  emitBody(op.getBodyRegion(), c.body);
  if (!c.isWrite) {
    b.setInsertionPoint(block.getTerminator());
    b.create<np::HandlerResultOp>(loc(c.bodyEnd), loadScalar(resultSlot));
  }
  resultSlot = savedSlot;
  scopes.pop_back();
}

void BodyGen::emitBody(mlir::Region &region, const Block &body,
                       mlir::BlockArgument signalArg) {
  mlir::OpBuilder::InsertionGuard guard(b);
  mlir::Block &block = region.front();
  b.setInsertionPoint(block.getTerminator());
  scopes.emplace_back();
  if (signalArg) {
    const ElementDecl &e = *spec.decl;
    Ty t = sema.resolve(*e.signalType, false);
    Binding bd;
    bd.ty = t;
    Value v = signalArg;
    if (t.width < 64)
      v = b.create<mlir::arith::TruncIOp>(signalArg.getLoc(),
                                          toMLIRType(ctx, t), v);
    bd.value = v;
    scopes.back()[e.signalArg] = bd;
  }
  returnFlag = nullptr;
  if (mayReturn(body)) {
    mlir::Location l = block.getParentOp()->getLoc();
    returnFlag = allocLocal(Ty::of(Ty::Bool), 1);
    storeScalar(returnFlag, constInt(l, b.getI1Type(), 0));
  }
  genBlock(body);
  scopes.pop_back();
}

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

//===----------------------------------------------------------------------===//
// Storage
//===----------------------------------------------------------------------===//

Value BodyGen::allocLocal(const Ty &t, uint64_t len) {
  auto mt = mlir::MemRefType::get({(int64_t)len}, toMLIRType(ctx, t));
  // Allocas go to the start of the body so loops do not grow the stack.
  mlir::OpBuilder::InsertionGuard guard(b);
  mlir::Operation *bodyOp = b.getInsertionBlock()->getParentOp();
  while (!mlir::isa<np::InitOp, np::HandlerOp, np::SignalOp, np::TimerOp,
                    np::FiniOp, np::ControlOp>(bodyOp))
    bodyOp = bodyOp->getParentOp();
  b.setInsertionPointToStart(&bodyOp->getRegion(0).front());
  return b.create<mlir::memref::AllocaOp>(bodyOp->getLoc(), mt);
}

Value BodyGen::stateRef(const std::string &sym) {
  auto element =
      b.getInsertionBlock()->getParentOp()->getParentOfType<np::ElementOp>();
  auto st = element.lookupSymbol<np::StateOp>(sym);
  return b.create<np::StateRefOp>(st.getLoc(), st.getMemRefType(), sym);
}

Value BodyGen::loadScalar(Value memref) {
  mlir::Location l = memref.getLoc();
  Value zero = b.create<mlir::arith::ConstantIndexOp>(l, 0);
  return b.create<mlir::memref::LoadOp>(l, memref, mlir::ValueRange{zero});
}

void BodyGen::storeScalar(Value memref, Value v) {
  mlir::Location l = v.getLoc();
  Value zero = b.create<mlir::arith::ConstantIndexOp>(l, 0);
  b.create<mlir::memref::StoreOp>(l, v, memref, mlir::ValueRange{zero});
}

Value BodyGen::toIndex(Value v, const Ty &t) {
  mlir::Location l = v.getLoc();
  if (t.kind == Ty::Int && t.isSigned)
    return b.create<mlir::arith::IndexCastOp>(l, b.getIndexType(), v);
  return b.create<mlir::arith::IndexCastUIOp>(l, b.getIndexType(), v);
}

Value BodyGen::toI32(Value v, const Ty &t) {
  mlir::Location l = v.getLoc();
  unsigned w = v.getType().getIntOrFloatBitWidth();
  if (w == 32)
    return v;
  if (w > 32)
    return b.create<mlir::arith::TruncIOp>(l, b.getI32Type(), v);
  if (t.kind == Ty::Int && t.isSigned)
    return b.create<mlir::arith::ExtSIOp>(l, b.getI32Type(), v);
  return b.create<mlir::arith::ExtUIOp>(l, b.getI32Type(), v);
}

Value BodyGen::guardedLoad(Value memref, Value index, const Ty &elem) {
  mlir::Location l = index.getLoc();
  auto mt = mlir::cast<mlir::MemRefType>(memref.getType());
  int64_t len = mt.getDimSize(0);
  if (auto c = index.getDefiningOp<mlir::arith::ConstantIndexOp>())
    if (c.value() >= 0 && c.value() < len)
      return b.create<mlir::memref::LoadOp>(l, memref, mlir::ValueRange{index});
  Value inRange = b.create<mlir::arith::CmpIOp>(
      l, mlir::arith::CmpIPredicate::ult, index,
      b.create<mlir::arith::ConstantIndexOp>(l, len));
  mlir::Type et = mt.getElementType();
  auto ifOp = b.create<mlir::scf::IfOp>(l, mlir::TypeRange{et}, inRange,
                                        /*withElse=*/true);
  {
    mlir::OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    Value v =
        b.create<mlir::memref::LoadOp>(l, memref, mlir::ValueRange{index});
    b.create<mlir::scf::YieldOp>(l, v);
    b.setInsertionPointToStart(&ifOp.getElseRegion().front());
    b.create<mlir::scf::YieldOp>(l, constInt(l, et, 0));
  }
  (void)elem;
  return ifOp.getResult(0);
}

void BodyGen::guardedStore(Value memref, Value index, Value v) {
  mlir::Location l = index.getLoc();
  auto mt = mlir::cast<mlir::MemRefType>(memref.getType());
  int64_t len = mt.getDimSize(0);
  if (auto c = index.getDefiningOp<mlir::arith::ConstantIndexOp>())
    if (c.value() >= 0 && c.value() < len) {
      b.create<mlir::memref::StoreOp>(l, v, memref, mlir::ValueRange{index});
      return;
    }
  Value inRange = b.create<mlir::arith::CmpIOp>(
      l, mlir::arith::CmpIPredicate::ult, index,
      b.create<mlir::arith::ConstantIndexOp>(l, len));
  auto ifOp = b.create<mlir::scf::IfOp>(l, inRange, /*withElse=*/false);
  mlir::OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  b.create<mlir::memref::StoreOp>(l, v, memref, mlir::ValueRange{index});
}

bool npcc::emitElement(Sema &sema, mlir::ModuleOp module, ElementSpec &spec) {
  mlir::OpBuilder b(module.getContext());
  b.setInsertionPointToEnd(module.getBody());
  const ElementDecl &e = *spec.decl;
  auto element =
      b.create<np::ElementOp>(toLoc(b.getContext(), e.loc), spec.symbol);
  if (spec.symbol != e.name || !spec.env.empty())
    element.setOriginAttr(b.getStringAttr(e.name));
  if (!spec.env.empty()) {
    llvm::SmallVector<mlir::NamedAttribute> params;
    for (const Param &p : e.params)
      params.push_back(b.getNamedAttr(p.name, spec.env[p.name].toAttr(b)));
    element.setParamsAttr(b.getDictionaryAttr(params));
  }
  BodyGen gen(sema, spec, b);
  if (!gen.emit(element)) {
    element.erase();
    return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

void BodyGen::genBlock(const Block &block) {
  scopes.emplace_back();
  mlir::OpBuilder::InsertionGuard g(b);
  for (size_t i = 0; i < block.size(); ++i) {
    const Stmt &s = *block[i];
    genStmt(s);
    bool mayLeave = (returnFlag && mayReturn(s)) ||
                    (!loops.empty() && (exitsLoop(s, Stmt::Break) ||
                                        exitsLoop(s, Stmt::Continue)));
    if (mayLeave && i + 1 < block.size()) {
      // The rest of the block runs only if `s` did not return, break or
      // continue.
      auto ifOp = b.create<mlir::scf::IfOp>(
          loc(s.loc), notOf(exitFlagsSet(loc(s.loc))), /*withElse=*/false);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    }
  }
  scopes.pop_back();
}

void BodyGen::genLocal(const Stmt &s) {
  Binding bd;
  Ty t = s.type ? sema.resolve(*s.type, false) : s.init->ty;
  if (t.kind == Ty::IntLit)
    t = Ty::integer(s.init->value > 0xffffffffu ? 64 : 32, false);
  bd.ty = t;
  if (s.kind == Stmt::Let && t.kind != Ty::Record) {
    if (s.init->kind == Expr::HeaderView) {
      bd.kind = Binding::Header;
      bd.pkt = gen(*s.init->args[0]);
      bd.offset = gen(*s.init->args[1]);
    } else {
      bd.value = gen(*s.init);
    }
    scopes.back()[s.name] = bd;
    return;
  }
  bd.kind = Binding::Var;
  uint64_t len = 1;
  Ty elem = t;
  if (t.kind == Ty::Array) {
    // `var a = [1, 2, 3];` takes its length from the literal.
    std::optional<CValue> n;
    if (s.type && s.type->size) {
      n = ce.eval(*s.type->size, "array size");
    } else {
      n = CValue();
      n->i = t.len;
    }
    if (!n)
      return;
    len = n->i;
    if (len == 0 || len > (1u << 20)) {
      sema.error(s.type->size->loc)
          << "local array size must be 1.." << (1u << 20);
      return;
    }
    elem = *t.elem;
  }
  if (elem.kind == Ty::Record) {
    // A struct variable initialised from a struct value: field by field.
    llvm::SmallVector<Value> init;
    if (s.init && t.kind == Ty::Record)
      init = scalarsOf(*s.init);
    size_t k = 0;
    for (const Field &f : elem.record->fields) {
      Value m = allocLocal(sema.resolve(*f.type, false), len);
      bd.fields[f.name] = m;
      if (k < init.size()) {
        storeScalar(m, init[k++]);
        continue;
      }
      for (uint64_t k = 0; k < len; ++k) {
        mlir::Location l = loc(s.loc);
        auto ft = mlir::cast<mlir::MemRefType>(m.getType()).getElementType();
        b.create<mlir::memref::StoreOp>(
            l, constInt(l, ft, 0), m,
            mlir::ValueRange{b.create<mlir::arith::ConstantIndexOp>(l, k)});
      }
    }
    scopes.back()[s.name] = bd;
    return;
  }
  bd.value = allocLocal(elem, len);
  mlir::Location l = loc(s.loc);
  if (s.init && t.kind == Ty::Array && s.init->kind == Expr::ArrayLit) {
    for (size_t k = 0; k < s.init->args.size() && k < len; ++k)
      b.create<mlir::memref::StoreOp>(
          l, gen(*s.init->args[k]), bd.value,
          mlir::ValueRange{b.create<mlir::arith::ConstantIndexOp>(l, k)});
  } else if (s.init) {
    storeScalar(bd.value, gen(*s.init));
  } else {
    // Variables start at zero: no read of an uninitialised value exists.
    mlir::Type et = toMLIRType(ctx, elem);
    for (uint64_t k = 0; k < len; ++k)
      b.create<mlir::memref::StoreOp>(
          l, constInt(l, et, 0), bd.value,
          mlir::ValueRange{b.create<mlir::arith::ConstantIndexOp>(l, k)});
  }
  scopes.back()[s.name] = bd;
}

void BodyGen::genStmt(const Stmt &s) {
  mlir::Location l = loc(s.loc);
  switch (s.kind) {
  case Stmt::Let:
  case Stmt::Var:
    genLocal(s);
    return;
  case Stmt::Assign:
    genAssign(s);
    return;
  case Stmt::If: {
    // A condition known at compile time (typically on parameters) keeps
    // only its branch: `if noutputs > 1 { send(o[1], p); }` is valid with
    // one output.
    if (auto known = ce.tryEval(*s.cond)) {
      genBlock(known->i ? s.body : s.elseBody);
      return;
    }
    Value c = gen(*s.cond);
    auto ifOp = b.create<mlir::scf::IfOp>(l, c, !s.elseBody.empty());
    mlir::OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    genBlock(s.body);
    if (!s.elseBody.empty()) {
      b.setInsertionPointToStart(&ifOp.getElseRegion().front());
      genBlock(s.elseBody);
    }
    return;
  }
  case Stmt::IfLet: {
    const Expr &call = *s.init;
    if (lookupBuiltin(call.text) == Builtin::Dequeue) {
      genDequeue(s);
      return;
    }
    if (lookupBuiltin(call.text) == Builtin::Lookup) {
      genLookup(s);
      return;
    }
    Value dyn;
    auto port = portName(*call.args[0], &dyn);
    if (!port)
      return;
    if (dyn) {
      sema.error(call.args[0]->loc) << "'try_recv' needs a constant port index";
      return;
    }
    mlir::Type et = toMLIRType(ctx, call.ty);
    auto tr = b.create<np::TryRecvOp>(l, b.getI1Type(), et, *port);
    auto ifOp = b.create<mlir::scf::IfOp>(l, tr.getOk(), !s.elseBody.empty());
    mlir::OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    genIfLetArms(s, ifOp, call.ty, tr.getValue());
    return;
  }
  case Stmt::For:
  case Stmt::Unroll:
  case Stmt::While:
    genLoop(s);
    return;
  case Stmt::Select:
    genSelect(s);
    return;
  case Stmt::Return:
    if (s.init)
      storeScalar(resultSlot, gen(*s.init));
    storeScalar(returnFlag, constInt(l, b.getI1Type(), 1));
    return;
  case Stmt::Break:
    storeScalar(loops.back().broken, constInt(l, b.getI1Type(), 1));
    return;
  case Stmt::Continue:
    storeScalar(loops.back().continued, constInt(l, b.getI1Type(), 1));
    return;
  case Stmt::Fail: // Sema allows it only in match programs
    return;
  case Stmt::ExprStmt:
    gen(*s.init);
    return;
  case Stmt::Nested:
    genBlock(s.body);
    return;
  }
}

void BodyGen::genLoop(const Stmt &s) {
  mlir::Location l = loc(s.loc);
  mlir::OpBuilder::InsertionGuard g(b);
  Value lb, ub;
  Ty ivTy = s.kind == Stmt::While ? Ty::integer(32, false) : s.lo->ty;
  Value lo, hi;
  uint64_t trips = 0;
  if (s.kind == Stmt::For) {
    auto clo = ce.eval(*s.lo, "loop bound");
    auto chi = ce.eval(*s.hi, "loop bound");
    if (!clo || !chi)
      return;
    lb = b.create<mlir::arith::ConstantIndexOp>(l, (int64_t)clo->i);
    ub = b.create<mlir::arith::ConstantIndexOp>(l, (int64_t)chi->i);
    trips = (int64_t)chi->i > (int64_t)clo->i
                ? (uint64_t)((int64_t)chi->i - (int64_t)clo->i)
                : 0;
  } else {
    auto bound = ce.eval(*s.bound, "loop bound after 'bound'");
    if (!bound)
      return;
    lb = b.create<mlir::arith::ConstantIndexOp>(l, 0);
    ub = b.create<mlir::arith::ConstantIndexOp>(l, (int64_t)bound->i);
    trips = bound->i;
    if (s.kind == Stmt::Unroll) {
      lo = gen(*s.lo);
      hi = gen(*s.hi);
    }
  }
  Value running;
  if (s.kind == Stmt::While) {
    running = allocLocal(Ty::of(Ty::Bool), 1);
    storeScalar(running, constInt(l, b.getI1Type(), 1));
  }
  LoopFlags flags;
  if (exitsLoop(s.body, Stmt::Break)) {
    flags.broken = allocLocal(Ty::of(Ty::Bool), 1);
    storeScalar(flags.broken, constInt(l, b.getI1Type(), 0));
  }
  if (exitsLoop(s.body, Stmt::Continue))
    flags.continued = allocLocal(Ty::of(Ty::Bool), 1);
  auto forOp = b.create<mlir::scf::ForOp>(
      l, lb, ub, b.create<mlir::arith::ConstantIndexOp>(l, 1));
  if (s.kind == Stmt::Unroll)
    forOp->setAttr("np.unroll", b.getUnitAttr());
  b.setInsertionPointToStart(forOp.getBody());
  // Once the loop returned, broke or (while) found its condition false,
  // the remaining iterations do nothing; the targets may stop there.
  Value stop;
  auto addStop = [&](Value v) {
    stop = stop ? (Value)b.create<mlir::arith::OrIOp>(l, stop, v) : v;
  };
  if (returnFlag && mayReturn(s.body))
    addStop(loadScalar(returnFlag));
  if (flags.broken)
    addStop(loadScalar(flags.broken));
  if (running)
    addStop(notOf(loadScalar(running)));
  if (stop) {
    // The canonicalizer inlines the body of a loop of one iteration into
    // the code around it, where leaving "the loop" would leave another.
    if (trips >= 2)
      b.create<np::ExitLoopIfOp>(l, stop);
    if (!running) { // a while loop tests `running` itself below
      auto ifOp = b.create<mlir::scf::IfOp>(l, notOf(stop), false);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    }
  }
  if (running && (flags.broken || (returnFlag && mayReturn(s.body)))) {
    Value other = flags.broken ? loadScalar(flags.broken) : Value();
    if (returnFlag && mayReturn(s.body)) {
      Value r = loadScalar(returnFlag);
      other = other ? (Value)b.create<mlir::arith::OrIOp>(l, other, r) : r;
    }
    auto ifOp = b.create<mlir::scf::IfOp>(l, notOf(other), false);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  }
  if (flags.continued)
    storeScalar(flags.continued, constInt(l, b.getI1Type(), 0));
  loops.push_back(flags);
  scopes.emplace_back();
  mlir::Type ivType = toMLIRType(ctx, ivTy);
  Value iv = forOp.getInductionVar();
  if (s.kind == Stmt::For) {
    Binding bd;
    bd.ty = ivTy;
    bd.value = b.create<mlir::arith::IndexCastUIOp>(l, ivType, iv);
    scopes.back()[s.name] = bd;
    genBlock(s.body);
  } else if (s.kind == Stmt::Unroll) {
    Value k = b.create<mlir::arith::IndexCastUIOp>(l, ivType, iv);
    Value cur = b.create<mlir::arith::AddIOp>(l, lo, k);
    Value inRange = b.create<mlir::arith::CmpIOp>(
        l,
        ivTy.isSigned ? mlir::arith::CmpIPredicate::slt
                      : mlir::arith::CmpIPredicate::ult,
        cur, hi);
    auto ifOp = b.create<mlir::scf::IfOp>(l, inRange, false);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    Binding bd;
    bd.ty = ivTy;
    bd.value = cur;
    scopes.back()[s.name] = bd;
    genBlock(s.body);
  } else {
    auto ifRun = b.create<mlir::scf::IfOp>(l, loadScalar(running), false);
    b.setInsertionPointToStart(&ifRun.getThenRegion().front());
    Value c = gen(*s.cond);
    auto ifC = b.create<mlir::scf::IfOp>(l, c, true);
    b.setInsertionPointToStart(&ifC.getElseRegion().front());
    storeScalar(running, constInt(l, b.getI1Type(), 0));
    b.setInsertionPointToStart(&ifC.getThenRegion().front());
    genBlock(s.body);
  }
  scopes.pop_back();
  loops.pop_back();
}

void BodyGen::genSelect(const Stmt &s) {
  mlir::Location l = loc(s.loc);
  llvm::SmallVector<mlir::Attribute> ports;
  std::vector<std::string> names;
  for (const SelectCase &c : s.cases) {
    Value dyn;
    auto p = portName(*c.port, &dyn);
    if (!p)
      return;
    if (dyn) {
      sema.error(c.port->loc) << "'select' needs constant port indices";
      return;
    }
    for (const std::string &n : names)
      if (n == *p) {
        sema.error(c.loc) << "port '" << *p << "' appears twice in 'select'";
        return;
      }
    names.push_back(*p);
    ports.push_back(mlir::FlatSymbolRefAttr::get(ctx, *p));
  }
  Value idx = b.create<np::SelectOp>(l, b.getI32Type(), b.getArrayAttr(ports));
  mlir::OpBuilder::InsertionGuard g(b);
  for (size_t k = 0; k < s.cases.size(); ++k) {
    const SelectCase &c = s.cases[k];
    Value is = b.create<mlir::arith::CmpIOp>(l, mlir::arith::CmpIPredicate::eq,
                                             idx, i32(l, k));
    bool last = k + 1 == s.cases.size();
    auto ifOp = b.create<mlir::scf::IfOp>(l, is, !last);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    const Ty &et = c.port->ty.elem ? *c.port->ty.elem : Ty();
    Binding bd;
    bd.ty = et;
    bd.value = b.create<np::RecvOp>(loc(c.loc), toMLIRType(ctx, et), names[k]);
    scopes.emplace_back();
    scopes.back()[c.var] = bd;
    genBlock(c.body);
    scopes.pop_back();
    if (!last)
      b.setInsertionPointToStart(&ifOp.getElseRegion().front());
  }
}

/// Finds the memref (and field/index) an lvalue or rvalue names, for
/// variables, state and arrays. Returns null for packet-backed values.
/// A constant array (a module constant or an array parameter) indexed at
/// run time: a read-only copy in the element's state, made on first use,
/// `const.NAME` or, for arrays of structs, `const.NAME.FIELD` per field.
Value BodyGen::constArray(const Expr &name, const std::string &field) {
  if (name.ty.kind != Ty::Array)
    return nullptr;
  auto value = ce.tryEval(name);
  if (!value || value->kind != CValue::List)
    return nullptr;
  if (const ast::ConstDecl *c = sema.lookupConst(name.text);
      c && !lookup(name.text)) {
    if (auto size = ce.eval(*c->type->size, "array size");
        size && size->i != value->list.size()) {
      sema.error(c->value->loc)
          << "'" << c->name << "' has " << size->i << " elements, its literal "
          << value->list.size();
      return nullptr;
    }
  }
  const Ty *et = name.ty.elem.get();
  Ty fieldTy;
  size_t fieldIndex = 0;
  if (et->kind == Ty::Record) {
    const auto &fields = et->record->fields;
    auto it = llvm::find_if(
        fields, [&](const ast::Field &f) { return f.name == field; });
    if (it == fields.end())
      return nullptr;
    fieldIndex = it - fields.begin();
    fieldTy = sema.resolve(*it->type, false);
    et = &fieldTy;
  } else if (!field.empty()) {
    return nullptr;
  }
  std::string sym = "const." + name.text + (field.empty() ? "" : "." + field);
  auto element =
      b.getInsertionBlock()->getParentOp()->getParentOfType<np::ElementOp>();
  if (!element.lookupSymbol<np::StateOp>(sym)) {
    mlir::Type mt = toMLIRType(ctx, *et);
    unsigned w = mt.getIntOrFloatBitWidth();
    llvm::SmallVector<mlir::APInt> vals;
    for (const CValue &x : value->list)
      vals.push_back(
          mlir::APInt(64, et == &fieldTy ? x.list[fieldIndex].i : x.i)
              .trunc(w));
    // An empty array (a variadic parameter given nothing) reads 0 at every
    // index, as any array does out of range: one zero word stands for it.
    if (vals.empty())
      vals.push_back(mlir::APInt(w, 0));
    int64_t n = (int64_t)vals.size();
    auto init = mlir::DenseElementsAttr::get(
        mlir::RankedTensorType::get({n}, mt), vals);
    mlir::OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&element.getBodyRegion().front());
    auto op = b.create<np::StateOp>(loc(name.loc), sym,
                                    mlir::MemRefType::get({n}, mt), init);
    if (et == &fieldTy) // a field of a constant array of structs
      op->setAttr(np::kStructArrayAttr, b.getStringAttr("const." + name.text));
  }
  return stateRef(sym);
}

Value BodyGen::storageOf(const Expr &e, std::string &field, Value &index) {
  const Expr *base = &e;
  if (base->kind == Expr::Field && base->args[0]->ty.kind == Ty::Record) {
    field = base->text;
    base = base->args[0].get();
  }
  if (base->kind == Expr::Index && base->args[0]->ty.kind == Ty::Array) {
    index = toIndex(gen(*base->args[1]), base->args[1]->ty);
    base = base->args[0].get();
  }
  if (base->kind != Expr::Name)
    return nullptr;
  Binding *bd = lookup(base->text);
  if ((!bd || bd->kind == Binding::Const) && index)
    return constArray(*base, field);
  if (!bd)
    return nullptr;
  if (bd->kind == Binding::Var)
    return field.empty() ? bd->value : bd->fields.lookup(field);
  if (bd->kind == Binding::State)
    return stateRef(field.empty() ? bd->state : bd->state + "." + field);
  return nullptr;
}

/// `x = v` for a struct: field by field, into a struct variable, state or
/// an element of an array of structs.
void BodyGen::genRecordAssign(const Stmt &s) {
  const Expr &t = *s.target;
  llvm::SmallVector<Value> values = scalarsOf(*s.init);
  const auto &fields = t.ty.record->fields;
  if (values.size() != fields.size())
    return; // reported by scalarsOf
  const Expr *base = &t;
  Value index;
  if (base->kind == Expr::Index) {
    index = toIndex(gen(*base->args[1]), base->args[1]->ty);
    base = base->args[0].get();
  }
  Binding *bd = base->kind == Expr::Name ? lookup(base->text) : nullptr;
  for (size_t k = 0; k < fields.size(); ++k) {
    Value m;
    if (bd && bd->kind == Binding::Var)
      m = bd->fields.lookup(fields[k].name);
    else if (bd && bd->kind == Binding::State)
      m = stateRef(bd->state + "." + fields[k].name);
    if (!m) {
      sema.error(t.loc) << "cannot assign to this struct";
      return;
    }
    if (index)
      guardedStore(m, index, values[k]);
    else
      storeScalar(m, values[k]);
  }
}

void BodyGen::genAssign(const Stmt &s) {
  const Expr &t = *s.target;
  mlir::Location l = loc(s.loc);
  if (t.ty.kind == Ty::Record) {
    genRecordAssign(s);
    return;
  }
  auto combine = [&](Value old) -> Value {
    if (s.op == "=")
      return gen(*s.init);
    // Evaluate the combination on the already loaded value.
    Value rhs = gen(*s.init);
    llvm::StringRef op = llvm::StringRef(s.op).drop_back();
    bool sgn = t.ty.isSigned;
    if (op == "<<" || op == ">>")
      return emitShift(b, l, op, old, rhs, sgn);
    return emitPlainBinary(b, l, op, old, rhs, sgn);
  };
  // Writes into packets: header fields, metadata, bytes.
  if (t.kind == Expr::Field && t.args[0]->ty.kind == Ty::Header) {
    Value old = s.op == "=" ? nullptr : genHeaderField(*t.args[0], t.text, {});
    genHeaderField(*t.args[0], t.text, combine(old));
    return;
  }
  if (t.kind == Expr::Field && t.args[0]->ty.kind == Ty::Pkt) {
    Value p = gen(*t.args[0]);
    Value old = s.op == "=" ? nullptr : gen(t);
    unsigned w;
    if (isPacketMetaField(t.text, w))
      b.create<np::MetaSetOp>(l, p, t.text, combine(old));
    else
      b.create<np::AnnoSetOp>(l, p, t.text, sema.lookupAnnotation(t.text)->slot,
                              combine(old));
    return;
  }
  if (t.kind == Expr::Index && t.args[0]->ty.kind == Ty::Pkt) {
    Value p = gen(*t.args[0]);
    Value old = s.op == "=" ? nullptr : gen(t);
    Value v = combine(old);
    Value off = packetByteOffset(b, l, gen(*t.args[1]));
    b.create<np::PktSetOp>(l, p, off, v, 8, 0, nullptr, nullptr);
    return;
  }
  std::string field;
  Value index;
  Value m = storageOf(t, field, index);
  if (!m) {
    sema.error(t.loc) << "cannot assign to this expression";
    return;
  }
  Value old = s.op == "=" ? nullptr
              : index     ? guardedLoad(m, index, t.ty)
                          : loadScalar(m);
  Value v = combine(old);
  if (index)
    guardedStore(m, index, v);
  else
    storeScalar(m, v);
}

//===----------------------------------------------------------------------===//
// Ports
//===----------------------------------------------------------------------===//

std::optional<std::string> BodyGen::portName(const Expr &e, Value *dynIndex) {
  if (e.kind == Expr::Name)
    return e.text;
  const std::string &base = e.args[0]->text;
  uint64_t n = spec.portArraySizes.lookup(base);
  if (auto k = ce.tryEval(*e.args[1])) {
    if (k->i >= n) {
      sema.error(e.args[1]->loc)
          << "port index " << k->i << " is out of range; '" << base << "' has "
          << n << " ports";
      return std::nullopt;
    }
    return base + "[" + std::to_string(k->i) + "]";
  }
  *dynIndex = toI32(gen(*e.args[1]), e.args[1]->ty);
  return base;
}

void BodyGen::sendTo(const Expr &portExpr, Value v, const Loc &callLoc) {
  mlir::Location l = loc(callLoc);
  Value dyn;
  auto port = portName(portExpr, &dyn);
  if (!port)
    return;
  if (!dyn) {
    b.create<np::SendOp>(l, *port, v);
    return;
  }
  // A computed index selects among the ports of the array; an index out of
  // range is an explicit, counted drop for packets.
  uint64_t n = spec.portArraySizes.lookup(*port);
  mlir::OpBuilder::InsertionGuard g(b);
  for (uint64_t k = 0; k < n; ++k) {
    Value is = b.create<mlir::arith::CmpIOp>(l, mlir::arith::CmpIPredicate::eq,
                                             dyn, i32(l, k));
    auto ifOp = b.create<mlir::scf::IfOp>(l, is, true);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    b.create<np::SendOp>(l, *port + "[" + std::to_string(k) + "]", v);
    b.setInsertionPointToStart(&ifOp.getElseRegion().front());
  }
  if (mlir::isa<np::PacketType>(v.getType()))
    b.create<np::DropOp>(l, v);
}
