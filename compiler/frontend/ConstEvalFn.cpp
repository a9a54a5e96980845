//===- ConstEvalFn.cpp - compile-time calls of NPL functions --------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// A function called in a constant expression (a port count, an array size)
// runs here on the values of its arguments, its locals wrapped to their
// types as the generated code would. The statements it may use and the
// step limit are ConstFnRunner's, shared with the Click lowering.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/ConstFnRunner.h"
#include "compiler/frontend/ConstFold.h"
#include "compiler/frontend/MLIRGenImpl.h"

using namespace npcc;
using namespace npcc::ast;

namespace npcc {
/// ConstFnRunner's view of the front end's values: the function's locals
/// are an Env of their own, evaluated by a ConstEval over it.
struct ConstFnAdapter {
  Sema &sema;
  Env locals;
  ConstEval inner;
  const FnDecl &fn;
  llvm::StringRef what;
  /// Silent when the caller only asks whether a value is constant.
  bool report;

  ConstFnAdapter(Sema &sema, const FnDecl &fn, llvm::StringRef what,
                 bool report)
      : sema(sema), inner(sema, locals), fn(fn), what(what), report(report) {
    inner.allowSilentCalls(!report);
  }

  std::optional<CValue> eval(const Expr &e) {
    return report ? inner.eval(e, what) : inner.tryEval(e);
  }

  /// An integer is wrapped to `t`; other values are kept as they are.
  static CValue wrapped(CValue v, const Ty &t) {
    if (v.kind == CValue::Int)
      v.i = ConstEval::wrapTo(v.i, t);
    return v;
  }

  std::optional<CValue> declare(const Stmt &s) {
    if (s.init) {
      auto v = eval(*s.init);
      return v && s.type ? wrapped(*v, sema.resolve(*s.type, false)) : v;
    }
    CValue zero; // `var n: u32;` starts at 0, a bool at false
    Ty t = sema.resolve(*s.type, false);
    if (t.kind == Ty::Bool)
      zero.kind = CValue::Bool;
    else if (t.kind != Ty::Int) {
      error(s.loc, "a compile-time '" + t.str() + "' needs a value");
      return std::nullopt;
    }
    return zero;
  }

  std::optional<CValue> assign(const Stmt &s, const CValue &old,
                               const CValue &value) {
    if (s.op == "=")
      return wrapped(value, s.target->ty);
    const Ty &t = s.target->ty;
    bool cmp;
    CValue r = old;
    r.i = foldBinary(llvm::StringRef(s.op).drop_back(), old.i, value.i,
                     t.isSignedInt(), cmp);
    return wrapped(r, t);
  }

  std::optional<CValue> lookup(llvm::StringRef name) {
    auto it = locals.find(name);
    if (it == locals.end())
      return std::nullopt;
    return it->second;
  }

  void bind(llvm::StringRef name, std::optional<CValue> v) {
    if (v)
      locals[name] = *v;
    else
      locals.erase(name);
  }

  CValue index(int64_t k) {
    CValue v;
    v.i = (uint64_t)k;
    return v;
  }
  std::optional<int64_t> toInt(const CValue &v) { return (int64_t)v.i; }
  bool isTrue(const CValue &v) { return v.i != 0; }

  std::optional<CValue> result(const CValue &v) {
    return fn.result ? wrapped(v, sema.resolve(*fn.result, false)) : v;
  }

  void error(const Loc &loc, const std::string &message) {
    if (report)
      sema.error(loc) << message;
  }
};
} // namespace npcc

std::optional<CValue> ConstEval::evalFnCall(const Expr &e, const FnDecl &f,
                                            bool report, llvm::StringRef what) {
  if (e.args.size() != f.params.size())
    return std::nullopt; // Sema has reported it
  ConstFnAdapter adapter(sema, f, what, report);
  for (size_t k = 0; k < f.params.size(); ++k) {
    auto v = evalImpl(*e.args[k], report, what);
    if (!v)
      return v;
    adapter.locals[f.params[k].name] =
        ConstFnAdapter::wrapped(*v, sema.resolve(*f.params[k].type, false));
  }
  std::optional<CValue> r =
      ConstFnRunner<CValue, ConstFnAdapter>(adapter, f).run();
  if (r)
    r->loc = e.loc;
  return r;
}
