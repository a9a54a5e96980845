//===- ClickScopes.cpp - Click classes and variables ----------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// A Click scope is the file or one specialization of an elementclass:
// classes are looked up lexically (an elementclass sees the classes
// defined before it), and variables ($formals and defines) are substituted
// into configuration strings as Click's lexer does.
//
//===----------------------------------------------------------------------===//

#include "compiler/click/ClickLowerer.h"

using namespace npcc;
using namespace npcc::click;
using namespace npcc::click::lowering;

void Lowerer::collectDefines(const StatementList &body, Scope &scope) {
  for (const auto &s : body) {
    if (s->kind != Statement::Define)
      continue;
    for (const WordedArgument &a :
         splitArgumentWords({s->config.text, s->config.offset})) {
      const std::vector<Piece> &words = a.words;
      if (words.empty())
        continue;
      std::optional<std::string> name = wholeVariable(words[0].text);
      if (!name || words[0].text.find('{') != std::string::npos) {
        error(locAt(a.offset))
            << "expected '$NAME value' in 'define', found '" << a.text << "'";
        continue;
      }
      llvm::StringRef rest =
          llvm::StringRef(a.text)
              .drop_front(words[0].offset - a.offset + words[0].text.size())
              .ltrim();
      Var v{rest.str(), *name, locAt(a.offset)};
      auto [it, inserted] = scope.vars.try_emplace(*name, v);
      if (!inserted) {
        auto d = error(locAt(a.offset));
        d << "'$" << *name << "' is defined twice";
        d.attachNote(toLoc(ctx, it->second.loc))
            << "previous definition is here";
      }
    }
  }
}

const Var *Lowerer::findVar(const Scope &scope, llvm::StringRef name) const {
  for (const Scope *s = &scope; s; s = s->parent) {
    auto it = s->vars.find(name);
    if (it != s->vars.end())
      return &it->second;
  }
  return nullptr;
}

ClassRef Lowerer::libraryClass(llvm::StringRef name) const {
  ClassRef r;
  if (auto e = index.elements.lookup(name)) {
    r.libName = name.str();
    r.params = &e->params;
    r.ports = &e->ports;
  } else if (auto g = index.graphs.lookup(name)) {
    r.libName = name.str();
    r.params = &g->params;
    r.ports = &g->ports;
  }
  return r;
}

ClassRef Lowerer::lookupClass(llvm::StringRef name, const Scope &scope) const {
  const Scope *s = &scope;
  size_t limit = s->classes.size();
  while (s) {
    for (size_t i = limit; i-- > 0;) {
      if (s->classes[i].first != name)
        continue;
      const ClassDef *def = s->classes[i].second.get();
      while (def->target)
        def = def->target;
      if (!def->libName.empty())
        return libraryClass(def->libName);
      ClassRef r;
      r.compound = def;
      return r;
    }
    limit = s->parentVisible;
    s = s->parent;
  }
  return libraryClass(name);
}

void Lowerer::defineClass(const Statement &s, Scope &scope) {
  auto def = std::make_unique<ClassDef>();
  if (!s.synonymOf.empty()) {
    ClassRef target = lookupClass(s.synonymOf, scope);
    if (!target) {
      error(s.synonymLoc) << "unknown element class '" << s.synonymOf << "'";
      return;
    }
    def->target = target.compound;
    def->libName = target.libName;
  } else {
    def->stmt = &s;
    def->scope = &scope;
    def->visible = scope.classes.size();
  }
  scope.classes.emplace_back(s.name, std::move(def));
}

bool Lowerer::expandConfig(const Config &config, const Scope &scope,
                           std::vector<ArgText> &out) {
  if (!config.present)
    return true;
  std::vector<Piece> args;
  splitArguments({config.text, config.offset}, args);
  bool ok = true;
  for (const Piece &a : args) {
    bool verbatim = program.text.compare(a.offset, a.text.size(), a.text) == 0;
    std::string text;
    size_t bad = 0;
    std::string badName;
    auto lookup = [&](llvm::StringRef name) -> std::optional<std::string> {
      if (const Var *v = findVar(scope, name))
        return v->value;
      return std::nullopt;
    };
    if (!expandVariables(a.text, lookup, text, bad, badName)) {
      Loc l = locAt(verbatim ? a.offset + bad : a.offset);
      if (badName == "(")
        error(l) << "'$(...)' expressions are not supported";
      else
        error(l) << "undefined variable '$" << badName << "'";
      ok = false;
      continue;
    }
    ArgText t;
    t.exact = verbatim && text == a.text;
    t.piece = {std::move(text), a.offset};
    if (std::optional<std::string> v = wholeVariable(a.text))
      if (const Var *var = findVar(scope, *v))
        t.define = var->origin;
    out.push_back(std::move(t));
  }
  return ok;
}
