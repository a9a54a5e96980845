//===- ClickElements.cpp - Elements of a Click scope ----------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The elements and connections of one scope: each element reference is
// resolved to a declared element, a new instance of a class (anonymous
// ones get Click's `Class@N` names), or the elementclass's own `input` and
// `output`; an elementclass is specialized once per distinct argument list.
//
//===----------------------------------------------------------------------===//

#include "compiler/click/ClickLowerer.h"

#include "llvm/ADT/StringExtras.h"

using namespace npcc;
using namespace npcc::click;
using namespace npcc::click::lowering;

Specialization Lowerer::specialize(const ClassDef &def,
                                   const std::string &className,
                                   const std::vector<ArgText> &args,
                                   const Loc &loc) {
  const Statement &s = *def.stmt;
  if (args.size() != s.formals.size()) {
    auto d = error(loc);
    d << "'" << className << "' takes " << s.formals.size() << " argument"
      << (s.formals.size() == 1 ? "" : "s") << ", " << args.size() << " given";
    d.attachNote(toLoc(ctx, s.loc)) << "elementclass declared here";
    return {};
  }
  std::string key = std::to_string((uintptr_t)&def);
  for (const ArgText &a : args)
    key += "\x1f" + a.piece.text + "\x1e" + a.define;
  auto it = specializations.find(key);
  if (it != specializations.end())
    return it->second;
  Scope &body = newScope(def.scope, def.visible, true);
  for (size_t i = 0; i < args.size(); ++i) {
    const Formal &f = s.formals[i];
    auto [v, inserted] = body.vars.try_emplace(
        f.name, Var{args[i].piece.text, args[i].define, f.loc});
    if (!inserted) {
      error(f.loc) << "formal parameter '$" << f.name << "' is declared twice";
      return specializations[key] = {};
    }
  }
  ast::GraphDecl g;
  g.name = allocName(s.name);
  g.loc = s.loc;
  Specialization spec;
  spec.graph = g.name;
  spec.ok = lowerBody(s.body, body, g, spec.nIn, spec.nOut);
  generated.push_back(std::move(g));
  return specializations[key] = spec;
}

size_t Lowerer::createInstance(const std::string &name, bool anonymous,
                               const std::string &className,
                               const Loc &classLoc, const Config &config,
                               const Loc &loc, Body &b) {
  Inst inst;
  inst.name = name;
  inst.anonymous = anonymous;
  inst.className = className;
  inst.loc = loc;
  inst.calleeLoc = classLoc;
  inst.ordinal = b.elements++;
  ClassRef cls = lookupClass(className, *b.scope);
  std::vector<ArgText> texts;
  if (!cls) {
    error(classLoc) << "unknown element class '" << className << "'";
    inst.kind = Inst::Failed;
  } else if (!expandConfig(config, *b.scope, texts)) {
    inst.kind = Inst::Failed;
  } else if (cls.compound) {
    Specialization spec = specialize(*cls.compound, className, texts, loc);
    inst.callee = spec.graph;
    if (!spec.ok)
      inst.kind = Inst::Failed;
    for (size_t k = 0; k < spec.nIn; ++k)
      inst.inputs.push_back({"input", (int64_t)k});
    for (size_t k = 0; k < spec.nOut; ++k)
      inst.outputs.push_back({"output", (int64_t)k});
  } else {
    inst.callee = cls.libName;
    inst.cls = cls;
    if (!converter.bind(cls.libName, *cls.params, texts, loc, inst.args)) {
      ++errors;
      inst.kind = Inst::Failed;
    } else if (!portsOf(cls, inst.args, loc, className, inst.inputs,
                        inst.outputs)) {
      inst.kind = Inst::Failed;
    }
  }
  b.insts.push_back(std::move(inst));
  return b.insts.size() - 1;
}

size_t Lowerer::resolveElement(const ElementRef &e, Body &b) {
  bool pseudoName =
      b.scope->compound && (e.ident == "input" || e.ident == "output");
  if (e.declares) {
    if (pseudoName) {
      error(e.loc) << "'" << e.ident
                   << "' is the elementclass's own ports; it cannot be "
                      "declared";
      return kNone;
    }
    if (lookupClass(e.ident, *b.scope)) {
      error(e.loc) << "class '" << e.ident << "' used as element name";
      return kNone;
    }
    auto prev = b.byName.find(e.ident);
    if (prev != b.byName.end()) {
      auto d = error(e.loc);
      d << "redeclaration of element '" << e.ident << "'";
      d.attachNote(toLoc(ctx, b.insts[prev->second].loc))
          << "previous declaration is here";
      return kNone;
    }
    for (llvm::StringRef part : llvm::split(e.ident, '/'))
      if (llvm::all_of(part, ::isdigit)) {
        error(e.loc) << "element name '" << e.ident
                     << "' has an all-digit component";
        return kNone;
      }
    size_t i = createInstance(e.ident, false, e.className, e.classLoc, e.config,
                              e.loc, b);
    b.byName[e.ident] = i;
    return i;
  }
  if (!pseudoName && lookupClass(e.ident, *b.scope))
    return createInstance("", true, e.ident, e.loc, e.config, e.loc, b);
  auto found = b.byName.find(e.ident);
  if (found != b.byName.end() || pseudoName) {
    if (e.config.present) {
      error(e.config.loc) << "a configuration is given for '" << e.ident
                          << "', which is an element, not a class";
      return kNone;
    }
    if (found != b.byName.end())
      return found->second;
    size_t &slot = b.pseudo[e.ident == "output"];
    if (slot == kNone) {
      Inst inst;
      inst.kind = e.ident == "input" ? Inst::Input : Inst::Output;
      inst.name = e.ident;
      inst.loc = e.loc;
      b.insts.push_back(std::move(inst));
      slot = b.insts.size() - 1;
    }
    return slot;
  }
  error(e.loc) << "'" << e.ident
               << "' is neither an element class nor a declared element";
  return kNone;
}

void Lowerer::lowerConnection(const Statement &s, Body &b) {
  std::vector<std::vector<size_t>> sets;
  // `a, b :: Class(config)` alone declares every name with the class.
  const std::vector<ElementRef> &first = s.sets.front();
  bool spread =
      s.sets.size() == 1 && first.size() > 1 && first.back().declares &&
      llvm::all_of(llvm::ArrayRef(first).drop_back(), [](const ElementRef &e) {
        return !e.declares && !e.config.present && e.inPort < 0 &&
               e.outPort < 0;
      });
  for (const auto &set : s.sets) {
    sets.emplace_back();
    for (const ElementRef &e : set) {
      if (!spread) {
        sets.back().push_back(resolveElement(e, b));
        continue;
      }
      ElementRef d = e;
      d.declares = true;
      d.className = first.back().className;
      d.classLoc = first.back().classLoc;
      d.config = first.back().config;
      sets.back().push_back(resolveElement(d, b));
    }
  }
  for (const ElementRef &e : s.sets.front())
    if (e.inPort >= 0)
      mlir::emitWarning(toLoc(ctx, e.inPortLoc))
          << "input port ignored at the start of a chain";
  for (const ElementRef &e : s.sets.back())
    if (e.outPort >= 0)
      mlir::emitWarning(toLoc(ctx, e.outPortLoc))
          << "output port ignored at the end of a chain";
  for (size_t k = 0; k + 1 < sets.size(); ++k) {
    if (sets[k].size() > 1 && sets[k + 1].size() > 1) {
      error(s.arrowLocs[k])
          << "connecting " << sets[k].size() << " elements to "
          << sets[k + 1].size()
          << " elements needs Click's '=>', which is not supported";
      continue;
    }
    for (size_t i = 0; i < sets[k].size(); ++i)
      for (size_t j = 0; j < sets[k + 1].size(); ++j) {
        const ElementRef &from = s.sets[k][i], &to = s.sets[k + 1][j];
        b.conns.push_back({sets[k][i], (size_t)std::max(from.outPort, 0),
                           from.outPort >= 0 ? from.outPortLoc : from.loc,
                           sets[k + 1][j], (size_t)std::max(to.inPort, 0),
                           to.inPort >= 0 ? to.inPortLoc : to.loc,
                           s.arrowLocs[k]});
      }
  }
}

void Lowerer::nameAnonymous(Body &b) {
  std::set<std::string> used;
  for (const Inst &i : b.insts)
    if (!i.anonymous && (i.kind == Inst::Element || i.kind == Inst::Failed))
      used.insert(i.name);
  for (Inst &i : b.insts) {
    if (!i.anonymous)
      continue;
    size_t n = i.ordinal + 1;
    std::string name;
    do
      name = i.className + "@" + std::to_string(n++);
    while (used.count(name));
    used.insert(name);
    i.name = name;
  }
}
