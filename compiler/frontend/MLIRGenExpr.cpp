//===- MLIRGenExpr.cpp - NPL expressions to arith and np ops --------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Constant subexpressions are folded with the same evaluator that computes
// parameters, so a folded value wraps exactly as the generated code would.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/BodyGen.h"

using namespace npcc;
using namespace npcc::ast;
namespace np = npcc::np;
using mlir::Value;

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

/// Whether a call of `b` has no effect (Builtins.def's
/// NPL_BUILTIN_SPECULATABLE rows).
static bool isSpeculatable(Builtin b) {
  switch (b) {
#define NPL_BUILTIN_SPECULATABLE(Id) case Builtin::Id:
#include "dialects/NP/IR/Builtins.def"
    return true;
  default:
    return false;
  }
}

static bool isPure(const Expr &e) {
  if (e.kind == Expr::Recv)
    return false;
  if (e.kind == Expr::Call && !isSpeculatable(lookupBuiltin(e.text)))
    return false;
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
      if (bd->cval.kind == CValue::Str) {
        sema.error(e.loc) << "'" << e.text
                          << "' holds a string; use it as an argument";
        return constInt(l, b.getI32Type(), 0);
      }
      if (bd->cval.kind == CValue::List || bd->cval.kind == CValue::Record) {
        sema.error(e.loc) << "'" << e.text << "' is an aggregate; "
                          << (bd->cval.kind == CValue::List ? "index it"
                                                            : "use its fields");
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
    return emitIntUnary(b, l, e.text, a);
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
    auto ifOp =
        b.create<mlir::scf::IfOp>(l, mlir::TypeRange{b.getI1Type()}, a, true);
    mlir::OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    b.create<mlir::scf::YieldOp>(l, op == "&&" ? gen(*e.args[1])
                                               : constInt(l, b.getI1Type(), 1));
    b.setInsertionPointToStart(&ifOp.getElseRegion().front());
    b.create<mlir::scf::YieldOp>(l, op == "&&" ? constInt(l, b.getI1Type(), 0)
                                               : gen(*e.args[1]));
    return ifOp.getResult(0);
  }
  Value a = gen(*e.args[0]);
  Value c = gen(*e.args[1]);
  bool sgn = e.args[0]->ty.isSignedInt();
  if (Value v = emitPlainBinary(b, l, op, a, c, sgn))
    return v;
  if (op == "<<" || op == ">>")
    return emitShift(b, l, op, a, c, sgn);
  if (op == "/" || op == "%") {
    mlir::Type ty = a.getType();
    Value zero = constInt(l, ty, 0), one = constInt(l, ty, 1);
    Value isZero = b.create<mlir::arith::CmpIOp>(l, P::eq, c, zero);
    Value bad = isZero;
    if (sgn) {
      unsigned w = ty.getIntOrFloatBitWidth();
      Value minV = constInt(l, ty, 1ull << (w - 1));
      Value isMin = b.create<mlir::arith::CmpIOp>(l, P::eq, a, minV);
      Value isNeg1 =
          b.create<mlir::arith::CmpIOp>(l, P::eq, c, constInt(l, ty, ~0ull));
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
  llvm_unreachable("Sema admits no other binary operator");
}

Value BodyGen::genCast(const Expr &e) {
  mlir::Location l = loc(e.loc);
  if (auto c = ce.tryEval(e))
    return constInt(l, toMLIRType(ctx, e.ty), c->i);
  return emitCast(b, l, gen(*e.args[0]), e.args[0]->ty, e.ty);
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
  // A 64-bit byte offset and the field's constant bit position: no offset
  // can overflow into a small one.
  Value bytes = packetByteOffset(b, l, off);
  auto hn = b.getStringAttr(h->name);
  auto fn = b.getStringAttr(field);
  if (newValue) {
    b.create<np::PktSetOp>(l, pkt, bytes, newValue, width, bitOff, hn, fn);
    return nullptr;
  }
  return b.create<np::PktGetOp>(l, b.getIntegerType(width), pkt, bytes, width,
                                bitOff, hn, fn);
}

/// A prefix is `len << 32 | addr` in an i64; its mask is all ones shifted
/// left by 32 - len, cut to 32 bits (len 0 shifts by 32: no bits).
Value BodyGen::prefixField(mlir::Location l, Value v, llvm::StringRef field) {
  mlir::Type i64 = b.getI64Type();
  if (field == "addr")
    return b.create<mlir::arith::TruncIOp>(l, b.getI32Type(), v);
  Value len = b.create<mlir::arith::ShRUIOp>(l, v, constInt(l, i64, 32));
  if (field == "len")
    return b.create<mlir::arith::TruncIOp>(l, b.getI8Type(), len);
  Value shift = b.create<mlir::arith::SubIOp>(l, constInt(l, i64, 32), len);
  Value ones =
      b.create<mlir::arith::ShLIOp>(l, constInt(l, i64, 0xffffffff), shift);
  return b.create<mlir::arith::TruncIOp>(l, b.getI32Type(), ones);
}

Value BodyGen::genField(const Expr &e) {
  mlir::Location l = loc(e.loc);
  const Expr &base = *e.args[0];
  if (base.ty.kind == Ty::Header)
    return genHeaderField(base, e.text, {});
  if (base.ty.kind == Ty::Pkt) {
    unsigned w;
    if (isPacketMetaField(e.text, w))
      return b.create<np::MetaGetOp>(l, toMLIRType(ctx, e.ty), gen(base),
                                     e.text);
    return b.create<np::AnnoGetOp>(l, toMLIRType(ctx, e.ty), gen(base), e.text,
                                   sema.lookupAnnotation(e.text)->slot);
  }
  if (auto c = ce.tryEval(e))
    return constInt(l, toMLIRType(ctx, e.ty), c->i);
  if (base.ty.kind == Ty::Prefix)
    return prefixField(l, gen(base), e.text);
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
    Value off = packetByteOffset(b, l, gen(*e.args[1]));
    return b.create<np::PktGetOp>(l, b.getI8Type(), p, off, 8, 0, nullptr,
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

/// A call of a user function: its body, inlined here with its parameters
/// bound to the arguments. It sees only its parameters and the module's
/// constants, and its `return` leaves only its own body.
Value BodyGen::inlineCall(const Expr &e, const ast::FnDecl &f) {
  mlir::Location l = loc(e.loc);
  llvm::SmallVector<Value> args;
  for (const ExprPtr &a : e.args)
    args.push_back(gen(*a));
  auto callerScopes = std::move(scopes);
  auto callerLoops = std::move(loops);
  // The body sees its parameters and the module's constants: the caller's
  // element parameters must not fold names the function binds.
  static const Env noParams;
  const Env &callerEnv = ce.setEnv(noParams);
  Value callerReturn = returnFlag, callerResult = resultSlot;
  scopes.clear();
  loops.clear();
  scopes.emplace_back();
  for (size_t k = 0; k < f.params.size(); ++k) {
    Binding bd;
    bd.ty = sema.resolve(*f.params[k].type, false);
    bd.value = args[k];
    scopes.back()[f.params[k].name] = bd;
  }
  returnFlag = allocLocal(Ty::of(Ty::Bool), 1);
  storeScalar(returnFlag, constInt(l, b.getI1Type(), 0));
  resultSlot = nullptr;
  if (f.result)
    resultSlot = allocLocal(sema.resolve(*f.result, false), 1);
  genBlock(f.body);
  Value result = resultSlot ? loadScalar(resultSlot) : Value();
  scopes = std::move(callerScopes);
  loops = std::move(callerLoops);
  ce.setEnv(callerEnv);
  returnFlag = callerReturn;
  resultSlot = callerResult;
  return result;
}
