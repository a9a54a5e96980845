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

#include "compiler/frontend/MLIRGenImpl.h"

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
    return mlir::IntegerType::get(ctx, 64);
  case Ty::Pkt:
    return np::PacketType::get(ctx);
  default:
    return mlir::NoneType::get(ctx);
  }
}

namespace {

/// What a name means inside a body.
struct Binding {
  enum Kind { SSA, Var, State, Header, Const } kind = SSA;
  Ty ty;
  Value value;          // SSA value, or the memref of a Var
  std::string state;    // State: symbol (field symbols are state.field)
  Value pkt, offset;    // Header view: packet and byte offset
  llvm::StringMap<Value> fields; // Var of struct type: memref per field
  CValue cval;
};

class BodyGen {
public:
  BodyGen(Sema &sema, ElementSpec &spec, mlir::OpBuilder &b)
      : sema(sema), spec(spec), b(b), ctx(b.getContext()), ce(sema, spec.env) {
  }

  bool emit(np::ElementOp element);

private:
  // Statements
  void genBlock(const Block &block);
  void genStmt(const Stmt &s);
  void genAssign(const Stmt &s);
  void genLoop(const Stmt &s);
  void genSelect(const Stmt &s);
  void genLocal(const Stmt &s);

  // Expressions
  Value gen(const Expr &e);
  Value genBinary(const Expr &e);
  Value genCall(const Expr &e);
  Value genField(const Expr &e);
  Value genIndex(const Expr &e);
  Value genCast(const Expr &e);
  Value genClassify(const Expr &e);
  Value genHeaderField(const Expr &view, const std::string &field,
                       Value newValue);

  // Storage helpers
  Value stateRef(const std::string &sym);
  Value loadScalar(Value memref);
  void storeScalar(Value memref, Value v);
  Value guardedLoad(Value memref, Value index, const Ty &elem);
  void guardedStore(Value memref, Value index, Value v);
  Value storageOf(const Expr &e, std::string &fieldOut, Value &indexOut);
  Value allocLocal(const Ty &t, uint64_t len);

  // Ports
  std::optional<std::string> portName(const Expr &portExpr, Value *dynIndex);
  void sendTo(const Expr &portExpr, Value v, const Loc &callLoc);

  // Utilities
  mlir::Location loc(const Loc &l) { return toLoc(ctx, l); }
  Value constInt(mlir::Location l, mlir::Type t, uint64_t v) {
    return b.create<mlir::arith::ConstantOp>(
        l, t, b.getIntegerAttr(t, (int64_t)v));
  }
  Value i32(mlir::Location l, uint64_t v) {
    return constInt(l, b.getI32Type(), v);
  }
  Value toI32(Value v, const Ty &t);
  Value toIndex(Value v, const Ty &t);
  Value notOf(Value v) {
    return b.create<mlir::arith::XOrIOp>(v.getLoc(), v,
                                         constInt(v.getLoc(), b.getI1Type(), 1));
  }
  Binding *lookup(const std::string &name) {
    for (auto it = scopes.rbegin(); it != scopes.rend(); ++it) {
      auto f = it->find(name);
      if (f != it->end())
        return &f->second;
    }
    return nullptr;
  }
  static bool mayReturn(const Stmt &s);
  static bool mayReturn(const Block &b) {
    for (const StmtPtr &s : b)
      if (mayReturn(*s))
        return true;
    return false;
  }
  void emitBody(mlir::Region &region, const Block &body,
                mlir::BlockArgument signalArg = nullptr);
  bool failed() const { return sema.errorCount() != errorsAtStart; }

  Sema &sema;
  ElementSpec &spec;
  mlir::OpBuilder &b;
  mlir::MLIRContext *ctx;
  ConstEval ce;
  std::vector<llvm::StringMap<Binding>> scopes;
  Value returnFlag;
  unsigned errorsAtStart = 0;
};

} // namespace

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
  for (const StateVar &v : e.state) {
    Ty t = sema.resolve(*v.type, false);
    uint64_t len = 1;
    Ty elem = t;
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
    auto declare = [&](const std::string &sym, const Ty &et,
                       mlir::ElementsAttr init) {
      auto mt = mlir::MemRefType::get({(int64_t)len}, toMLIRType(ctx, et));
      b.create<np::StateOp>(loc(v.loc), sym, mt, init);
    };
    if (elem.kind == Ty::Record) {
      // Memory scattering: one array per field, as ClickNP does.
      for (const Field &f : elem.record->fields)
        declare(v.name + "." + f.name, sema.resolve(*f.type, false), nullptr);
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
  return !failed();
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
  while (!mlir::isa<np::InitOp, np::HandlerOp, np::SignalOp>(bodyOp))
    bodyOp = bodyOp->getParentOp();
  b.setInsertionPointToStart(&bodyOp->getRegion(0).front());
  return b.create<mlir::memref::AllocaOp>(bodyOp->getLoc(), mt);
}

Value BodyGen::stateRef(const std::string &sym) {
  auto element = b.getInsertionBlock()->getParentOp()
                     ->getParentOfType<np::ElementOp>();
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
    Value v = b.create<mlir::memref::LoadOp>(l, memref, mlir::ValueRange{index});
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
  auto element = b.create<np::ElementOp>(toLoc(b.getContext(), e.loc),
                                         spec.symbol);
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
    if (returnFlag && mayReturn(s) && i + 1 < block.size()) {
      // The rest of the block runs only if `s` did not return.
      auto ifOp = b.create<mlir::scf::IfOp>(
          loc(s.loc), notOf(loadScalar(returnFlag)), /*withElse=*/false);
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
  if (s.kind == Stmt::Let) {
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
    auto n = ce.eval(*s.type->size, "array size");
    if (!n)
      return;
    len = n->i;
    if (len == 0 || len > (1u << 20)) {
      sema.error(s.type->size->loc) << "local array size must be 1.." << (1u << 20);
      return;
    }
    elem = *t.elem;
  }
  if (elem.kind == Ty::Record) {
    for (const Field &f : elem.record->fields) {
      Value m = allocLocal(sema.resolve(*f.type, false), len);
      bd.fields[f.name] = m;
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
    scopes.emplace_back();
    Binding bd;
    bd.ty = call.ty;
    bd.value = tr.getValue();
    scopes.back()[s.name] = bd;
    genBlock(s.body);
    scopes.pop_back();
    if (!s.elseBody.empty()) {
      b.setInsertionPointToStart(&ifOp.getElseRegion().front());
      genBlock(s.elseBody);
    }
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
    storeScalar(returnFlag, constInt(l, b.getI1Type(), 1));
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
  if (s.kind == Stmt::For) {
    auto clo = ce.eval(*s.lo, "loop bound");
    auto chi = ce.eval(*s.hi, "loop bound");
    if (!clo || !chi)
      return;
    lb = b.create<mlir::arith::ConstantIndexOp>(l, (int64_t)clo->i);
    ub = b.create<mlir::arith::ConstantIndexOp>(l, (int64_t)chi->i);
  } else {
    auto bound = ce.eval(*s.bound, "loop bound after 'bound'");
    if (!bound)
      return;
    lb = b.create<mlir::arith::ConstantIndexOp>(l, 0);
    ub = b.create<mlir::arith::ConstantIndexOp>(l, (int64_t)bound->i);
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
  auto forOp = b.create<mlir::scf::ForOp>(
      l, lb, ub, b.create<mlir::arith::ConstantIndexOp>(l, 1));
  if (s.kind == Stmt::Unroll)
    forOp->setAttr("np.unroll", b.getUnitAttr());
  b.setInsertionPointToStart(forOp.getBody());
  if (returnFlag && mayReturn(s.body)) {
    auto ifOp = b.create<mlir::scf::IfOp>(l, notOf(loadScalar(returnFlag)),
                                          false);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  }
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
  if (!bd)
    return nullptr;
  if (bd->kind == Binding::Var)
    return field.empty() ? bd->value : bd->fields.lookup(field);
  if (bd->kind == Binding::State)
    return stateRef(field.empty() ? bd->state : bd->state + "." + field);
  return nullptr;
}

void BodyGen::genAssign(const Stmt &s) {
  const Expr &t = *s.target;
  mlir::Location l = loc(s.loc);
  auto combine = [&](Value old) -> Value {
    if (s.op == "=")
      return gen(*s.init);
    Expr bin;
    bin.kind = Expr::Binary;
    bin.loc = s.loc;
    bin.text = s.op.substr(0, s.op.size() - 1);
    bin.ty = t.ty;
    // Evaluate the combination on the already loaded value.
    Value rhs = gen(*s.init);
    llvm::StringRef op = bin.text;
    bool sgn = t.ty.isSigned;
    if (op == "+")
      return b.create<mlir::arith::AddIOp>(l, old, rhs);
    if (op == "-")
      return b.create<mlir::arith::SubIOp>(l, old, rhs);
    if (op == "*")
      return b.create<mlir::arith::MulIOp>(l, old, rhs);
    if (op == "&")
      return b.create<mlir::arith::AndIOp>(l, old, rhs);
    if (op == "|")
      return b.create<mlir::arith::OrIOp>(l, old, rhs);
    if (op == "^")
      return b.create<mlir::arith::XOrIOp>(l, old, rhs);
    rhs = rhs.getType() == old.getType()
              ? rhs
              : (Value)b.create<mlir::arith::ExtUIOp>(l, old.getType(), rhs);
    if (op == "<<")
      return b.create<mlir::arith::ShLIOp>(l, old, rhs);
    if (sgn)
      return b.create<mlir::arith::ShRSIOp>(l, old, rhs);
    return b.create<mlir::arith::ShRUIOp>(l, old, rhs);
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
    b.create<np::MetaSetOp>(l, p, t.text, combine(old));
    return;
  }
  if (t.kind == Expr::Index && t.args[0]->ty.kind == Ty::Pkt) {
    Value p = gen(*t.args[0]);
    Value old = s.op == "=" ? nullptr : gen(t);
    Value v = combine(old);
    Value off = b.create<mlir::arith::MulIOp>(l, gen(*t.args[1]), i32(l, 8));
    b.create<np::PktSetOp>(l, p, off, v, 8, nullptr, nullptr);
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
      sema.error(e.args[1]->loc) << "port index " << k->i
                                 << " is out of range; '" << base << "' has "
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

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

static bool isPure(const Expr &e) {
  if (e.kind == Expr::Recv)
    return false;
  if (e.kind == Expr::Call) {
    Builtin b = lookupBuiltin(e.text);
    if (b != Builtin::Len && b != Builtin::Min && b != Builtin::Max &&
        b != Builtin::Classify)
      return false;
  }
  for (const ExprPtr &a : e.args)
    if (!isPure(*a))
      return false;
  return true;
}

Value BodyGen::gen(const Expr &e) {
  mlir::Location l = loc(e.loc);
  switch (e.kind) {
  case Expr::IntLit:
    return constInt(l, toMLIRType(ctx, e.ty), e.value);
  case Expr::BoolLit:
    return constInt(l, b.getI1Type(), e.value);
  case Expr::StrLit:
    sema.error(e.loc) << "strings are only allowed as element arguments";
    return constInt(l, b.getI32Type(), 0);
  case Expr::Name: {
    Binding *bd = lookup(e.text);
    if (!bd) {
      if (auto c = ce.tryEval(e))
        return constInt(l, toMLIRType(ctx, e.ty), c->i);
      sema.error(e.loc) << "use of undeclared name '" << e.text << "'";
      return constInt(l, b.getI32Type(), 0);
    }
    switch (bd->kind) {
    case Binding::SSA:
      return bd->value;
    case Binding::Var:
      return loadScalar(bd->value);
    case Binding::State:
      if (bd->ty.kind == Ty::Array || bd->ty.kind == Ty::Record) {
        sema.error(e.loc) << "'" << e.text << "' is an aggregate; index it";
        return constInt(l, b.getI32Type(), 0);
      }
      return loadScalar(stateRef(bd->state));
    case Binding::Const:
      if (bd->cval.kind == CValue::List || bd->cval.kind == CValue::Str) {
        sema.error(e.loc) << "'" << e.text
                          << "' holds strings; use it with classify or len";
        return constInt(l, b.getI32Type(), 0);
      }
      return constInt(l, toMLIRType(ctx, e.ty), bd->cval.i);
    case Binding::Header:
      sema.error(e.loc) << "a header view is used through its fields";
      return constInt(l, b.getI32Type(), 0);
    }
    return nullptr;
  }
  case Expr::Unary: {
    if (auto c = ce.tryEval(e))
      return constInt(l, toMLIRType(ctx, e.ty), c->i);
    Value a = gen(*e.args[0]);
    if (e.text == "!")
      return notOf(a);
    if (e.text == "~")
      return b.create<mlir::arith::XOrIOp>(
          l, a, constInt(l, a.getType(), ~0ull));
    return b.create<mlir::arith::SubIOp>(l, constInt(l, a.getType(), 0), a);
  }
  case Expr::Binary:
    return genBinary(e);
  case Expr::Cond: {
    Value c = gen(*e.args[0]);
    if (isPure(*e.args[1]) && isPure(*e.args[2]))
      return b.create<mlir::arith::SelectOp>(l, c, gen(*e.args[1]),
                                             gen(*e.args[2]));
    mlir::Type t = toMLIRType(ctx, e.ty);
    auto ifOp = b.create<mlir::scf::IfOp>(l, mlir::TypeRange{t}, c, true);
    mlir::OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    b.create<mlir::scf::YieldOp>(l, gen(*e.args[1]));
    b.setInsertionPointToStart(&ifOp.getElseRegion().front());
    b.create<mlir::scf::YieldOp>(l, gen(*e.args[2]));
    return ifOp.getResult(0);
  }
  case Expr::Call:
    return genCall(e);
  case Expr::Recv: {
    Value dyn;
    auto port = portName(*e.args[0], &dyn);
    if (!port)
      return constInt(l, b.getI32Type(), 0);
    if (dyn) {
      sema.error(e.args[0]->loc) << "'recv' needs a constant port index; "
                                    "use 'select' to wait on several ports";
      return constInt(l, b.getI32Type(), 0);
    }
    return b.create<np::RecvOp>(l, toMLIRType(ctx, e.ty), *port);
  }
  case Expr::Field:
    return genField(e);
  case Expr::Index:
    return genIndex(e);
  case Expr::Cast:
    return genCast(e);
  case Expr::HeaderView:
  case Expr::ArrayLit:
    sema.error(e.loc) << "this expression can only initialise a 'let' or "
                         "'var'";
    return constInt(l, b.getI32Type(), 0);
  }
  return nullptr;
}

Value BodyGen::genBinary(const Expr &e) {
  mlir::Location l = loc(e.loc);
  using P = mlir::arith::CmpIPredicate;
  if (auto c = ce.tryEval(e))
    return constInt(l, toMLIRType(ctx, e.ty), c->i);
  llvm::StringRef op = e.text;
  // Short-circuit only when the right side has effects.
  if ((op == "&&" || op == "||") && !isPure(*e.args[1])) {
    Value a = gen(*e.args[0]);
    auto ifOp = b.create<mlir::scf::IfOp>(l, mlir::TypeRange{b.getI1Type()},
                                          a, true);
    mlir::OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    b.create<mlir::scf::YieldOp>(
        l, op == "&&" ? gen(*e.args[1]) : constInt(l, b.getI1Type(), 1));
    b.setInsertionPointToStart(&ifOp.getElseRegion().front());
    b.create<mlir::scf::YieldOp>(
        l, op == "&&" ? constInt(l, b.getI1Type(), 0) : gen(*e.args[1]));
    return ifOp.getResult(0);
  }
  Value a = gen(*e.args[0]);
  Value c = gen(*e.args[1]);
  const Ty &t = e.args[0]->ty;
  bool sgn = t.kind == Ty::Int && t.isSigned;
  if (op == "&&" || op == "&")
    return b.create<mlir::arith::AndIOp>(l, a, c);
  if (op == "||" || op == "|")
    return b.create<mlir::arith::OrIOp>(l, a, c);
  if (op == "^")
    return b.create<mlir::arith::XOrIOp>(l, a, c);
  if (op == "+")
    return b.create<mlir::arith::AddIOp>(l, a, c);
  if (op == "-")
    return b.create<mlir::arith::SubIOp>(l, a, c);
  if (op == "*")
    return b.create<mlir::arith::MulIOp>(l, a, c);
  if (op == "<<" || op == ">>") {
    unsigned wa = a.getType().getIntOrFloatBitWidth();
    unsigned wc = c.getType().getIntOrFloatBitWidth();
    if (wc < wa)
      c = b.create<mlir::arith::ExtUIOp>(l, a.getType(), c);
    else if (wc > wa) {
      // Clamp before truncating so that huge amounts still shift out.
      Value lim = constInt(l, c.getType(), wa);
      c = b.create<mlir::arith::MinUIOp>(l, c, lim);
      c = b.create<mlir::arith::TruncIOp>(l, a.getType(), c);
    }
    if (op == "<<")
      return b.create<mlir::arith::ShLIOp>(l, a, c);
    return sgn ? (Value)b.create<mlir::arith::ShRSIOp>(l, a, c)
               : (Value)b.create<mlir::arith::ShRUIOp>(l, a, c);
  }
  if (op == "/" || op == "%") {
    mlir::Type ty = a.getType();
    Value zero = constInt(l, ty, 0), one = constInt(l, ty, 1);
    Value isZero = b.create<mlir::arith::CmpIOp>(l, P::eq, c, zero);
    Value bad = isZero;
    if (sgn) {
      unsigned w = ty.getIntOrFloatBitWidth();
      Value minV = constInt(l, ty, 1ull << (w - 1));
      Value isMin = b.create<mlir::arith::CmpIOp>(l, P::eq, a, minV);
      Value isNeg1 = b.create<mlir::arith::CmpIOp>(l, P::eq, c,
                                                   constInt(l, ty, ~0ull));
      Value overflow = b.create<mlir::arith::AndIOp>(l, isMin, isNeg1);
      bad = b.create<mlir::arith::OrIOp>(l, isZero, overflow);
      Value safe = b.create<mlir::arith::SelectOp>(l, bad, one, c);
      Value q = op == "/" ? (Value)b.create<mlir::arith::DivSIOp>(l, a, safe)
                          : (Value)b.create<mlir::arith::RemSIOp>(l, a, safe);
      // MIN / -1 wraps to MIN; MIN % -1 is 0.
      Value ovRes = op == "/" ? minV : zero;
      q = b.create<mlir::arith::SelectOp>(l, overflow, ovRes, q);
      return b.create<mlir::arith::SelectOp>(l, isZero, zero, q);
    }
    Value safe = b.create<mlir::arith::SelectOp>(l, bad, one, c);
    Value q = op == "/" ? (Value)b.create<mlir::arith::DivUIOp>(l, a, safe)
                        : (Value)b.create<mlir::arith::RemUIOp>(l, a, safe);
    return b.create<mlir::arith::SelectOp>(l, isZero, zero, q);
  }
  P pred = op == "==" ? P::eq
           : op == "!=" ? P::ne
           : op == "<"  ? (sgn ? P::slt : P::ult)
           : op == "<=" ? (sgn ? P::sle : P::ule)
           : op == ">"  ? (sgn ? P::sgt : P::ugt)
                        : (sgn ? P::sge : P::uge);
  return b.create<mlir::arith::CmpIOp>(l, pred, a, c);
}

Value BodyGen::genCast(const Expr &e) {
  mlir::Location l = loc(e.loc);
  if (auto c = ce.tryEval(e))
    return constInt(l, toMLIRType(ctx, e.ty), c->i);
  Value a = gen(*e.args[0]);
  const Ty &from = e.args[0]->ty;
  if (e.ty.kind == Ty::Bool) {
    if (from.kind == Ty::Bool)
      return a;
    return b.create<mlir::arith::CmpIOp>(l, mlir::arith::CmpIPredicate::ne,
                                         a, constInt(l, a.getType(), 0));
  }
  mlir::Type to = toMLIRType(ctx, e.ty);
  unsigned wf = a.getType().getIntOrFloatBitWidth(), wt = e.ty.width;
  if (wf == wt)
    return a;
  if (wf > wt)
    return b.create<mlir::arith::TruncIOp>(l, to, a);
  if (from.kind == Ty::Int && from.isSigned)
    return b.create<mlir::arith::ExtSIOp>(l, to, a);
  return b.create<mlir::arith::ExtUIOp>(l, to, a);
}

Value BodyGen::genHeaderField(const Expr &view, const std::string &field,
                              Value newValue) {
  mlir::Location l = loc(view.loc);
  const RecordDecl *h = view.ty.record;
  Value pkt, off;
  if (view.kind == Expr::Name) {
    Binding *bd = lookup(view.text);
    pkt = bd->pkt;
    off = bd->offset;
  } else {
    pkt = gen(*view.args[0]);
    off = gen(*view.args[1]);
  }
  unsigned bitOff = 0, width = 0;
  Sema::headerField(*h, field, bitOff, width);
  Value bits = b.create<mlir::arith::MulIOp>(l, off, i32(l, 8));
  if (bitOff)
    bits = b.create<mlir::arith::AddIOp>(l, bits, i32(l, bitOff));
  auto hn = b.getStringAttr(h->name);
  auto fn = b.getStringAttr(field);
  if (newValue) {
    b.create<np::PktSetOp>(l, pkt, bits, newValue, width, hn, fn);
    return nullptr;
  }
  return b.create<np::PktGetOp>(l, b.getIntegerType(width), pkt, bits, width,
                                hn, fn);
}

Value BodyGen::genField(const Expr &e) {
  mlir::Location l = loc(e.loc);
  const Expr &base = *e.args[0];
  if (base.ty.kind == Ty::Header)
    return genHeaderField(base, e.text, {});
  if (base.ty.kind == Ty::Pkt)
    return b.create<np::MetaGetOp>(l, toMLIRType(ctx, e.ty), gen(base),
                                   e.text);
  std::string field;
  Value index;
  Value m = storageOf(e, field, index);
  if (!m) {
    sema.error(e.loc) << "cannot read this field";
    return constInt(l, b.getI32Type(), 0);
  }
  return index ? guardedLoad(m, index, e.ty) : loadScalar(m);
}

Value BodyGen::genIndex(const Expr &e) {
  mlir::Location l = loc(e.loc);
  const Expr &base = *e.args[0];
  if (base.ty.kind == Ty::Pkt) {
    Value p = gen(base);
    Value off = b.create<mlir::arith::MulIOp>(l, gen(*e.args[1]), i32(l, 8));
    return b.create<np::PktGetOp>(l, b.getI8Type(), p, off, 8, nullptr,
                                  nullptr);
  }
  if (e.ty.kind == Ty::Record) {
    sema.error(e.loc) << "a struct element is used through its fields";
    return constInt(l, b.getI32Type(), 0);
  }
  std::string field;
  Value index;
  Value m = storageOf(e, field, index);
  if (!m) {
    sema.error(e.loc) << "cannot index this expression";
    return constInt(l, b.getI32Type(), 0);
  }
  return guardedLoad(m, index, e.ty);
}

Value BodyGen::genCall(const Expr &e) {
  mlir::Location l = loc(e.loc);
  auto arg = [&](size_t i) { return gen(*e.args[i]); };
  switch (lookupBuiltin(e.text)) {
  case Builtin::Send:
    sendTo(*e.args[0], arg(1), e.loc);
    return nullptr;
  case Builtin::Drop:
    b.create<np::DropOp>(l, arg(0));
    return nullptr;
  case Builtin::Clone:
    return b.create<np::CloneOp>(l, np::PacketType::get(ctx), arg(0));
  case Builtin::NewPkt:
    return b.create<np::PktNewOp>(l, np::PacketType::get(ctx), arg(0));
  case Builtin::Len:
    if (e.args[0]->ty.kind == Ty::Array) {
      if (auto c = ce.tryEval(e))
        return i32(l, c->i);
      Binding *bd = lookup(e.args[0]->text);
      uint64_t n = 0;
      if (bd && bd->kind == Binding::Var)
        n = mlir::cast<mlir::MemRefType>(bd->value.getType()).getDimSize(0);
      else if (bd && bd->kind == Binding::State)
        n = mlir::cast<mlir::MemRefType>(stateRef(bd->state).getType())
                .getDimSize(0);
      return i32(l, n);
    }
    return b.create<np::PktLenOp>(l, b.getI32Type(), arg(0));
  case Builtin::DeviceRecv:
    return b.create<np::DeviceRecvOp>(l, np::PacketType::get(ctx), arg(0));
  case Builtin::DeviceSend:
    b.create<np::DeviceSendOp>(l, arg(0), arg(1));
    return nullptr;
  case Builtin::Strip:
    return b.create<np::PktPullOp>(l, b.getI1Type(), arg(0), arg(1));
  case Builtin::Unstrip:
    return b.create<np::PktPushOp>(l, b.getI1Type(), arg(0), arg(1));
  case Builtin::Truncate:
    b.create<np::PktTruncateOp>(l, arg(0), arg(1));
    return nullptr;
  case Builtin::Min:
  case Builtin::Max: {
    Value a = arg(0), c = arg(1);
    bool sgn = e.ty.isSigned;
    bool isMin = lookupBuiltin(e.text) == Builtin::Min;
    auto pred = isMin ? (sgn ? mlir::arith::CmpIPredicate::slt
                             : mlir::arith::CmpIPredicate::ult)
                      : (sgn ? mlir::arith::CmpIPredicate::sgt
                             : mlir::arith::CmpIPredicate::ugt);
    Value pick = b.create<mlir::arith::CmpIOp>(l, pred, a, c);
    return b.create<mlir::arith::SelectOp>(l, pick, a, c);
  }
  case Builtin::Classify:
    return genClassify(e);
  case Builtin::TryRecv:
  case Builtin::None:
    break;
  }
  sema.error(e.loc) << "unknown function '" << e.text << "'";
  return constInt(l, b.getI32Type(), 0);
}

/// Compiles Click classifier patterns into compares at constant offsets: the
/// result is the index of the first matching pattern, or the number of
/// patterns when none matches.
Value BodyGen::genClassify(const Expr &e) {
  mlir::Location l = loc(e.loc);
  Value p = gen(*e.args[0]);
  Binding *bd = lookup(e.args[1]->text);
  if (!bd || bd->kind != Binding::Const || bd->cval.kind != CValue::List) {
    sema.error(e.args[1]->loc) << "'classify' needs a parameter holding "
                                  "pattern strings";
    return i32(l, 0);
  }
  const auto &pats = bd->cval.list;
  Value result = i32(l, pats.size());
  for (size_t k = pats.size(); k-- > 0;) {
    std::vector<PatternClause> clauses;
    std::string err;
    if (!parseClassifierPattern(pats[k].s, clauses, err)) {
      sema.error(pats[k].loc) << "bad classifier pattern: " << err;
      return i32(l, 0);
    }
    Value match = constInt(l, b.getI1Type(), 1);
    for (const PatternClause &c : clauses) {
      // Compare up to 8 bytes at a time.
      for (size_t at = 0; at < c.value.size(); at += 8) {
        size_t n = std::min<size_t>(8, c.value.size() - at);
        uint64_t v = 0, m = 0;
        for (size_t i = 0; i < n; ++i) {
          v = v << 8 | c.value[at + i];
          m = m << 8 | c.mask[at + i];
        }
        if (m == 0)
          continue;
        mlir::Type t = b.getIntegerType(n * 8);
        Value bits = i32(l, (c.offset + at) * 8);
        Value got = b.create<np::PktGetOp>(l, t, p, bits, n * 8, nullptr,
                                           nullptr);
        if (m != (n == 8 ? ~0ull : (1ull << (n * 8)) - 1))
          got = b.create<mlir::arith::AndIOp>(l, got, constInt(l, t, m));
        // Bytes past the end of a short packet read as 0; a short packet
        // must not match a pattern that needs those bytes.
        Value eq = b.create<mlir::arith::CmpIOp>(
            l, mlir::arith::CmpIPredicate::eq, got, constInt(l, t, v));
        Value need = i32(l, c.offset + at + n);
        Value len = b.create<np::PktLenOp>(l, b.getI32Type(), p);
        Value longEnough = b.create<mlir::arith::CmpIOp>(
            l, mlir::arith::CmpIPredicate::uge, len, need);
        eq = b.create<mlir::arith::AndIOp>(l, eq, longEnough);
        match = b.create<mlir::arith::AndIOp>(l, match, eq);
      }
    }
    result = b.create<mlir::arith::SelectOp>(l, match, i32(l, k), result);
  }
  return result;
}
