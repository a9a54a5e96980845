//===- MLIRGenTable.cpp - lpm and hash tables in element state ------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// A table is one i64 memref in state: the slot words keys and values pass
// through, then libnprt's region (see np.table). Keys and values are packed
// into 64-bit words as Sema::tableWords lays them out: fields in order, a
// field that does not fit in what is left of a word starts the next one.
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

namespace {
/// Where one scalar of a key or value lives: word and bit offset.
struct Place {
  unsigned word, bit, width;
  Ty ty;
};
} // namespace

static std::vector<Place> layout(Sema &sema, const Ty &t) {
  auto bits = [](const Ty &x) -> unsigned {
    return x.kind == Ty::Int ? x.width : x.kind == Ty::Bool ? 1 : 64;
  };
  std::vector<Place> out;
  if (t.kind != Ty::Record)
    return {{0, 0, bits(t), t}};
  unsigned word = 0, used = 0;
  for (const Field &f : t.record->fields) {
    Ty ft = sema.resolve(*f.type, false);
    unsigned w = bits(ft);
    if (used + w > 64) {
      ++word;
      used = 0;
    }
    out.push_back({word, used, w, ft});
    used += w;
  }
  return out;
}

BodyGen::TableInfo BodyGen::tableInfo(const Expr &table) {
  Binding *bd = lookup(table.text);
  TableInfo t;
  t.ty = bd->ty;
  t.mem = stateRef(bd->state);
  t.kind = t.ty.kind == Ty::Lpm ? np::TableKind::Lpm : np::TableKind::Hash;
  t.keyWords = t.ty.kind == Ty::Lpm ? 1 : sema.tableWords(*t.ty.key);
  t.valueWords = sema.tableWords(*t.ty.elem);
  return t;
}

Value BodyGen::tableOp(mlir::Location l, const TableInfo &t, np::TableOpKind op,
                       mlir::ValueRange args) {
  mlir::Type rt = op == np::TableOpKind::Count ? b.getI32Type() : b.getI1Type();
  return b.create<np::TableOp>(
      l, rt, t.mem, args, op, t.kind, (uint32_t)t.ty.len,
      (uint32_t)(t.kind == np::TableKind::Lpm ? 1 : t.keyWords),
      (uint32_t)(t.kind == np::TableKind::Lpm ? 1 : t.valueWords));
}

/// The scalars of a key or value expression, one per layout place: the
/// value itself, or each field of a struct (a constructor call, a struct
/// variable, state, constant or an element of an array of them).
llvm::SmallVector<Value> BodyGen::scalarsOf(const Expr &e) {
  mlir::Location l = loc(e.loc);
  if (e.ty.kind != Ty::Record)
    return {gen(e)};
  llvm::SmallVector<Value> out;
  const auto &fields = e.ty.record->fields;
  if (e.kind == Expr::Call) { // a constructor: Sema filled every field
    for (const ExprPtr &a : e.args)
      out.push_back(gen(*a));
    return out;
  }
  if (auto c = ce.tryEval(e)) {
    for (size_t k = 0; k < fields.size(); ++k)
      out.push_back(
          constInt(l, toMLIRType(ctx, sema.resolve(*fields[k].type, false)),
                   c->list[k].i));
    return out;
  }
  for (const Field &f : fields) {
    std::string field = f.name;
    Value index;
    // storageOf reads `e.f` through a Field node; build the lookup by hand.
    const Expr *base = &e;
    Value m;
    if (base->kind == Expr::Index) {
      index = toIndex(gen(*base->args[1]), base->args[1]->ty);
      Binding *bd = lookup(base->args[0]->text);
      if (!bd || bd->kind == Binding::Const)
        m = constArray(*base->args[0], field);
      else if (bd->kind == Binding::State)
        m = stateRef(bd->state + "." + field);
    } else if (base->kind == Expr::Name) {
      Binding *bd = lookup(base->text);
      if (bd && bd->kind == Binding::Var)
        m = bd->fields.lookup(field);
      else if (bd && bd->kind == Binding::State)
        m = stateRef(bd->state + "." + field);
    }
    if (!m) {
      sema.error(e.loc) << "a struct key or value is a constructor call, a "
                           "struct variable, state or constant, or an "
                           "element of an array of them";
      return {};
    }
    Ty ft = sema.resolve(*f.type, false);
    out.push_back(index ? guardedLoad(m, index, ft) : loadScalar(m));
  }
  return out;
}

/// Packs the scalars of `e` into slot words `first`, `first + 1`, ...
bool BodyGen::storeTableWords(const TableInfo &t, unsigned first, const Expr &e,
                              unsigned words) {
  mlir::Location l = loc(e.loc);
  auto scalars = scalarsOf(e);
  auto places = layout(sema, e.ty);
  if (scalars.size() != places.size())
    return false;
  mlir::Type i64 = b.getI64Type();
  llvm::SmallVector<Value> w(words, constInt(l, i64, 0));
  for (size_t k = 0; k < places.size(); ++k) {
    Value v = scalars[k];
    if (!v.getType().isInteger(64))
      v = b.create<mlir::arith::ExtUIOp>(l, i64, v);
    if (places[k].bit)
      v = b.create<mlir::arith::ShLIOp>(l, v, constInt(l, i64, places[k].bit));
    w[places[k].word] = b.create<mlir::arith::OrIOp>(l, w[places[k].word], v);
  }
  for (unsigned k = 0; k < words; ++k)
    b.create<mlir::memref::StoreOp>(
        l, w[k], t.mem,
        mlir::ValueRange{b.create<mlir::arith::ConstantIndexOp>(l, first + k)});
  return true;
}

Value BodyGen::genTableCall(const Expr &e) {
  mlir::Location l = loc(e.loc);
  TableInfo t = tableInfo(*e.args[0]);
  Builtin which = lookupBuiltin(e.text);
  if (which == Builtin::Len)
    return tableOp(l, t, np::TableOpKind::Count, {});
  if (which == Builtin::Clear) {
    tableOp(l, t, np::TableOpKind::Clear, {});
    return nullptr;
  }
  bool ins = which == Builtin::Insert;
  auto op = ins ? np::TableOpKind::Insert : np::TableOpKind::Remove;
  if (t.kind == np::TableKind::Lpm) {
    Value pfx = gen(*e.args[1]);
    Value addr = prefixField(l, pfx, "addr");
    Value len = b.create<mlir::arith::ExtUIOp>(l, b.getI32Type(),
                                               prefixField(l, pfx, "len"));
    if (ins && !storeTableWords(t, 0, *e.args[2], 1))
      return constInt(l, b.getI1Type(), 0);
    return tableOp(l, t, op, {addr, len});
  }
  if (!storeTableWords(t, 0, *e.args[1], t.keyWords) ||
      (ins && !storeTableWords(t, t.keyWords, *e.args[2], t.valueWords)))
    return constInt(l, b.getI1Type(), 0);
  return tableOp(l, t, op, {});
}

/// `if let v = lookup(t, key) { ... } else { ... }`: `v` is the value (a
/// struct value is bound field by field, like a struct variable).
void BodyGen::genLookup(const Stmt &s) {
  mlir::Location l = loc(s.loc);
  const Expr &call = *s.init;
  TableInfo t = tableInfo(*call.args[0]);
  Value found;
  unsigned valueAt = 0;
  if (t.kind == np::TableKind::Lpm) {
    found = tableOp(l, t, np::TableOpKind::Lookup, {gen(*call.args[1])});
  } else {
    if (!storeTableWords(t, 0, *call.args[1], t.keyWords))
      return;
    found = tableOp(l, t, np::TableOpKind::Lookup, {});
    valueAt = t.keyWords;
  }
  auto ifOp = b.create<mlir::scf::IfOp>(l, found, !s.elseBody.empty());
  mlir::OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  const Ty &vt = *t.ty.elem;
  llvm::SmallVector<Value> scalars;
  mlir::Type i64 = b.getI64Type();
  for (const Place &p : layout(sema, vt)) {
    Value w = b.create<mlir::memref::LoadOp>(
        l, t.mem,
        mlir::ValueRange{
            b.create<mlir::arith::ConstantIndexOp>(l, valueAt + p.word)});
    if (p.bit)
      w = b.create<mlir::arith::ShRUIOp>(l, w, constInt(l, i64, p.bit));
    mlir::Type st = toMLIRType(ctx, p.ty);
    if (st != i64)
      w = b.create<mlir::arith::TruncIOp>(l, st, w);
    scalars.push_back(w);
  }
  if (vt.kind != Ty::Record) {
    genIfLetArms(s, ifOp, vt, scalars[0]);
    return;
  }
  // A struct value: a variable per field, as `var v: S` makes.
  Binding bd;
  bd.kind = Binding::Var;
  bd.ty = vt;
  const auto &fields = vt.record->fields;
  for (size_t k = 0; k < fields.size(); ++k) {
    Value m = allocLocal(sema.resolve(*fields[k].type, false), 1);
    storeScalar(m, scalars[k]);
    bd.fields[fields[k].name] = m;
  }
  genIfLetArms(s, ifOp, bd);
}
