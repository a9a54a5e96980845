//===- ConstEval.cpp - compile-time values of NPL expressions -------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Parameters, constants, array sizes and loop bounds are evaluated while
// elements are specialised; folded integers wrap exactly as the generated
// code does.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/ConstFold.h"
#include "compiler/frontend/MLIRGenImpl.h"

#include "mlir/IR/Builders.h"

using namespace npcc;
using namespace npcc::ast;

std::string CValue::key() const {
  switch (kind) {
  case Int:
    return std::to_string(i);
  case Bool:
    return i ? "true" : "false";
  case Str:
    return "\"" + s + "\"";
  case Prefix:
    return "p" + std::to_string(i);
  case List:
  case Record: {
    std::string k = kind == List ? "[" : record->name + "(";
    for (const CValue &v : list)
      k += v.key() + ",";
    return k + (kind == List ? "]" : ")");
  }
  }
  return "";
}

mlir::Attribute CValue::toAttr(mlir::Builder &b) const {
  switch (kind) {
  case Int:
  case Prefix:
    return b.getI64IntegerAttr((int64_t)i);
  case Bool:
    return b.getBoolAttr(i != 0);
  case Str:
    return b.getStringAttr(s);
  case List:
  case Record: {
    llvm::SmallVector<mlir::Attribute> as;
    for (const CValue &v : list)
      as.push_back(v.toAttr(b));
    return b.getArrayAttr(as);
  }
  }
  return {};
}

std::optional<CValue> ConstEval::eval(const Expr &e, llvm::StringRef what) {
  return evalImpl(e, true, what);
}
std::optional<CValue> ConstEval::tryEval(const Expr &e) {
  return evalImpl(e, false, "");
}

/// Truncates `v` to the width of `t` (sign-extending signed types), so that
/// folded constants wrap exactly like the generated code.
uint64_t ConstEval::wrapTo(uint64_t v, const Ty &t) {
  if (t.kind != Ty::Int || t.width >= 64)
    return v;
  uint64_t mask = (1ull << t.width) - 1;
  v &= mask;
  if (t.isSigned && (v >> (t.width - 1)))
    v |= ~mask;
  return v;
}

uint64_t npcc::foldBinary(llvm::StringRef op, uint64_t u, uint64_t v, bool sgn,
                          bool &cmp) {
  int64_t x = (int64_t)u, y = (int64_t)v;
  cmp = false;
  if (op == "+")
    return u + v;
  if (op == "-")
    return u - v;
  if (op == "*")
    return u * v;
  // INT64_MIN / -1 overflows in C; in NPL it wraps as at run time (the
  // quotient is -x, the remainder 0).
  if (op == "/")
    return v == 0 ? 0 : sgn ? (y == -1 ? 0 - u : (uint64_t)(x / y)) : u / v;
  if (op == "%")
    return v == 0 ? 0 : sgn ? (y == -1 ? 0 : (uint64_t)(x % y)) : u % v;
  if (op == "&" || op == "&&")
    return u & v;
  if (op == "|" || op == "||")
    return u | v;
  if (op == "^")
    return u ^ v;
  if (op == "<<")
    return v >= 64 ? 0 : u << v;
  if (op == ">>") {
    if (v >= 64)
      return sgn && x < 0 ? ~uint64_t(0) : 0;
    return sgn ? (uint64_t)(x >> v) : u >> v;
  }
  cmp = true;
  if (op == "==")
    return u == v;
  if (op == "!=")
    return u != v;
  if (op == "<")
    return sgn ? x < y : u < v;
  if (op == "<=")
    return sgn ? x <= y : u <= v;
  if (op == ">")
    return sgn ? x > y : u > v;
  return sgn ? x >= y : u >= v;
}

std::optional<CValue> ConstEval::evalImpl(const Expr &e, bool report,
                                          llvm::StringRef what) {
  const Env &env = *envp;
  auto fail = [&]() -> std::optional<CValue> {
    if (report)
      sema.error(e.loc) << what << " is not a compile-time constant";
    return std::nullopt;
  };
  CValue r;
  r.loc = e.loc;
  switch (e.kind) {
  case Expr::IntLit:
    r.i = e.value;
    return r;
  case Expr::BoolLit:
    r.kind = CValue::Bool;
    r.i = e.value;
    return r;
  case Expr::StrLit:
    r.kind = CValue::Str;
    r.s = e.text;
    r.define = e.define;
    return r;
  case Expr::Name: {
    auto it = env.find(e.text);
    if (it != env.end())
      return it->second;
    if (const ConstDecl *c = sema.lookupConst(e.text)) {
      // A module constant is read at module scope, and the functions its
      // value calls run even when the reader only asks whether the name
      // is constant (a body reading `const K: u32 = f(ROUTES);`).
      Env none;
      ConstEval top(sema, none);
      top.allowSilentCalls(true);
      auto v = top.evalImpl(*c->value, report, what);
      if (v && v->kind != CValue::List)
        v->i = wrapTo(v->i, c->value->ty);
      return v;
    }
    return fail();
  }
  case Expr::Unary: {
    auto a = evalImpl(*e.args[0], report, what);
    if (!a)
      return a;
    if (e.text == "!")
      a->i = !a->i;
    else if (e.text == "-")
      a->i = wrapTo(0 - a->i, e.ty);
    else
      a->i = wrapTo(~a->i, e.ty);
    return a;
  }
  case Expr::Binary: {
    auto a = evalImpl(*e.args[0], report, what);
    if (!a)
      return a;
    // `len(xs) > 2 && xs[2].port > 0`: the right side only when needed.
    if ((e.text == "&&" && !a->i) || (e.text == "||" && a->i)) {
      r.kind = CValue::Bool;
      r.i = a->i != 0;
      return r;
    }
    auto b = evalImpl(*e.args[1], report, what);
    if (!b)
      return b;
    const Ty &ot = e.args[0]->ty;
    bool cmp = false;
    uint64_t res = foldBinary(e.text, a->i, b->i, ot.isSignedInt(), cmp);
    r.kind = cmp || a->kind == CValue::Bool ? CValue::Bool : CValue::Int;
    r.i = r.kind == CValue::Int ? wrapTo(res, e.ty) : res;
    return r;
  }
  case Expr::Cond: {
    auto c = evalImpl(*e.args[0], report, what);
    if (!c)
      return c;
    return evalImpl(*e.args[c->i ? 1 : 2], report, what);
  }
  case Expr::Cast: {
    auto a = evalImpl(*e.args[0], report, what);
    if (!a)
      return a;
    if (e.ty.kind == Ty::Bool) {
      a->kind = CValue::Bool;
      a->i = a->i != 0;
    } else {
      const Ty &from = e.args[0]->ty;
      a->i = wrapTo(wrapTo(a->i, from), e.ty);
      a->kind = CValue::Int;
    }
    return a;
  }
  case Expr::ArrayLit: {
    r.kind = CValue::List;
    for (const ExprPtr &x : e.args) {
      auto v = evalImpl(*x, report, what);
      if (!v)
        return v;
      r.list.push_back(*v);
    }
    return r;
  }
  case Expr::Field: {
    auto base = evalImpl(*e.args[0], report, what);
    if (!base)
      return base;
    if (base->kind == CValue::Prefix) {
      uint64_t addr = base->i & 0xffffffff, len = base->i >> 32;
      r.i = e.text == "addr"  ? addr
            : e.text == "len" ? len
                              : (0xffffffffull << (32 - len)) & 0xffffffff;
      return r;
    }
    if (base->kind == CValue::Record)
      for (size_t k = 0; k < base->record->fields.size(); ++k)
        if (base->record->fields[k].name == e.text)
          return base->list[k];
    return fail();
  }
  case Expr::Index: {
    auto base = evalImpl(*e.args[0], report, what);
    if (!base || base->kind != CValue::List)
      return base ? fail() : base;
    auto index = evalImpl(*e.args[1], report, what);
    if (!index)
      return index;
    if (index->i >= base->list.size()) {
      if (report)
        sema.error(e.args[1]->loc)
            << "index " << index->i << " is out of bounds of an array of "
            << base->list.size();
      return std::nullopt;
    }
    return base->list[index->i];
  }
  case Expr::Call: {
    Builtin which = lookupBuiltin(e.text);
    if ((which == Builtin::Min || which == Builtin::Max) &&
        e.args.size() == 2) {
      auto a = evalImpl(*e.args[0], report, what);
      auto b = a ? evalImpl(*e.args[1], report, what) : a;
      if (!b)
        return b;
      bool sgn = e.ty.isSignedInt();
      bool less = sgn ? (int64_t)a->i < (int64_t)b->i : a->i < b->i;
      r.i = (which == Builtin::Min) == less ? a->i : b->i;
      return r;
    }
    if (which == Builtin::Prefix && e.args.size() == 2) {
      auto addr = evalImpl(*e.args[0], report, what);
      auto len = addr ? evalImpl(*e.args[1], report, what) : addr;
      if (!len)
        return len;
      if (len->i > 32) {
        if (report)
          sema.error(e.args[1]->loc)
              << "prefix length " << len->i << " is not 0..32";
        return std::nullopt;
      }
      r.kind = CValue::Prefix;
      r.i = len->i << 32 | (addr->i & 0xffffffff);
      return r;
    }
    if (const FnDecl *f = sema.lookupFn(e.text); f && (report || silentCalls))
      return evalFnCall(e, *f, report, what);
    if (const RecordDecl *rec = sema.lookupRecord(e.text);
        rec && !rec->isHeader)
      return evalConstructor(e, *rec, report, what);
    if (which == Builtin::Len && e.args.size() == 1 &&
        e.args[0]->kind == Expr::StrLit) {
      r.i = e.args[0]->text.size();
      return r;
    }
    if (which == Builtin::Len && e.args.size() == 1 &&
        e.args[0]->kind == Expr::Name) {
      auto it = env.find(e.args[0]->text);
      if (it != env.end() && it->second.kind == CValue::Str) {
        r.i = it->second.s.size();
        return r;
      }
      if (it != env.end() && it->second.kind == CValue::List) {
        r.i = it->second.list.size();
        return r;
      }
      if (const ConstDecl *c = sema.lookupConst(e.args[0]->text))
        if (c->value->kind == Expr::ArrayLit) {
          r.i = c->value->args.size();
          return r;
        }
    }
    return fail();
  }
  default:
    return fail();
  }
}

/// A struct built at compile time. Arguments were not necessarily checked
/// by Sema (instance arguments are evaluated directly), so defaults are
/// filled here by the same rule as Sema::checkConstructor.
std::optional<CValue> ConstEval::evalConstructor(const Expr &e,
                                                 const RecordDecl &rec,
                                                 bool report,
                                                 llvm::StringRef what) {
  size_t n = rec.fields.size(), given = e.args.size();
  size_t defaulted = llvm::count_if(
      rec.fields, [](const Field &f) { return f.defaultValue != nullptr; });
  if (given > n || given + defaulted < n) {
    if (report)
      sema.error(e.loc) << "'" << rec.name << "' has " << n << " field"
                        << (n == 1 ? "" : "s") << " (" << defaulted
                        << " with a default), " << given << " given";
    return std::nullopt;
  }
  CValue r;
  r.kind = CValue::Record;
  r.record = &rec;
  r.loc = e.loc;
  size_t skip = n - given, next = 0;
  for (const Field &f : rec.fields) {
    bool useDefault = skip && f.defaultValue;
    if (useDefault)
      --skip;
    const Expr &x = useDefault ? *f.defaultValue : *e.args[next++];
    auto v = useDefault ? ConstEval(sema, Env()).evalImpl(x, report, what)
                        : evalImpl(x, report, what);
    if (!v)
      return v;
    Ty ft = sema.resolve(*f.type, false);
    if (!CValue::fits(*v, ft)) {
      if (report)
        sema.error(x.loc) << "field '" << f.name << "' of '" << rec.name
                          << "' is of type '" << ft.str() << "'";
      return std::nullopt;
    }
    if (ft.kind == Ty::Int)
      v->i = wrapTo(v->i, ft);
    r.list.push_back(*v);
  }
  return r;
}

bool CValue::fits(const CValue &v, const Ty &t) {
  switch (t.kind) {
  case Ty::Int:
    return v.kind == Int &&
           (t.width >= 64 || t.isSigned || (v.i >> t.width) == 0);
  case Ty::Bool:
    return v.kind == Bool;
  case Ty::Str:
    return v.kind == Str;
  case Ty::Prefix:
    return v.kind == Prefix;
  case Ty::Record:
    return v.kind == Record && v.record == t.record;
  case Ty::Array:
    return v.kind == List && (!t.len || t.len == v.list.size()) &&
           llvm::all_of(v.list,
                        [&](const CValue &x) { return fits(x, *t.elem); });
  default:
    return false;
  }
}
