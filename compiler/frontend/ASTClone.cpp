//===- ASTClone.cpp - deep copies of AST expressions ----------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Defaults (of struct fields and parameters) are written once and used at
// every call that leaves them out, and an element alias is a copy of its
// element; each use needs its own tree because Sema annotates expressions
// in place.
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

static std::vector<Param> cloneParams(const std::vector<Param> &ps) {
  std::vector<Param> out;
  for (const Param &p : ps)
    out.push_back({p.loc, p.name, cloneType(*p.type), p.variadic,
                   p.defaultValue ? cloneExpr(*p.defaultValue) : nullptr});
  return out;
}

static StmtPtr cloneStmt(const Stmt &s) {
  auto c = std::make_unique<Stmt>();
  c->kind = s.kind;
  c->loc = s.loc;
  c->name = s.name;
  c->op = s.op;
  if (s.type)
    c->type = cloneType(*s.type);
  for (auto [to, from] : {std::pair{&c->init, &s.init},
                          {&c->target, &s.target},
                          {&c->cond, &s.cond},
                          {&c->lo, &s.lo},
                          {&c->hi, &s.hi},
                          {&c->bound, &s.bound}})
    if (*from)
      *to = cloneExpr(**from);
  c->body = cloneBlock(s.body);
  c->elseBody = cloneBlock(s.elseBody);
  c->bodyEnd = s.bodyEnd;
  c->elseEnd = s.elseEnd;
  for (const SelectCase &k : s.cases)
    c->cases.push_back(
        {k.loc, k.var, cloneExpr(*k.port), cloneBlock(k.body), k.bodyEnd});
  return c;
}

Block npcc::ast::cloneBlock(const Block &b) {
  Block out;
  for (const StmtPtr &s : b)
    out.push_back(cloneStmt(*s));
  return out;
}

ElementDecl npcc::ast::cloneElement(const ElementDecl &e) {
  ElementDecl c;
  c.loc = e.loc;
  c.name = e.name;
  c.params = cloneParams(e.params);
  for (const PortDecl &p : e.ports)
    c.ports.push_back({p.loc, p.isInput, p.name,
                       p.arraySize ? cloneExpr(*p.arraySize) : nullptr,
                       cloneType(*p.type)});
  for (const StateVar &v : e.state)
    c.state.push_back({v.loc, v.name, cloneType(*v.type),
                       v.init ? cloneExpr(*v.init) : nullptr, v.shared, v.merge,
                       v.mergeLoc});
  c.hasInit = e.hasInit;
  c.hasHandler = e.hasHandler;
  c.hasSignal = e.hasSignal;
  c.hasTimer = e.hasTimer;
  c.initLoc = e.initLoc;
  c.handlerLoc = e.handlerLoc;
  c.signalLoc = e.signalLoc;
  c.timerLoc = e.timerLoc;
  c.initEnd = e.initEnd;
  c.handlerEnd = e.handlerEnd;
  c.signalEnd = e.signalEnd;
  c.timerEnd = e.timerEnd;
  c.init = cloneBlock(e.init);
  c.handler = cloneBlock(e.handler);
  c.signal = cloneBlock(e.signal);
  c.timer = cloneBlock(e.timer);
  if (e.timerPeriod)
    c.timerPeriod = cloneExpr(*e.timerPeriod);
  c.signalArg = e.signalArg;
  if (e.signalType)
    c.signalType = cloneType(*e.signalType);
  for (const ControlDecl &k : e.controls)
    c.controls.push_back({k.loc, k.isWrite, k.name, cloneParams(k.params),
                          k.result ? cloneType(*k.result) : nullptr,
                          cloneBlock(k.body), k.bodyEnd});
  return c;
}
