//===- ClickPorts.cpp - Port counts of a Click instance -------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// How many ports an instance of a library element has: its port arrays
// are sized by expressions over its parameters, evaluated here on the
// arguments the configuration gives (a small constant folder over the
// AST, since the module is not elaborated yet). A function called there
// runs through the front end's ConstFnRunner, as in ConstEval.
//
//===----------------------------------------------------------------------===//

#include "compiler/click/ClickLowerer.h"
#include "compiler/frontend/Builtins.h"
#include "compiler/frontend/ConstFnRunner.h"
#include "compiler/frontend/ConstFold.h"
#include "compiler/frontend/Limits.h"

using namespace npcc;
using namespace npcc::click;
using namespace npcc::click::lowering;
using ast::Expr;
using ast::ExprPtr;

namespace {
/// Values of the parameters of an instance, to size its port arrays.
struct SizeEnv {
  llvm::StringMap<const Expr *> params;
  llvm::StringMap<std::vector<const Expr *>> lists; // variadic arguments
  const ModuleIndex &index;
  llvm::StringMap<int64_t> ints; // a called function's integer locals
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

/// `x op y` on the untyped integers of a port count: signed, and a shift
/// by 63 or more (or by a negative amount) is 0.
static std::optional<int64_t> applyOp(llvm::StringRef op, int64_t x,
                                      int64_t y) {
  if ((op == "<<" || op == ">>") && (y < 0 || y >= 63))
    return 0;
  bool cmp;
  return (int64_t)foldBinary(op, (uint64_t)x, (uint64_t)y, true, cmp);
}

namespace {
/// ConstFnRunner's view of the port counter: integer locals in `env.ints`.
struct SizeFnAdapter {
  SizeEnv env;
  unsigned depth;
  using Value = std::optional<int64_t>;
  Value eval(const Expr &e) { return evalSize(e, env, depth); }
  Value declare(const ast::Stmt &s) { return s.init ? eval(*s.init) : 0; }
  Value assign(const ast::Stmt &s, int64_t old, int64_t v) {
    return s.op == "=" ? v : applyOp(llvm::StringRef(s.op).drop_back(), old, v);
  }
  Value lookup(llvm::StringRef name) {
    auto it = env.ints.find(name);
    return it == env.ints.end() ? Value() : Value(it->second);
  }
  void bind(llvm::StringRef name, Value v) {
    if (v)
      env.ints[name] = *v;
    else
      env.ints.erase(name);
  }
  int64_t index(int64_t k) { return k; }
  Value toInt(int64_t v) { return v; }
  bool isTrue(int64_t v) { return v != 0; }
  Value result(int64_t v) { return v; }
  void error(const ast::Loc &, const std::string &) {} // "cannot tell" instead
};
} // namespace

/// `f(args)`: its body run on the arguments, a variadic parameter passed
/// on as a list.
static std::optional<int64_t> callFn(const ast::FnDecl &f, const Expr &e,
                                     const SizeEnv &env, unsigned depth) {
  if (e.args.size() != f.params.size())
    return std::nullopt;
  SizeFnAdapter callee{SizeEnv{{}, {}, env.index}, depth + 1};
  for (size_t k = 0; k < f.params.size(); ++k) {
    const Expr &arg = *e.args[k];
    const std::string &name = f.params[k].name;
    auto list =
        arg.kind == Expr::Name ? env.lists.find(arg.text) : env.lists.end();
    if (list != env.lists.end()) {
      callee.env.lists[name] = list->second;
    } else if (arg.kind == Expr::ArrayLit) {
      for (const ExprPtr &x : arg.args)
        callee.env.lists[name].push_back(x.get());
    } else if (auto v = evalSize(arg, env, depth + 1)) {
      callee.env.ints[name] = *v;
    } else {
      return std::nullopt;
    }
  }
  return ConstFnRunner<int64_t, SizeFnAdapter>(callee, f).run();
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
    if (auto local = env.ints.find(e.text); local != env.ints.end())
      return local->second;
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
  case Expr::Call: {
    Builtin which = lookupBuiltin(e.text);
    if ((which == Builtin::Min || which == Builtin::Max) &&
        e.args.size() == 2) {
      auto a = sub(0), b = sub(1);
      if (!a || !b)
        return std::nullopt;
      return which == Builtin::Min ? std::min(*a, *b) : std::max(*a, *b);
    }
    if (which == Builtin::Len && e.args.size() == 1 &&
        e.args[0]->kind == Expr::Name) {
      auto it = env.lists.find(e.args[0]->text);
      if (it != env.lists.end())
        return (int64_t)it->second.size();
      if (auto c = env.index.consts.lookup(e.args[0]->text))
        if (c->value->kind == Expr::ArrayLit)
          return (int64_t)c->value->args.size();
    }
    if (const ast::FnDecl *f = env.index.fns.lookup(e.text))
      return callFn(*f, e, env, depth);
    return std::nullopt;
  }
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
    return applyOp(e.text, *a, *b);
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
