//===- ASTClone.cpp - deep copies of AST expressions ----------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Defaults (of struct fields and parameters) are written once and used at
// every call that leaves them out; each use needs its own tree because Sema
// annotates expressions in place.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/AST.h"

using namespace npcc::ast;

TypeRefPtr npcc::ast::cloneType(const TypeRef &t) {
  auto c = std::make_unique<TypeRef>();
  c->kind = t.kind;
  c->loc = t.loc;
  c->name = t.name;
  if (t.key)
    c->key = cloneType(*t.key);
  if (t.elem)
    c->elem = cloneType(*t.elem);
  if (t.size)
    c->size = cloneExpr(*t.size);
  return c;
}

ExprPtr npcc::ast::cloneExpr(const Expr &e) {
  auto c = std::make_unique<Expr>();
  c->kind = e.kind;
  c->loc = e.loc;
  c->text = e.text;
  c->value = e.value;
  c->define = e.define;
  for (const ExprPtr &a : e.args)
    c->args.push_back(cloneExpr(*a));
  if (e.type)
    c->type = cloneType(*e.type);
  return c; // unchecked: Sema types the copy in its new context
}
