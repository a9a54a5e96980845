//===- ConstFnRunner.h - Runs a function's body at compile time -*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// A call in a constant expression (`out o[route_outputs(routes)]`) runs
// the function's body: let, var, assignments to its locals, if, bounded
// `for` loops and return. Two evaluators use it, so that they agree: the
// front end's ConstEval (typed values, after Sema) and the Click lowering's
// port counter (before Sema). Each supplies an Adapter that evaluates
// expressions and keeps the locals:
//   std::optional<V> eval(const Expr &);
//   std::optional<V> declare(const Stmt &let_or_var); // its initial value
//   std::optional<V> assign(const Stmt &s, const V &old, const V &value);
//   std::optional<V> lookup(llvm::StringRef name);
//   void bind(llvm::StringRef name, std::optional<V> value); // none: unbind
//   V index(int64_t k);           // the value of a `for` variable
//   std::optional<int64_t> toInt(const V &); bool isTrue(const V &);
//   std::optional<V> result(const V &); // wrapped to the result type
//   void error(const Loc &, const std::string &); // may stay silent
//
//===----------------------------------------------------------------------===//

#ifndef NPCC_FRONTEND_CONSTFNRUNNER_H
#define NPCC_FRONTEND_CONSTFNRUNNER_H

#include "compiler/frontend/AST.h"
#include "compiler/frontend/Limits.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace npcc {

template <class V, class Adapter> class ConstFnRunner {
public:
  ConstFnRunner(Adapter &a, const ast::FnDecl &f) : a(a), f(f) {}

  /// The value `f` returns; the adapter has bound its parameters.
  std::optional<V> run() {
    Flow fl = block(f.body);
    if (fl == Flow::Error)
      return std::nullopt;
    if (!value)
      a.error(f.bodyEnd, "function '" + f.name +
                             "' ended without returning a value at compile "
                             "time");
    return value;
  }

private:
  enum class Flow { Next, Break, Continue, Return, Error };
  using Shadowed = std::vector<std::pair<std::string, std::optional<V>>>;

  Flow block(const ast::Block &b) {
    Shadowed shadowed;
    Flow fl = Flow::Next;
    for (const ast::StmtPtr &s : b)
      if ((fl = stmt(*s, shadowed)) != Flow::Next)
        break;
    // The block's names go; the names they hid come back.
    for (auto it = shadowed.rbegin(); it != shadowed.rend(); ++it)
      a.bind(it->first, it->second);
    return fl;
  }

  /// Counts one step; false (reported) past the limit.
  bool tick(const ast::Loc &loc) {
    if (++steps <= limits::kMaxConstFnSteps)
      return true;
    a.error(loc, "the compile-time call of '" + f.name + "' runs more than " +
                     std::to_string(limits::kMaxConstFnSteps) + " steps");
    return false;
  }

  Flow unsupported(const ast::Stmt &s) {
    a.error(s.loc, "this statement cannot run at compile time (in '" + f.name +
                       "'): only let, var, assignments to locals, "
                       "if, for and return can");
    return Flow::Error;
  }

  Flow stmt(const ast::Stmt &s, Shadowed &shadowed) {
    using ast::Stmt;
    if (!tick(s.loc))
      return Flow::Error;
    switch (s.kind) {
    case Stmt::Let:
    case Stmt::Var: {
      std::optional<V> v = a.declare(s);
      if (!v)
        return Flow::Error;
      shadowed.push_back({s.name, a.lookup(s.name)});
      a.bind(s.name, v);
      return Flow::Next;
    }
    case Stmt::Assign: {
      if (s.target->kind != ast::Expr::Name)
        return unsupported(s);
      std::optional<V> old = a.lookup(s.target->text);
      if (!old)
        return unsupported(s);
      std::optional<V> v = a.eval(*s.init);
      if (v)
        v = a.assign(s, *old, *v);
      if (!v)
        return Flow::Error;
      a.bind(s.target->text, v);
      return Flow::Next;
    }
    case Stmt::If: {
      std::optional<V> c = a.eval(*s.cond);
      if (!c)
        return Flow::Error;
      return block(a.isTrue(*c) ? s.body : s.elseBody);
    }
    case Stmt::For:
      return loop(s);
    case Stmt::Return: {
      if (!s.init)
        return unsupported(s);
      std::optional<V> v = a.eval(*s.init);
      if (v)
        value = a.result(*v);
      return value ? Flow::Return : Flow::Error;
    }
    case Stmt::Break:
      return Flow::Break;
    case Stmt::Continue:
      return Flow::Continue;
    case Stmt::Nested:
      return block(s.body);
    default:
      return unsupported(s);
    }
  }

  /// `for k in lo..hi`: the bounds are constants, so the loop is bounded.
  Flow loop(const ast::Stmt &s) {
    std::optional<V> lo = a.eval(*s.lo), hi = lo ? a.eval(*s.hi) : lo;
    std::optional<int64_t> from = lo ? a.toInt(*lo) : std::nullopt;
    std::optional<int64_t> to = hi ? a.toInt(*hi) : std::nullopt;
    if (!from || !to)
      return Flow::Error;
    std::optional<V> hidden = a.lookup(s.name);
    Flow fl = Flow::Next;
    for (int64_t k = *from; k < *to; ++k) {
      a.bind(s.name, a.index(k));
      fl = block(s.body);
      if (fl == Flow::Continue)
        fl = Flow::Next;
      if (fl != Flow::Next)
        break;
      if (!tick(s.loc)) {
        fl = Flow::Error;
        break;
      }
    }
    a.bind(s.name, hidden);
    return fl == Flow::Break ? Flow::Next : fl;
  }

  Adapter &a;
  const ast::FnDecl &f;
  std::optional<V> value;
  uint64_t steps = 0;
};

/// Whether `f` takes an array (`[T]`): such a function runs only at compile
/// time, in a constant expression.
inline bool isCompileTimeFn(const ast::FnDecl &f) {
  for (const ast::Param &p : f.params)
    if (p.type && p.type->kind == ast::TypeRef::Array && !p.type->size)
      return true;
  return false;
}

/// The error for a call of a compile-time function left to run time.
inline std::string compileTimeOnlyCall(const ast::FnDecl &f) {
  return "'" + f.name + "' takes an array, so it runs only at compile " +
         "time: call it in a constant expression (a port count or an " +
         "array size)";
}

} // namespace npcc

#endif // NPCC_FRONTEND_CONSTFNRUNNER_H
