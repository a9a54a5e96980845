//===- MLIRGenStmt.cpp - NPL statements to np + arith/scf/memref ----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Blocks, locals, assignments, if, if let, loops, select, return, break
// and continue of a handler body; exits out of loops are flags in memrefs.
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
