//===- ClickLower.cpp - Click configuration to NPL graphs -----------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// One Lowerer walks the configuration scope by scope (the file, then each
// elementclass body per distinct argument list), as Click's lexer expands
// compounds; the files named in ClickLowerer.h do each step. This file
// holds the walk itself: a scope's statements, then its graph.
//
//===----------------------------------------------------------------------===//

#include "compiler/click/ClickLowerer.h"

using namespace npcc;
using namespace npcc::click;
using namespace npcc::click::lowering;

Lowerer::Lowerer(mlir::MLIRContext *ctx, const Program &program,
                 ast::Module &module)
    : ctx(ctx), program(program), module(module),
      converter(ctx, index, program) {
  index.build(module);
  auto use = [&](const auto &decls) {
    for (const auto &d : decls)
      usedNames.insert(d.name);
  };
  use(module.elements);
  use(module.graphs);
  use(module.records);
  use(module.consts);
  use(module.fns);
  use(module.matches);
}

Scope &Lowerer::newScope(Scope *parent, size_t parentVisible, bool compound) {
  scopes.push_back(std::make_unique<Scope>());
  Scope &s = *scopes.back();
  s.parent = parent;
  s.parentVisible = parentVisible;
  s.compound = compound;
  return s;
}

std::string Lowerer::allocName(const std::string &base) {
  std::string n = base;
  for (unsigned k = 2; usedNames.count(n); ++k)
    n = base + "@" + std::to_string(k);
  usedNames.insert(n);
  return n;
}

bool Lowerer::lowerBody(const StatementList &body, Scope &scope,
                        ast::GraphDecl &g, size_t &nIn, size_t &nOut) {
  unsigned before = errors;
  if (scope.compound)
    collectDefines(body, scope);
  Body b;
  b.scope = &scope;
  for (const auto &s : body) {
    switch (s->kind) {
    case Statement::ElementClass:
      defineClass(*s, scope);
      break;
    case Statement::Connection:
      lowerConnection(*s, b);
      break;
    case Statement::Define:  // collected above
    case Statement::Require: // libraries are loaded by the front end
      break;
    }
  }
  bool ok = finish(b, g, nIn, nOut);
  return ok && errors == before;
}

bool Lowerer::run(const Defines &defines, llvm::StringRef topName) {
  Scope &top = newScope(nullptr, 0, false);
  collectDefines(program.statements, top);
  for (const auto &[name, value] : defines)
    top.vars[name] = Var{value, name, Loc()};
  ast::GraphDecl g;
  g.name = allocName(topName.str());
  g.loc.file = program.file;
  g.loc.line = g.loc.col = 1;
  size_t nIn, nOut;
  bool ok = lowerBody(program.statements, top, g, nIn, nOut);
  if (!ok || errors)
    return false;
  for (ast::GraphDecl &x : generated)
    module.graphs.push_back(std::move(x));
  module.graphs.push_back(std::move(g));
  return true;
}

bool npcc::click::lowerClick(mlir::MLIRContext *ctx, const Program &program,
                             const Defines &defines, llvm::StringRef topName,
                             ast::Module &module) {
  return Lowerer(ctx, program, module).run(defines, topName);
}
