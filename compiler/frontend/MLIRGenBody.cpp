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
// This file emits the structure of an element and its storage; statements
// are in MLIRGenStmt.cpp, expressions in MLIRGenExpr.cpp, calls of
// builtins in MLIRGenBuiltins.cpp and packet queues in MLIRGenQueue.cpp.
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
      auto op = b.create<np::StateOp>(loc(v.loc), v.name, mt, nullptr);
      // The hls target gives an instance a packet buffer per packet its
      // queues may hold.
      if (queue)
        op->setAttr("np.packet_queue", b.getI64IntegerAttr(n->i));
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
  if (t.isSignedInt())
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
  if (t.isSignedInt())
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

/// Finds the memref (and field/index) an lvalue or rvalue names, for
/// variables, state and arrays. Returns null for packet-backed values.
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
