//===- SemaExpr.cpp - type checking of NPL expressions --------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Integer literals take the type of their context (coerce); calls of
// builtins are checked in SemaBuiltins.cpp, calls of functions and struct
// constructors here.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/Sema.h"

using namespace npcc;
using namespace npcc::ast;

const Ty *Sema::expectPort(Expr &e, bool wantInput) {
  Expr *base = &e;
  if (e.kind == Expr::Index) {
    base = e.args[0].get();
    coerce(*e.args[1], Ty::integer(32, false));
  }
  if (base->kind != Expr::Name) {
    error(e.loc) << "expected a port";
    return nullptr;
  }
  const Symbol *s = lookup(base->text);
  if (!s) {
    error(base->loc) << "use of undeclared port '" << base->text << "'";
    return nullptr;
  }
  if (s->kind != Symbol::Port) {
    error(base->loc) << "'" << base->text << "' is not a port";
    return nullptr;
  }
  bool isArray = s->ty.len != 0;
  if (isArray != (e.kind == Expr::Index)) {
    error(e.loc) << (isArray ? "port array '" + base->text + "' needs an index"
                             : "port '" + base->text + "' is not an array");
    return nullptr;
  }
  bool isInput = s->ty.isSigned;
  if (isInput != wantInput) {
    errorWithNote(e.loc,
                  "'" + base->text + "' is an " +
                      (isInput ? "input" : "output") + " port; expected an " +
                      (wantInput ? "input" : "output") + " port",
                  s->loc, "declared here");
    return nullptr;
  }
  e.ty = s->ty;
  return s->ty.elem.get();
}

bool Sema::coerce(Expr &e, const Ty &to) {
  Ty t = e.checked ? e.ty : checkExpr(e, &to);
  if (t.kind == Ty::Error || to.kind == Ty::Error)
    return false;
  if (t.kind == Ty::IntLit && to.kind == Ty::Int) {
    // Fold the literal expression to decide whether it fits.
    bool neg = e.kind == Expr::Unary && e.text == "-";
    uint64_t mag = neg ? e.args[0]->value : e.value;
    bool fits;
    if (neg && e.args[0]->kind != Expr::IntLit && !to.isSigned) {
      error(e.loc) << "negated literal expression does not fit in unsigned '"
                   << to.str() << "'";
      return false;
    }
    if (e.kind == Expr::IntLit || (neg && e.args[0]->kind == Expr::IntLit)) {
      if (neg) // -2^(w-1) is the smallest; for i64 that is -2^63
        fits = to.isSigned && mag <= (1ull << (to.width - 1));
      else if (to.isSigned)
        fits =
            to.width == 64 ? mag <= INT64_MAX : mag < (1ull << (to.width - 1));
      else
        fits = to.width == 64 || mag < (1ull << to.width);
      if (!fits) {
        error(e.loc) << "literal " << (neg ? "-" : "") << mag
                     << " does not fit in '" << to.str() << "'";
        return false;
      }
    }
    // Give nested literal operands the target type too, checking that each
    // fits (`300 + 1` is not a u8). The literal under a unary minus was
    // checked above with its sign.
    for (ExprPtr &a : e.args)
      if (a->ty.kind == Ty::IntLit &&
          !(e.kind == Expr::Binary && (e.text == "<<" || e.text == ">>") &&
            a != e.args[0])) {
        if (neg && a->kind == Expr::IntLit)
          a->ty = to;
        else if (!coerce(*a, to))
          return false;
      }
    e.ty = to;
    return true;
  }
  if (t.kind == Ty::Array && to.kind == Ty::Array && e.kind == Expr::ArrayLit) {
    for (ExprPtr &a : e.args)
      coerce(*a, *to.elem);
    e.ty = to;
    return true;
  }
  if (t.kind == Ty::Array && to.kind == Ty::Array && *t.elem == *to.elem)
    return true;
  if (t != to) {
    error(e.loc) << "expected '" << to.str() << "', found '" << t.str() << "'";
    return false;
  }
  return true;
}

void Sema::checkAssignTarget(Expr &e) {
  Expr *root = &e;
  while (root->kind == Expr::Index || root->kind == Expr::Field)
    root = root->args[0].get();
  Ty t = checkExpr(e);
  if (t.kind == Ty::Error)
    return;
  if (root->kind == Expr::HeaderView && root != &e)
    return; // a field of a view made in place: writes into the packet
  if (root->kind != Expr::Name) {
    error(e.loc) << "cannot assign to this expression";
    e.ty = Ty();
    return;
  }
  const Symbol *s = lookup(root->text);
  if (!s)
    return;
  Ty rootTy = root->ty;
  bool viaPacket = rootTy.kind == Ty::Pkt || rootTy.kind == Ty::Header;
  if (viaPacket && root != &e)
    return; // writes into the packet: header fields, metadata, bytes
  if (s->kind != Symbol::Var && s->kind != Symbol::State) {
    const char *why = s->kind == Symbol::Let     ? "it is declared with 'let'"
                      : s->kind == Symbol::Param ? "it is a parameter"
                      : s->kind == Symbol::Const ? "it is a constant"
                      : s->kind == Symbol::Loop  ? "it is a loop variable"
                                                 : "it is not a variable";
    errorWithNote(e.loc, "cannot assign to '" + root->text + "': " + why,
                  s->loc, "declared here");
    e.ty = Ty();
  }
}

static bool isComparison(llvm::StringRef op) {
  return op == "==" || op == "!=" || op == "<" || op == "<=" || op == ">" ||
         op == ">=";
}

Ty Sema::checkExpr(Expr &e, const Ty *expected) {
  Ty t;
  switch (e.kind) {
  case Expr::IntLit:
    if (e.text == "overflow")
      error(e.loc) << "integer literal does not fit in 64 bits";
    else
      t = Ty::of(Ty::IntLit);
    break;
  case Expr::BoolLit:
    t = Ty::of(Ty::Bool);
    break;
  case Expr::StrLit:
    t = Ty::of(Ty::Str);
    break;
  case Expr::Name: {
    const Symbol *s = lookup(e.text);
    if (!s) {
      error(e.loc) << "use of undeclared name '" << e.text << "'";
      break;
    }
    if (s->kind == Symbol::Port) {
      error(e.loc) << "port '" << e.text
                   << "' can only be used with recv, send or try_recv";
      break;
    }
    t = s->ty;
    break;
  }
  case Expr::Unary: {
    Ty a = checkExpr(*e.args[0]);
    if (a.kind == Ty::Error)
      break;
    if (e.text == "!") {
      if (a.kind != Ty::Bool)
        error(e.loc) << "'!' needs a bool, found '" << a.str() << "'";
      else
        t = a;
    } else if (!a.isInt()) {
      error(e.loc) << "'" << e.text << "' needs an integer, found '" << a.str()
                   << "'";
    } else {
      t = a;
    }
    break;
  }
  case Expr::Binary: {
    llvm::StringRef op = e.text;
    Ty a = checkExpr(*e.args[0]);
    Ty b = checkExpr(*e.args[1]);
    if (a.kind == Ty::Error || b.kind == Ty::Error)
      break;
    if (op == "&&" || op == "||") {
      if (coerce(*e.args[0], Ty::of(Ty::Bool)) &&
          coerce(*e.args[1], Ty::of(Ty::Bool)))
        t = Ty::of(Ty::Bool);
      break;
    }
    if ((op == "==" || op == "!=") &&
        (a.kind == Ty::Bool || a.kind == Ty::Prefix)) {
      if (coerce(*e.args[1], a))
        t = Ty::of(Ty::Bool);
      break;
    }
    if (!a.isInt() || !b.isInt()) {
      error(e.loc) << "operator '" << op << "' needs integers, found '"
                   << a.str() << "' and '" << b.str() << "'";
      break;
    }
    if (op == "<<" || op == ">>") {
      if (b.kind == Ty::IntLit)
        coerce(*e.args[1], a.kind == Ty::Int ? a : Ty::integer(32, false));
      t = a;
      break;
    }
    Ty common = a;
    if (a.kind == Ty::IntLit && b.kind == Ty::IntLit)
      common = isComparison(op) ? Ty::integer(64, false) : Ty::of(Ty::IntLit);
    else if (a.kind == Ty::IntLit)
      common = b;
    if (common.kind == Ty::Int) {
      if (!coerce(*e.args[0], common) || !coerce(*e.args[1], common))
        break;
    }
    t = isComparison(op) ? Ty::of(Ty::Bool) : common;
    break;
  }
  case Expr::Cond: {
    coerce(*e.args[0], Ty::of(Ty::Bool));
    Ty a = checkExpr(*e.args[1], expected);
    Ty b = checkExpr(*e.args[2], expected);
    if (a.kind == Ty::Error || b.kind == Ty::Error)
      break;
    if (a.kind == Ty::IntLit && b.kind == Ty::IntLit) {
      if (!expected || expected->kind != Ty::Int) {
        // Two literal arms: the whole is a literal expression that takes
        // the type of its context (`x == (c ? 1 : 2)` with x a u16).
        t = Ty::of(Ty::IntLit);
        break;
      }
      a = *expected;
    } else if (a.kind == Ty::IntLit) {
      a = b;
    }
    if (coerce(*e.args[1], a) && coerce(*e.args[2], a))
      t = a;
    break;
  }
  case Expr::Call:
    t = checkCall(e);
    break;
  case Expr::Recv: {
    if (e.args.size() != 1) {
      error(e.loc) << "'recv' takes one port";
      break;
    }
    if (inTimer)
      error(e.loc) << "a timer cannot wait to receive; it runs while the "
                      "handler waits (poll with 'if let ... try_recv')";
    if (currentControl)
      error(e.loc) << "a read or write handler cannot receive; it runs "
                      "between activations";
    if (const Ty *elem = expectPort(*e.args[0], /*wantInput=*/true))
      t = *elem;
    break;
  }
  case Expr::Field:
    t = checkField(e);
    break;
  case Expr::Index: {
    Ty base = checkExpr(*e.args[0]);
    if (base.kind == Ty::Error)
      break;
    if (base.kind == Ty::Pkt) {
      if (coerce(*e.args[1], Ty::integer(32, false)))
        t = Ty::integer(8, false);
    } else if (base.kind == Ty::Array) {
      Ty idx = checkExpr(*e.args[1]);
      if (idx.kind == Ty::IntLit)
        coerce(*e.args[1], Ty::integer(32, false));
      else if (idx.kind != Ty::Int && idx.kind != Ty::Error)
        error(e.args[1]->loc) << "array index must be an integer";
      t = *base.elem;
    } else {
      error(e.loc) << "cannot index a value of type '" << base.str() << "'";
    }
    break;
  }
  case Expr::Cast: {
    Ty a = checkExpr(*e.args[0]);
    Ty to = resolve(*e.type);
    if (a.kind == Ty::Error || to.kind == Ty::Error)
      break;
    bool okFrom = a.isInt() || a.kind == Ty::Bool;
    bool okTo = to.kind == Ty::Int || to.kind == Ty::Bool;
    if (!okFrom || !okTo) {
      error(e.loc) << "cannot cast '" << a.str() << "' to '" << to.str() << "'";
      break;
    }
    if (a.kind == Ty::IntLit)
      coerce(*e.args[0], to.kind == Ty::Int ? to : Ty::integer(64, false));
    t = to;
    break;
  }
  case Expr::HeaderView: {
    const RecordDecl *r = records.lookup(e.text);
    if (!r || !r->isHeader) {
      error(e.loc) << "'" << e.text << "' is not a header type";
      break;
    }
    if (e.args.size() != 2) {
      error(e.loc) << "'header<" << e.text
                   << ">' takes a packet and a byte offset";
      break;
    }
    if (!coerce(*e.args[0], Ty::of(Ty::Pkt)) ||
        !coerce(*e.args[1], Ty::integer(32, false)))
      break;
    t = Ty::of(Ty::Header);
    t.record = r;
    break;
  }
  case Expr::ArrayLit: {
    Ty elem = expected && expected->kind == Ty::Array ? *expected->elem : Ty();
    if (elem.kind == Ty::Error) {
      Ty first = checkExpr(*e.args[0]);
      elem = first.kind == Ty::IntLit ? Ty::integer(32, false) : first;
    }
    bool ok = true;
    for (ExprPtr &a : e.args)
      ok &= coerce(*a, elem);
    if (!ok)
      break;
    t = Ty::of(Ty::Array);
    t.elem = std::make_shared<Ty>(elem);
    t.len = e.args.size();
    break;
  }
  }
  e.ty = t;
  e.checked = true;
  return t;
}

Ty Sema::checkField(Expr &e) {
  Ty base = checkExpr(*e.args[0]);
  switch (base.kind) {
  case Ty::Error:
    return Ty();
  case Ty::Pkt: {
    unsigned w;
    if (isPacketMetaField(e.text, w))
      return Ty::integer(w, false);
    if (const Annotation *a = lookupAnnotation(e.text))
      return a->ty;
    error(e.loc) << "packets have no field '" << e.text
                 << "'; metadata fields are in_port, paint, out_port, anno, "
                    "ts, and the declared annotations";
    return Ty();
  }
  case Ty::Prefix:
    if (e.text == "addr" || e.text == "mask")
      return Ty::integer(32, false);
    if (e.text == "len")
      return Ty::integer(8, false);
    error(e.loc) << "a prefix has the fields addr, len and mask, not '"
                 << e.text << "'";
    return Ty();
  case Ty::Header:
  case Ty::Record:
    for (const Field &f : base.record->fields)
      if (f.name == e.text)
        return resolve(*f.type, false);
    errorWithNote(e.loc,
                  "'" + base.record->name + "' has no field '" + e.text + "'",
                  base.record->loc, "declared here");
    return Ty();
  default:
    error(e.loc) << "value of type '" << base.str() << "' has no fields";
    return Ty();
  }
}

Ty Sema::checkFnCall(Expr &e, const FnDecl &f) {
  if (e.args.size() != f.params.size()) {
    error(e.loc) << "'" << f.name << "' takes " << f.params.size()
                 << " argument" << (f.params.size() == 1 ? "" : "s") << ", "
                 << e.args.size() << " given";
    return Ty();
  }
  for (size_t k = 0; k < e.args.size(); ++k) {
    Ty t = resolve(*f.params[k].type, false);
    if (inMatch && t.kind == Ty::Pkt) {
      errorWithNote(e.args[k]->loc,
                    "'" + f.name + "' takes a packet; a match program has none",
                    f.params[k].loc, "parameter '" + f.params[k].name + "'");
      checkExpr(*e.args[k]);
      continue;
    }
    coerce(*e.args[k], t);
  }
  if (currentFn)
    calls[currentFn->name].push_back({f.name, e.loc});
  return f.result ? resolve(*f.result, false) : Ty::of(Ty::Void);
}

/// `S(a, b, ...)` builds a struct value, one argument per field in order.
/// With fewer arguments, fields that have defaults are left out, first
/// ones first, until the counts match (Click's `ADDR/MASK [GW] PORT`). The
/// call is rewritten to name every field, defaults copied in.
Ty Sema::checkConstructor(Expr &e, const RecordDecl &r) {
  size_t n = r.fields.size(), given = e.args.size();
  size_t defaulted = llvm::count_if(
      r.fields, [](const Field &f) { return f.defaultValue != nullptr; });
  if (given > n || given + defaulted < n) {
    auto d = error(e.loc);
    d << "'" << r.name << "' has " << n << " field" << (n == 1 ? "" : "s");
    if (defaulted)
      d << " (" << defaulted << " with a default)";
    d << ", " << given << " given";
    return Ty();
  }
  size_t skip = n - given;
  std::vector<ExprPtr> args;
  auto next = e.args.begin();
  bool ok = true;
  for (const Field &f : r.fields) {
    Ty ft = resolve(*f.type, false);
    if (skip && f.defaultValue) {
      --skip;
      args.push_back(cloneExpr(*f.defaultValue));
    } else {
      args.push_back(std::move(*next++));
    }
    ok &= coerce(*args.back(), ft);
  }
  e.args = std::move(args);
  if (!ok)
    return Ty();
  Ty t = Ty::of(Ty::Record);
  t.record = &r;
  return t;
}
