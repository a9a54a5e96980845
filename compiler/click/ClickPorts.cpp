//===- ClickPorts.cpp - Port counts of a Click instance -------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// How many ports an instance of a library element has: its port arrays
// are sized by expressions over its parameters, evaluated here on the
// arguments the configuration gives (a small constant folder over the
// AST, since the module is not elaborated yet).
//
//===----------------------------------------------------------------------===//

#include "compiler/click/ClickLowerer.h"
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
