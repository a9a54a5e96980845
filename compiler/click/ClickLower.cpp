//===- ClickLower.cpp - Click configuration to NPL graphs -----------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// One Lowerer walks the configuration scope by scope (the file, then each
// elementclass body per distinct argument list), as Click's lexer expands
// compounds: classes are looked up lexically, variables ($formals and
// defines) are substituted into configuration strings, anonymous elements
// get Click's `Class@N` names, and the connections are checked and
// completed before they become an NPL graph: an output Click would leave
// unconnected goes to a synthesized Discard, several connections into one
// input go through a synthesized Merge (NPL connects each port once).
//
//===----------------------------------------------------------------------===//

#include "compiler/click/ClickLower.h"
#include "compiler/frontend/Limits.h"
#include "compiler/frontend/Sema.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

#include <deque>
#include <map>
#include <set>

using namespace npcc;
using namespace npcc::click;
using ast::Expr;
using ast::ExprPtr;

namespace {

struct Var {
  std::string value;
  std::string origin; // the define the value came from ("" if none)
  Loc loc;
};

struct Scope;

/// An elementclass: a compound with a body, or a synonym of a class.
struct ClassDef {
  const Statement *stmt = nullptr;
  Scope *scope = nullptr;           // the scope it was defined in
  size_t visible = 0;               // classes of `scope` visible to its body
  std::string libName;              // a synonym of a library class
  const ClassDef *target = nullptr; // a synonym of another elementclass
};

struct Scope {
  Scope *parent = nullptr;
  size_t parentVisible = 0;
  bool compound = false;
  llvm::StringMap<Var> vars;
  std::vector<std::pair<std::string, std::unique_ptr<ClassDef>>> classes;
};

/// What a Click class name resolves to.
struct ClassRef {
  const ClassDef *compound = nullptr;
  std::string libName; // a library element or graph
  const std::vector<ast::Param> *params = nullptr;
  const std::vector<ast::PortDecl> *ports = nullptr;
  explicit operator bool() const { return compound || !libName.empty(); }
};

/// A Click port number's NPL port: `name` or `name[index]`.
struct PortRef {
  std::string port;
  int64_t index = -1;
};

struct Inst {
  enum Kind { Element, Input, Output, Failed } kind = Element;
  std::string name;
  bool anonymous = false;
  std::string className;
  std::string callee;
  Loc loc, calleeLoc;
  size_t ordinal = 0; // position among the scope's elements (Click@N)
  std::vector<ExprPtr> args;
  std::vector<PortRef> inputs, outputs;
  ClassRef cls; // a library element's, to renumber its ports
};

struct Conn {
  size_t from;
  size_t out;
  Loc fromLoc;
  size_t to;
  size_t in;
  Loc toLoc;
  Loc arrow;
};

/// The elements and connections of one scope being lowered.
struct Body {
  Scope *scope;
  std::vector<Inst> insts;
  llvm::StringMap<size_t> byName;
  size_t pseudo[2] = {SIZE_MAX, SIZE_MAX}; // input, output
  size_t elements = 0;
  std::vector<Conn> conns;
};

struct Specialization {
  std::string graph;
  size_t nIn = 0, nOut = 0;
  bool ok = false;
};

constexpr size_t kNone = SIZE_MAX;

class Lowerer {
public:
  Lowerer(mlir::MLIRContext *ctx, const Program &program, ast::Module &module)
      : ctx(ctx), program(program), module(module),
        converter(ctx, index, program) {
    index.build(module);
    auto use = [&](const std::string &n) { usedNames.insert(n); };
    for (auto &e : module.elements)
      use(e.name);
    for (auto &g : module.graphs)
      use(g.name);
    for (auto &r : module.records)
      use(r.name);
    for (auto &c : module.consts)
      use(c.name);
    for (auto &f : module.fns)
      use(f.name);
    for (auto &m : module.matches)
      use(m.name);
  }

  bool run(const Defines &defines, llvm::StringRef topName);

private:
  mlir::InFlightDiagnostic error(const Loc &l) {
    ++errors;
    return mlir::emitError(toLoc(ctx, l));
  }
  Loc locAt(size_t offset) const { return program.locAt(offset); }
  Scope &newScope(Scope *parent, size_t parentVisible, bool compound) {
    scopes.push_back(std::make_unique<Scope>());
    Scope &s = *scopes.back();
    s.parent = parent;
    s.parentVisible = parentVisible;
    s.compound = compound;
    return s;
  }
  std::string allocName(const std::string &base) {
    std::string n = base;
    for (unsigned k = 2; usedNames.count(n); ++k)
      n = base + "@" + std::to_string(k);
    usedNames.insert(n);
    return n;
  }

  void collectDefines(const StatementList &body, Scope &scope);
  ClassRef lookupClass(llvm::StringRef name, const Scope &scope) const;
  ClassRef libraryClass(llvm::StringRef name) const;
  void defineClass(const Statement &s, Scope &scope);
  const Var *findVar(const Scope &scope, llvm::StringRef name) const;
  bool expandConfig(const Config &config, const Scope &scope,
                    std::vector<ArgText> &out);

  bool lowerBody(const StatementList &body, Scope &scope, ast::GraphDecl &g,
                 size_t &nIn, size_t &nOut);
  void lowerConnection(const Statement &s, Body &b);
  size_t resolveElement(const ElementRef &e, Body &b);
  size_t createInstance(const std::string &name, bool anonymous,
                        const std::string &className, const Loc &classLoc,
                        const Config &config, const Loc &loc, Body &b);
  void countOutputs(Body &b);
  bool portsOf(const ClassRef &cls, const std::vector<ExprPtr> &args,
               const Loc &loc, llvm::StringRef className,
               std::vector<PortRef> &inputs, std::vector<PortRef> &outputs);
  Specialization specialize(const ClassDef &def, const std::string &className,
                            const std::vector<ArgText> &args, const Loc &loc);
  void nameAnonymous(Body &b);
  bool finish(Body &b, ast::GraphDecl &g, size_t &nIn, size_t &nOut);

  mlir::MLIRContext *ctx;
  const Program &program;
  ast::Module &module;
  ModuleIndex index;
  ArgConverter converter;
  unsigned errors = 0;
  std::deque<std::unique_ptr<Scope>> scopes;
  std::set<std::string> usedNames;
  std::map<std::string, Specialization> specializations;
  std::vector<ast::GraphDecl> generated;
};

} // namespace

//===----------------------------------------------------------------------===//
// Scopes: classes and variables
//===----------------------------------------------------------------------===//

void Lowerer::collectDefines(const StatementList &body, Scope &scope) {
  for (const auto &s : body) {
    if (s->kind != Statement::Define)
      continue;
    std::vector<Piece> args;
    splitArguments({s->config.text, s->config.offset}, args);
    for (const Piece &a : args) {
      std::vector<Piece> words;
      splitWords(a, words);
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

//===----------------------------------------------------------------------===//
// Elements
//===----------------------------------------------------------------------===//

namespace {
/// Values of the parameters of an instance, to size its port arrays.
struct SizeEnv {
  llvm::StringMap<const Expr *> params;
  llvm::StringMap<std::vector<const Expr *>> lists; // variadic arguments
  const ModuleIndex &index;
};
} // namespace

static std::optional<int64_t> evalSize(const Expr &e, const SizeEnv &env,
                                       unsigned depth);

/// The argument expression `routes[2]` or `routes[2].port` stands for: an
/// element of a variadic argument, a field of a struct constructor call
/// (the converter fills every field), null if it cannot tell.
static const Expr *sizeOperand(const Expr &e, const SizeEnv &env,
                               unsigned depth) {
  if (depth > 64)
    return nullptr;
  if (e.kind == Expr::Index && e.args[0]->kind == Expr::Name) {
    auto it = env.lists.find(e.args[0]->text);
    auto k = evalSize(*e.args[1], env, depth + 1);
    if (it == env.lists.end() || !k || *k < 0 ||
        (size_t)*k >= it->second.size())
      return nullptr;
    return it->second[*k];
  }
  if (e.kind == Expr::Field) {
    const Expr *base = e.args[0]->kind == Expr::Name
                           ? env.params.lookup(e.args[0]->text)
                           : sizeOperand(*e.args[0], env, depth + 1);
    if (!base || base->kind != Expr::Call)
      return nullptr;
    const ast::RecordDecl *r = env.index.records.lookup(base->text);
    if (!r || r->fields.size() != base->args.size())
      return nullptr;
    for (size_t k = 0; k < r->fields.size(); ++k)
      if (r->fields[k].name == e.text)
        return base->args[k].get();
  }
  return nullptr;
}

static std::optional<int64_t> evalSize(const Expr &e, const SizeEnv &env,
                                       unsigned depth) {
  if (depth > 64)
    return std::nullopt;
  auto sub = [&](size_t k) { return evalSize(*e.args[k], env, depth + 1); };
  switch (e.kind) {
  case Expr::IntLit:
  case Expr::BoolLit:
    return (int64_t)e.value;
  case Expr::Unary: {
    auto v = sub(0);
    if (!v)
      return v;
    return e.text == "-" ? -*v : e.text == "!" ? (int64_t)!*v : ~*v;
  }
  case Expr::Name: {
    if (const Expr *p = env.params.lookup(e.text)) {
      SizeEnv none{{}, {}, env.index};
      return evalSize(*p, none, depth + 1);
    }
    if (const ast::ConstDecl *c = env.index.consts.lookup(e.text)) {
      SizeEnv none{{}, {}, env.index};
      return evalSize(*c->value, none, depth + 1);
    }
    return std::nullopt;
  }
  case Expr::Call:
    if ((e.text == "min" || e.text == "max") && e.args.size() == 2) {
      auto a = sub(0), b = sub(1);
      if (!a || !b)
        return std::nullopt;
      return e.text == "min" ? std::min(*a, *b) : std::max(*a, *b);
    }
    if (e.text == "len" && e.args.size() == 1 &&
        e.args[0]->kind == Expr::Name) {
      auto it = env.lists.find(e.args[0]->text);
      if (it != env.lists.end())
        return (int64_t)it->second.size();
      if (auto c = env.index.consts.lookup(e.args[0]->text))
        if (c->value->kind == Expr::ArrayLit)
          return (int64_t)c->value->args.size();
    }
    return std::nullopt;
  case Expr::Cast:
    return sub(0);
  case Expr::Index:
  case Expr::Field:
    if (const Expr *v = sizeOperand(e, env, depth))
      return evalSize(*v, SizeEnv{{}, {}, env.index}, depth + 1);
    return std::nullopt;
  case Expr::Cond: {
    auto c = sub(0);
    if (!c)
      return c;
    return sub(*c ? 1 : 2);
  }
  case Expr::Binary: {
    auto a = sub(0), b = sub(1);
    if (!a || !b)
      return std::nullopt;
    int64_t x = *a, y = *b;
    llvm::StringRef op = e.text;
    if (op == "+")
      return x + y;
    if (op == "-")
      return x - y;
    if (op == "*")
      return x * y;
    if (op == "/")
      return y ? x / y : 0;
    if (op == "%")
      return y ? x % y : 0;
    if (op == "<<")
      return y >= 0 && y < 63 ? x << y : 0;
    if (op == ">>")
      return y >= 0 && y < 63 ? x >> y : 0;
    if (op == "&" || op == "&&")
      return x & y;
    if (op == "|" || op == "||")
      return x | y;
    if (op == "^")
      return x ^ y;
    if (op == "==")
      return x == y;
    if (op == "!=")
      return x != y;
    if (op == "<")
      return x < y;
    if (op == "<=")
      return x <= y;
    if (op == ">")
      return x > y;
    if (op == ">=")
      return x >= y;
    return std::nullopt;
  }
  default:
    return std::nullopt;
  }
}

bool Lowerer::portsOf(const ClassRef &cls, const std::vector<ExprPtr> &args,
                      const Loc &loc, llvm::StringRef className,
                      std::vector<PortRef> &inputs,
                      std::vector<PortRef> &outputs) {
  const std::vector<ast::Param> &params = *cls.params;
  bool variadic = !params.empty() && params.back().variadic;
  size_t nFixed = params.size() - (variadic ? 1 : 0);
  SizeEnv env{{}, {}, index};
  for (size_t i = 0; i < nFixed; ++i)
    if (const Expr *v =
            i < args.size() ? args[i].get() : params[i].defaultValue.get())
      env.params[params[i].name] = v;
  if (variadic) {
    auto &list = env.lists[params.back().name];
    for (size_t i = nFixed; i < args.size(); ++i)
      list.push_back(args[i].get());
  }
  for (const ast::PortDecl &p : *cls.ports) {
    auto &list = p.isInput ? inputs : outputs;
    if (!p.arraySize) {
      list.push_back({p.name, -1});
      continue;
    }
    std::optional<int64_t> n = evalSize(*p.arraySize, env, 0);
    if (!n || *n < 0 || (uint64_t)*n > limits::kMaxPortArraySize) {
      error(loc) << "cannot tell how many ports '" << p.name << "' of '"
                 << className << "' has from these arguments";
      return false;
    }
    for (int64_t k = 0; k < *n; ++k)
      list.push_back({p.name, k});
  }
  return true;
}

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

//===----------------------------------------------------------------------===//
// Connections and the NPL graph
//===----------------------------------------------------------------------===//

static ExprPtr intExpr(int64_t v, const Loc &loc) {
  auto e = std::make_unique<Expr>();
  e->kind = Expr::IntLit;
  e->loc = loc;
  e->value = (uint64_t)v;
  return e;
}

static ast::Endpoint endpoint(const Inst &i, size_t k, bool asSource,
                              const Loc &loc) {
  ast::Endpoint ep;
  ep.loc = loc;
  if (i.kind == Inst::Input || i.kind == Inst::Output) {
    ep.inst = i.name; // a boundary port array of the compound graph
    ep.index = intExpr((int64_t)k, loc);
    return ep;
  }
  const PortRef &p = asSource ? i.outputs[k] : i.inputs[k];
  ep.inst = i.name;
  ep.port = p.port;
  if (p.index >= 0)
    ep.index = intExpr(p.index, loc);
  return ep;
}

static void connect(ast::GraphDecl &g, ast::Endpoint from, ast::Endpoint to,
                    const Loc &loc) {
  ast::Connection c;
  c.loc = loc;
  c.chain.push_back(std::move(from));
  c.chain.push_back(std::move(to));
  c.lossy.push_back(false);
  g.connections.push_back(std::move(c));
}

static ast::InstanceDecl instanceDecl(const std::string &name,
                                      const std::string &callee, const Loc &loc,
                                      const Loc &calleeLoc) {
  ast::InstanceDecl d;
  d.loc = loc;
  d.name = name;
  d.callee = callee;
  d.calleeLoc = calleeLoc;
  return d;
}

/// Click gives many elements as many outputs as are connected (an optional
/// output for rejects, ARPQuerier's queries): a library element with a
/// `noutputs` parameter the configuration leaves out gets the number of
/// its outputs used, at least 1, and its ports are numbered again.
void Lowerer::countOutputs(Body &b) {
  std::vector<size_t> used(b.insts.size(), 0);
  for (const Conn &x : b.conns)
    if (x.from != kNone)
      used[x.from] = std::max(used[x.from], x.out + 1);
  for (size_t i = 0; i < b.insts.size(); ++i) {
    Inst &inst = b.insts[i];
    if (inst.kind != Inst::Element || !inst.cls.params)
      continue;
    const auto &params = *inst.cls.params;
    auto it = llvm::find_if(
        params, [](const ast::Param &p) { return p.name == "noutputs"; });
    size_t k = it - params.begin();
    if (it == params.end() || it->variadic || !it->defaultValue ||
        inst.args.size() > k)
      continue;
    for (size_t j = inst.args.size(); j < k; ++j) {
      if (!params[j].defaultValue)
        break;
      inst.args.push_back(ast::cloneExpr(*params[j].defaultValue));
    }
    if (inst.args.size() != k)
      continue;
    auto n = std::make_unique<Expr>();
    n->kind = Expr::IntLit;
    n->loc = inst.loc;
    n->value = std::max<size_t>(used[i], 1);
    inst.args.push_back(std::move(n));
    inst.inputs.clear();
    inst.outputs.clear();
    if (!portsOf(inst.cls, inst.args, inst.loc, inst.className, inst.inputs,
                 inst.outputs))
      inst.kind = Inst::Failed;
  }
}

bool Lowerer::finish(Body &b, ast::GraphDecl &g, size_t &nIn, size_t &nOut) {
  unsigned before = errors;
  nameAnonymous(b);
  countOutputs(b);
  nIn = nOut = 0;
  using Key = std::pair<size_t, size_t>;
  std::map<Key, size_t> outUse;
  std::map<Key, std::vector<size_t>> inUse;
  std::vector<bool> valid(b.conns.size(), true);
  std::set<size_t> misconnected; // has a connection to a port it lacks
  auto plural = [](size_t n, const char *w) {
    return std::to_string(n) + " " + w + (n == 1 ? "" : "s");
  };
  for (size_t c = 0; c < b.conns.size(); ++c) {
    const Conn &x = b.conns[c];
    // A side that failed was reported; the other side counts as used.
    bool srcOk = x.from != kNone, dstOk = x.to != kNone;
    bool failed = !srcOk || !dstOk;
    if (srcOk) {
      const Inst &src = b.insts[x.from];
      failed |= src.kind == Inst::Failed;
      if (src.kind == Inst::Output) {
        error(x.fromLoc) << "'output' stands for the elementclass's "
                            "outputs: connections end there";
        srcOk = false;
      } else if (src.kind == Inst::Input) {
        nIn = std::max(nIn, x.out + 1);
      } else if (src.kind == Inst::Element && x.out >= src.outputs.size()) {
        error(x.fromLoc) << "'" << src.name << "' has no output " << x.out
                         << ": '" << src.className << "' has "
                         << plural(src.outputs.size(), "output") << " here";
        srcOk = false;
      }
    }
    if (dstOk) {
      const Inst &dst = b.insts[x.to];
      failed |= dst.kind == Inst::Failed;
      if (dst.kind == Inst::Input) {
        error(x.toLoc) << "'input' stands for the elementclass's inputs: "
                          "connections start there";
        dstOk = false;
      } else if (dst.kind == Inst::Output) {
        nOut = std::max(nOut, x.in + 1);
      } else if (dst.kind == Inst::Element && x.in >= dst.inputs.size()) {
        error(x.toLoc) << "'" << dst.name << "' has no input " << x.in << ": '"
                       << dst.className << "' has "
                       << plural(dst.inputs.size(), "input") << " here";
        dstOk = false;
      }
    }
    if (failed || !srcOk || !dstOk) {
      valid[c] = false;
      if (srcOk)
        outUse.emplace(Key{x.from, x.out}, c);
      else if (x.from != kNone)
        misconnected.insert(x.from);
      if (dstOk)
        inUse[{x.to, x.in}].push_back(c);
      else if (x.to != kNone)
        misconnected.insert(x.to);
      continue;
    }
    const Inst &src = b.insts[x.from];
    auto [it, inserted] = outUse.emplace(Key{x.from, x.out}, c);
    if (!inserted) {
      auto d = error(x.arrow);
      d << "output " << x.out << " of '" << src.name
        << "' is connected twice; an output has one connection (use a Tee "
           "to copy packets)";
      d.attachNote(toLoc(ctx, b.conns[it->second].arrow))
          << "first connection is here";
      valid[c] = false;
      inUse[{x.to, x.in}].push_back(c);
      continue;
    }
    inUse[{x.to, x.in}].push_back(c);
  }
  if (b.pseudo[0] != kNone)
    for (size_t k = 0; k < nIn; ++k)
      if (!outUse.count({b.pseudo[0], k}))
        error(g.loc) << "input " << k << " of elementclass '" << g.name
                     << "' is not used inside it";
  if (b.pseudo[1] != kNone)
    for (size_t k = 0; k < nOut; ++k)
      if (!inUse.count({b.pseudo[1], k}))
        error(g.loc) << "output " << k << " of elementclass '" << g.name
                     << "' is not connected inside it";
  for (size_t i = 0; i < b.insts.size(); ++i) {
    const Inst &inst = b.insts[i];
    if (inst.kind != Inst::Element || misconnected.count(i))
      continue;
    for (size_t k = 0; k < inst.inputs.size(); ++k)
      if (!inUse.count({i, k}))
        error(inst.loc) << "input " << k << " of '" << inst.name << "' ('"
                        << inst.className
                        << "') is not connected; every input needs a "
                           "connection";
  }
  if (errors != before)
    return false;

  // The graph: the configuration's elements, its connections (through a
  // Merge where several end at one input), then a Discard per output the
  // configuration leaves unconnected.
  for (Inst &inst : b.insts) {
    if (inst.kind != Inst::Element)
      continue;
    ast::InstanceDecl d =
        instanceDecl(inst.name, inst.callee, inst.loc, inst.calleeLoc);
    d.args = std::move(inst.args);
    g.instances.push_back(std::move(d));
  }
  ClassRef merge = libraryClass("Merge"), discard = libraryClass("Discard");
  std::vector<ast::InstanceDecl> extra;
  std::set<Key> merged;
  for (size_t c = 0; c < b.conns.size(); ++c) {
    if (!valid[c])
      continue;
    const Conn &x = b.conns[c];
    const std::vector<size_t> &group = inUse[{x.to, x.in}];
    const Inst &dst = b.insts[x.to];
    if (group.size() == 1) {
      connect(g, endpoint(b.insts[x.from], x.out, true, x.fromLoc),
              endpoint(dst, x.in, false, x.toLoc), x.arrow);
      continue;
    }
    if (!merged.insert({x.to, x.in}).second)
      continue;
    std::string name = "Merge:" + dst.name + "[" + std::to_string(x.in) + "]";
    std::vector<ExprPtr> args;
    args.push_back(intExpr((int64_t)group.size(), x.toLoc));
    std::vector<PortRef> ins, outs;
    if (!merge || !portsOf(merge, args, x.toLoc, "Merge", ins, outs) ||
        ins.size() != group.size() || outs.size() != 1) {
      if (!merge)
        error(b.conns[group[1]].arrow)
            << "several connections into input " << x.in << " of '" << dst.name
            << "' need the library element 'Merge'";
      continue;
    }
    ast::InstanceDecl d = instanceDecl(name, merge.libName, x.toLoc, x.toLoc);
    d.args = std::move(args);
    extra.push_back(std::move(d));
    Inst m;
    m.name = name;
    m.inputs = std::move(ins);
    m.outputs = std::move(outs);
    for (size_t j = 0; j < group.size(); ++j) {
      const Conn &y = b.conns[group[j]];
      connect(g, endpoint(b.insts[y.from], y.out, true, y.fromLoc),
              endpoint(m, j, false, y.toLoc), y.arrow);
    }
    connect(g, endpoint(m, 0, true, x.toLoc),
            endpoint(dst, x.in, false, x.toLoc), x.toLoc);
  }
  for (size_t i = 0; i < b.insts.size(); ++i) {
    const Inst &inst = b.insts[i];
    if (inst.kind != Inst::Element)
      continue;
    for (size_t k = 0; k < inst.outputs.size(); ++k) {
      if (outUse.count({i, k}))
        continue;
      if (!discard) {
        error(inst.loc) << "output " << k << " of '" << inst.name
                        << "' is not connected, and there is no library "
                           "element 'Discard' to drop its packets";
        continue;
      }
      std::string name = "Discard:" + inst.name + "[" + std::to_string(k) + "]";
      extra.push_back(instanceDecl(name, discard.libName, inst.loc, inst.loc));
      ast::Endpoint to;
      to.loc = inst.loc;
      to.inst = name; // its only input
      connect(g, endpoint(inst, k, true, inst.loc), std::move(to), inst.loc);
    }
  }
  for (ast::InstanceDecl &d : extra)
    g.instances.push_back(std::move(d));
  auto boundary = [&](bool isInput, size_t n) {
    if (n == 0)
      return;
    ast::PortDecl p;
    p.loc = g.loc;
    p.isInput = isInput;
    p.name = isInput ? "input" : "output";
    p.arraySize = intExpr((int64_t)n, g.loc);
    p.type = std::make_unique<ast::TypeRef>();
    p.type->loc = g.loc;
    p.type->name = "pkt";
    g.ports.push_back(std::move(p));
  };
  if (b.scope->compound) {
    boundary(true, nIn);
    boundary(false, nOut);
  }
  return errors == before;
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
