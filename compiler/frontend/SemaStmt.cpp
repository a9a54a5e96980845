//===- SemaStmt.cpp - checks of NPL statements ----------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Block scopes, statements, unused variables and unreachable code.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/Sema.h"

using namespace npcc;
using namespace npcc::ast;

//===----------------------------------------------------------------------===//
// Scopes
//===----------------------------------------------------------------------===//

const Sema::Symbol *Sema::lookup(llvm::StringRef name) const {
  for (auto it = scopes.rbegin(); it != scopes.rend(); ++it) {
    auto f = it->find(name);
    if (f != it->end()) {
      f->second.used = true;
      return &f->second;
    }
  }
  return nullptr;
}

/// The scopes an element, function or match program starts with: the
/// module's constants, then one for its own parameters (and ports, state).
void Sema::beginBodyScopes() {
  scopes.clear();
  scopes.emplace_back();
  for (ConstDecl &c : module.consts)
    scopes.back()[c.name] = {Symbol::Const, resolve(*c.type, false), c.loc};
  scopes.emplace_back();
}

void Sema::declare(llvm::StringRef name, Symbol s) {
  // Shadowing an outer block is allowed, redeclaring in one block is not.
  auto [it, inserted] = scopes.back().try_emplace(name, s);
  if (!inserted)
    errorWithNote(s.loc, "redeclaration of '" + name.str() + "'",
                  it->second.loc, "previous declaration is here");
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

static const char *exitKeyword(Stmt::Kind k) {
  switch (k) {
  case Stmt::Return:
    return "return";
  case Stmt::Break:
    return "break";
  case Stmt::Continue:
    return "continue";
  default:
    return "fail";
  }
}

void Sema::checkBlock(Block &b) {
  scopes.emplace_back();
  const Stmt *exit = nullptr;
  for (StmtPtr &s : b) {
    if (exit) {
      warn(s->loc, Warning::UnreachableCode,
           llvm::Twine("code after '") + exitKeyword(exit->kind) +
               "' is never executed");
      exit = nullptr; // once per block
    }
    checkStmt(*s);
    if (s->kind == Stmt::Return || s->kind == Stmt::Fail ||
        s->kind == Stmt::Break || s->kind == Stmt::Continue)
      exit = s.get();
  }
  popScope();
}

void Sema::popScope() {
  // Report unused locals in source order.
  std::vector<std::pair<const Symbol *, llvm::StringRef>> unused;
  for (auto &entry : scopes.back()) {
    const Symbol &sym = entry.second;
    if ((sym.kind == Symbol::Let || sym.kind == Symbol::Var) && !sym.used &&
        !entry.first().starts_with("_"))
      unused.push_back({&sym, entry.first()});
  }
  llvm::sort(unused, [](auto &a, auto &b) {
    return std::make_pair(a.first->loc.line, a.first->loc.col) <
           std::make_pair(b.first->loc.line, b.first->loc.col);
  });
  for (auto &[sym, name] : unused)
    warn(sym->loc, Warning::UnusedVariable, "unused variable '" + name + "'");
  scopes.pop_back();
}

static Ty defaultInt(const Expr &e) {
  return Ty::integer(e.value > 0xffffffffu ? 64 : 32, false);
}

void Sema::checkStmt(Stmt &s) {
  if (inMatch &&
      (s.kind == Stmt::For || s.kind == Stmt::Unroll || s.kind == Stmt::While ||
       s.kind == Stmt::Select || s.kind == Stmt::IfLet)) {
    error(s.loc) << "loops, 'select' and 'if let' are not allowed in a "
                    "match program: it runs once per list item";
    return;
  }
  switch (s.kind) {
  case Stmt::Let:
  case Stmt::Var: {
    Ty t;
    if (s.type) {
      t = resolve(*s.type);
      if (s.type->kind == TypeRef::Array && s.type->size)
        coerce(*s.type->size, Ty::integer(32, false));
      if (s.init)
        coerce(*s.init, t);
    } else {
      t = checkExpr(*s.init);
      if (t.kind == Ty::IntLit) {
        t = defaultInt(*s.init);
        coerce(*s.init, t);
      }
    }
    if (s.kind == Stmt::Var &&
        (t.kind == Ty::Pkt || t.kind == Ty::Header || t.kind == Ty::Port))
      error(s.loc) << "'" << s.name << "' of type '" << t.str()
                   << "' cannot be a 'var'; bind it with 'let'";
    if (t.kind == Ty::Void)
      error(s.init->loc) << "expression has no value";
    if (s.kind == Stmt::Let && t.kind == Ty::Array)
      error(s.loc) << "arrays are bound with 'var'";
    declare(s.name,
            {s.kind == Stmt::Let ? Symbol::Let : Symbol::Var, t, s.loc});
    return;
  }
  case Stmt::Assign: {
    checkAssignTarget(*s.target);
    Ty t = s.target->ty;
    if (t.kind == Ty::Error)
      return;
    if (s.op == "<<=" || s.op == ">>=") {
      if (!t.isInt())
        error(s.loc) << "shift of non-integer '" << t.str() << "'";
      Ty r = checkExpr(*s.init);
      if (r.kind == Ty::IntLit)
        coerce(*s.init, t);
      else if (r.kind != Ty::Int && r.kind != Ty::Error)
        error(s.init->loc) << "shift amount must be an integer";
      return;
    }
    if (s.op != "=" && t.kind != Ty::Int)
      error(s.loc) << "'" << s.op << "' needs an integer, not '" << t.str()
                   << "'";
    if (t.kind == Ty::Array)
      error(s.loc) << "cannot assign a whole " << t.str()
                   << "; assign its elements";
    coerce(*s.init, t);
    return;
  }
  case Stmt::If:
    coerce(*s.cond, Ty::of(Ty::Bool));
    checkBlock(s.body);
    checkBlock(s.elseBody);
    return;
  case Stmt::IfLet: {
    Expr &c = *s.init;
    Builtin which =
        c.kind == Expr::Call ? lookupBuiltin(c.text) : Builtin::None;
    if (which == Builtin::Lookup && c.args.size() == 2) {
      const Ty *t = tableOperand(*c.args[0], "lookup");
      if (t)
        coerce(*c.args[1],
               t->kind == Ty::Lpm ? Ty::integer(32, false) : *t->key);
      c.ty = t ? *t->elem : Ty();
    } else if ((which != Builtin::TryRecv && which != Builtin::Dequeue) ||
               c.args.size() != 1) {
      error(c.loc) << "'if let' needs 'try_recv(port)', 'dequeue(queue)' or "
                      "'lookup(table, key)'";
      return;
    } else if (which == Builtin::Dequeue) {
      c.ty = queueOperand(*c.args[0], "dequeue") ? Ty::of(Ty::Pkt) : Ty();
      if (currentFn)
        error(c.loc) << "'dequeue' is not allowed in a function: packets "
                        "passed to a function are borrowed, not owned";
    } else {
      if (currentControl)
        error(c.loc) << "a read or write handler cannot receive; it runs "
                        "between activations";
      const Ty *elem = expectPort(*c.args[0], /*wantInput=*/true);
      c.ty = elem ? *elem : Ty();
    }
    c.checked = true;
    scopes.emplace_back();
    declare(s.name, {Symbol::Let, c.ty, s.loc});
    checkBlock(s.body);
    scopes.pop_back();
    checkBlock(s.elseBody);
    return;
  }
  case Stmt::For:
  case Stmt::Unroll: {
    Ty t = checkExpr(*s.lo);
    Ty h = checkExpr(*s.hi);
    if (t.kind == Ty::IntLit)
      t = h.kind == Ty::Int ? h : Ty::integer(32, false);
    coerce(*s.lo, t);
    coerce(*s.hi, t);
    if (s.bound)
      coerce(*s.bound, Ty::integer(32, false));
    scopes.emplace_back();
    declare(s.name, {Symbol::Loop, t, s.loc});
    ++loopDepth;
    checkBlock(s.body);
    --loopDepth;
    scopes.pop_back();
    return;
  }
  case Stmt::While:
    coerce(*s.cond, Ty::of(Ty::Bool));
    coerce(*s.bound, Ty::integer(32, false));
    ++loopDepth;
    checkBlock(s.body);
    --loopDepth;
    return;
  case Stmt::Select:
    if (!inHandler)
      error(s.loc) << "'select' is only allowed in a handler";
    for (SelectCase &c : s.cases) {
      const Ty *elem = expectPort(*c.port, /*wantInput=*/true);
      scopes.emplace_back();
      declare(c.var, {Symbol::Let, elem ? *elem : Ty(), c.loc});
      checkBlock(c.body);
      scopes.pop_back();
    }
    return;
  case Stmt::Return:
    if (inMatch)
      error(s.loc) << "'return' is not allowed in a match program; use "
                      "'fail' or 'accept'";
    if (currentControl) {
      if (!currentControl->isWrite && !s.init)
        error(s.loc) << "read handler '" << currentControl->name
                     << "' must return a value";
      else if (!currentControl->isWrite)
        coerce(*s.init, resolve(*currentControl->result, false));
      else if (s.init)
        error(s.init->loc) << "a write handler returns no value";
    } else if (currentFn && currentFn->result) {
      if (!s.init)
        error(s.loc) << "function '" << currentFn->name
                     << "' must return a value";
      else
        coerce(*s.init, resolve(*currentFn->result, false));
    } else if (s.init) {
      checkExpr(*s.init);
      if (currentFn)
        error(s.init->loc) << "function '" << currentFn->name
                           << "' has no result type";
      else
        error(s.init->loc) << "only a function returns a value";
    }
    return;
  case Stmt::Fail:
    if (!inMatch)
      error(s.loc) << "'fail' is only allowed in a match program";
    return;
  case Stmt::Break:
  case Stmt::Continue:
    if (!loopDepth)
      error(s.loc) << "'" << exitKeyword(s.kind) << "' outside of a loop";
    return;
  case Stmt::ExprStmt:
    checkExpr(*s.init);
    return;
  case Stmt::Nested:
    checkBlock(s.body);
    return;
  }
}
