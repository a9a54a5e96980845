//===- MLIRGenMatch.cpp - NPL match programs to the match dialect ---------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// A match program runs once per list item and its statements only compute
// values, so it is if-converted here: every statement runs under a path
// condition, an assignment under a condition becomes a select, and `fail`
// becomes `match.fail_if` of its path condition. The result is one
// straight-line block, the form the match unit executes best (predicated
// writes instead of branches).
//
// Calls of `fn` are inlined the same way: the callee's statements run under
// conditions local to its body, a `return` under a condition becomes a
// select of the result and adds to the condition under which the function
// has returned, which guards every statement after it. The caller's path
// condition does not enter the callee: a function has no effect but its
// result, which the caller selects under its own path.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/ConstFnRunner.h"
#include "compiler/frontend/MLIRGen.h"
#include "compiler/frontend/MLIRGenImpl.h"

#include "dialects/Match/IR/MatchOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <set>

using namespace npcc;
using namespace npcc::ast;
using mlir::Value;

namespace {

class MatchGen {
public:
  MatchGen(Sema &sema, mlir::OpBuilder &b)
      : sema(sema), b(b), ctx(b.getContext()), ce(sema, env) {}

  void emit(const MatchDecl &m);

private:
  struct Var {
    Value value;
    Ty ty;
  };

  /// Both return whether every path through them returned from the
  /// function being inlined (the statements after them are dead).
  bool genBlock(const Block &block, Value path);
  bool genStmt(const Stmt &s, Value path);
  Value gen(const Expr &e);
  Value genCall(const Expr &e);
  Value inlineCall(const Expr &e, const FnDecl &f);
  /// An error at `l`, with a note at each call that inlined the function
  /// it is in. A function called twice reports a construct once.
  void error(const Loc &l, const llvm::Twine &msg);
  Value genBinary(const Expr &e);
  Value genField(const Expr &e);
  Value constInt(mlir::Location l, mlir::Type t, uint64_t v) {
    return b.create<mlir::arith::ConstantOp>(l, t,
                                             b.getIntegerAttr(t, (int64_t)v));
  }
  Value andPath(Value path, Value c, mlir::Location l) {
    return path ? (Value)b.create<mlir::arith::AndIOp>(l, path, c) : c;
  }
  Value notOf(Value c, mlir::Location l) {
    return b.create<mlir::arith::XOrIOp>(l, c, constInt(l, b.getI1Type(), 1));
  }
  Value toU64(Value v, const Ty &t, mlir::Location l) {
    unsigned w = v.getType().getIntOrFloatBitWidth();
    if (w == 64)
      return v;
    if (t.isSignedInt())
      return b.create<mlir::arith::ExtSIOp>(l, b.getI64Type(), v);
    return b.create<mlir::arith::ExtUIOp>(l, b.getI64Type(), v);
  }
  Var *lookup(const std::string &name) {
    for (auto it = scopes.rbegin(); it != scopes.rend(); ++it) {
      auto f = it->find(name);
      if (f != it->end())
        return &f->second;
    }
    return nullptr;
  }
  mlir::Location loc(const Loc &l) { return toLoc(ctx, l); }

  Sema &sema;
  mlir::OpBuilder &b;
  mlir::MLIRContext *ctx;
  Env env;
  ConstEval ce;
  std::vector<llvm::StringMap<Var>> scopes;
  // The two parameters: header and item.
  std::string headerName, itemName;
  const RecordDecl *headerRec = nullptr, *itemRec = nullptr;
  const MatchDecl *decl = nullptr;
  /// A function being inlined: the call, the condition (local to its body)
  /// under which it has returned (null: on no path yet), and its result on
  /// the paths that returned.
  struct Frame {
    const FnDecl *fn;
    const Expr *call;
    Value returned;
    Value result;
  };
  std::vector<Frame> frames;
  std::set<std::tuple<const std::string *, unsigned, unsigned>> reported;
  std::map<unsigned, Value> headerWords, itemWords;
  mlir::Block *body = nullptr;
};

} // namespace

void MatchGen::emit(const MatchDecl &m) {
  mlir::Location l = loc(m.loc);
  auto program = b.create<match::ProgramOp>(l, m.name, 8, 8);
  body = new mlir::Block();
  program.getBody().push_back(body);
  b.setInsertionPointToStart(body);
  decl = &m;
  headerName = m.params[0].name;
  itemName = m.params[1].name;
  headerRec = sema.lookupRecord(m.params[0].type->name);
  itemRec = sema.lookupRecord(m.params[1].type->name);
  scopes.emplace_back();
  genBlock(m.body, nullptr);
}

void MatchGen::error(const Loc &l, const llvm::Twine &msg) {
  if (!reported.insert({l.file, l.line, l.col}).second && !frames.empty())
    return;
  auto diag = sema.error(l) << msg;
  for (size_t k = frames.size(); k-- > 0;) {
    const Frame &f = frames[k];
    if (k == 0)
      diag.attachNote(loc(f.call->loc))
          << "'" << f.fn->name << "' is inlined into match program '"
          << decl->name << "' here";
    else
      diag.attachNote(loc(f.call->loc))
          << "'" << f.fn->name << "' is inlined into '"
          << frames[k - 1].fn->name << "' here";
  }
}

bool MatchGen::genBlock(const Block &block, Value path) {
  scopes.emplace_back();
  bool returns = false;
  // `path` excludes the paths that had returned when the block was entered.
  Value entryReturned = frames.empty() ? Value() : frames.back().returned;
  for (const StmtPtr &s : block) {
    // After a return under some condition, the function's statements run
    // only where it has not returned.
    Value p = path;
    if (!frames.empty() && frames.back().returned != entryReturned)
      p = andPath(path, notOf(frames.back().returned, loc(s->loc)),
                  loc(s->loc));
    if (genStmt(*s, p)) {
      returns = true; // the rest is dead
      break;
    }
  }
  scopes.pop_back();
  return returns;
}

bool MatchGen::genStmt(const Stmt &s, Value path) {
  mlir::Location l = loc(s.loc);
  switch (s.kind) {
  case Stmt::Let:
  case Stmt::Var: {
    Ty t = s.type ? sema.resolve(*s.type, false) : s.init->ty;
    if (t.kind != Ty::Int && t.kind != Ty::Bool) {
      error(s.loc, "a match program's variables are integers or bools, not '" +
                       t.str() + "'");
      return false;
    }
    Value v = s.init ? gen(*s.init) : constInt(l, toMLIRType(ctx, t), 0);
    scopes.back()[s.name] = {v, t};
    return false;
  }
  case Stmt::Assign: {
    Var *var = s.target->kind == Expr::Name ? lookup(s.target->text) : nullptr;
    if (!var) {
      error(s.target->loc, "a match program can only assign to its own "
                           "variables");
      return false;
    }
    Value v;
    if (s.op == "=") {
      v = gen(*s.init);
    } else {
      Expr bin;
      bin.kind = Expr::Binary;
      bin.loc = s.loc;
      bin.text = s.op.substr(0, s.op.size() - 1);
      bin.ty = var->ty;
      Value rhs = gen(*s.init);
      llvm::StringRef op = bin.text;
      Value old = var->value;
      if (op == "+")
        v = b.create<mlir::arith::AddIOp>(l, old, rhs);
      else if (op == "-")
        v = b.create<mlir::arith::SubIOp>(l, old, rhs);
      else if (op == "&")
        v = b.create<mlir::arith::AndIOp>(l, old, rhs);
      else if (op == "|")
        v = b.create<mlir::arith::OrIOp>(l, old, rhs);
      else if (op == "^")
        v = b.create<mlir::arith::XOrIOp>(l, old, rhs);
      else if (op == "*")
        v = b.create<mlir::arith::MulIOp>(l, old, rhs);
      else {
        if (rhs.getType() != old.getType())
          rhs = b.create<mlir::arith::ExtUIOp>(l, old.getType(), rhs);
        v = op == "<<" ? (Value)b.create<mlir::arith::ShLIOp>(l, old, rhs)
                       : (Value)b.create<mlir::arith::ShRUIOp>(l, old, rhs);
      }
    }
    var->value =
        path ? (Value)b.create<mlir::arith::SelectOp>(l, path, v, var->value)
             : v;
    return false;
  }
  case Stmt::If: {
    Value c = gen(*s.cond);
    bool thenReturns = genBlock(s.body, andPath(path, c, l));
    bool elseReturns = !s.elseBody.empty() &&
                       genBlock(s.elseBody, andPath(path, notOf(c, l), l));
    return thenReturns && elseReturns;
  }
  case Stmt::Fail:
    b.create<match::FailIfOp>(l, path ? path : constInt(l, b.getI1Type(), 1));
    return false;
  case Stmt::Return: {
    // Sema admits `return` only in the functions, which are inlined.
    assert(!frames.empty() && "return outside of an inlined function");
    // The value first: a call in it grows `frames`.
    Value v = s.init ? gen(*s.init) : Value();
    Frame &f = frames.back();
    if (v) {
      f.result =
          path && f.result
              ? (Value)b.create<mlir::arith::SelectOp>(l, path, v, f.result)
              : v;
    }
    f.returned =
        path ? (f.returned
                    ? (Value)b.create<mlir::arith::OrIOp>(l, f.returned, path)
                    : path)
             : constInt(l, b.getI1Type(), 1);
    return !path;
  }
  case Stmt::ExprStmt: {
    const Expr &e = *s.init;
    if (e.kind == Expr::Call && lookupBuiltin(e.text) == Builtin::Accept) {
      Value off = toU64(gen(*e.args[0]), e.args[0]->ty, l);
      Value len = toU64(gen(*e.args[1]), e.args[1]->ty, l);
      b.create<match::AcceptOp>(l, off, len);
      return false;
    }
    gen(e);
    return false;
  }
  case Stmt::Nested:
    return genBlock(s.body, path);
  case Stmt::For:
  case Stmt::Unroll:
  case Stmt::While:
    error(s.loc, "loops are not allowed in a match program: it runs once "
                 "per list item, straight through");
    return false;
  case Stmt::Select:
  case Stmt::IfLet:
    error(s.loc, std::string("'") +
                     (s.kind == Stmt::Select ? "select" : "if let") +
                     "' is not allowed in a match program: it has no "
                     "channels, packets or tables");
    return false;
  default:
    error(s.loc, "this statement is not allowed in a match program");
    return false;
  }
}

Value MatchGen::genField(const Expr &e) {
  mlir::Location l = loc(e.loc);
  const Expr &base = *e.args[0];
  bool isHeader = base.kind == Expr::Name && base.text == headerName;
  bool isItem = base.kind == Expr::Name && base.text == itemName;
  if (!isHeader && !isItem) {
    error(e.loc, "fields are read from the header or the item");
    return constInt(l, b.getI64Type(), 0);
  }
  unsigned word = 0, lsb = 0, width = 0;
  Sema::matchField(isHeader ? *headerRec : *itemRec, e.text, word, lsb, width);
  auto &cache = isHeader ? headerWords : itemWords;
  Value &w = cache[word];
  if (!w) {
    mlir::OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(body);
    if (isHeader)
      w = b.create<match::HeaderWordOp>(l, b.getI64Type(), word);
    else
      w = b.create<match::ItemWordOp>(l, b.getI64Type(), word);
  }
  if (lsb == 0 && width == 64)
    return w;
  return b.create<match::FieldOp>(l, b.getIntegerType(width), w, lsb, width);
}

Value MatchGen::gen(const Expr &e) {
  mlir::Location l = loc(e.loc);
  if (e.ty.kind == Ty::Int || e.ty.kind == Ty::Bool)
    if (auto c = ce.tryEval(e))
      return constInt(l, toMLIRType(ctx, e.ty), c->i);
  switch (e.kind) {
  case Expr::Name: {
    if (Var *v = lookup(e.text))
      return v->value;
    error(e.loc, "'" + e.text + "' is a struct; read its fields");
    return constInt(l, b.getI64Type(), 0);
  }
  case Expr::Field:
    return genField(e);
  case Expr::Unary: {
    Value a = gen(*e.args[0]);
    if (e.text == "!")
      return b.create<mlir::arith::XOrIOp>(l, a, constInt(l, b.getI1Type(), 1));
    return emitIntUnary(b, l, e.text, a);
  }
  case Expr::Binary:
    return genBinary(e);
  case Expr::Cond:
    return b.create<mlir::arith::SelectOp>(l, gen(*e.args[0]), gen(*e.args[1]),
                                           gen(*e.args[2]));
  case Expr::Cast:
    return emitCast(b, l, gen(*e.args[0]), e.args[0]->ty, e.ty);
  case Expr::Call:
    return genCall(e);
  default:
    break;
  }
  error(e.loc, "this expression is not allowed in a match program");
  return constInt(l,
                  toMLIRType(ctx, e.ty.kind == Ty::Int || e.ty.kind == Ty::Bool
                                      ? e.ty
                                      : Ty::integer(64, false)),
                  0);
}

template <typename Op>
static Value bitOp(mlir::OpBuilder &b, mlir::Location l, Value x) {
  return b.create<Op>(l, x.getType(), x);
}

Value MatchGen::genCall(const Expr &e) {
  mlir::Location l = loc(e.loc);
  Builtin bi = lookupBuiltin(e.text);
  auto arg = [&](unsigned k) { return gen(*e.args[k]); };
  // The counts are NPL's u32 whatever the operand's width.
  auto toU32 = [&](Value n) -> Value {
    unsigned w = n.getType().getIntOrFloatBitWidth();
    if (w < 32)
      return b.create<mlir::arith::ExtUIOp>(l, b.getI32Type(), n);
    if (w > 32)
      return b.create<mlir::arith::TruncIOp>(l, b.getI32Type(), n);
    return n;
  };
  switch (bi) {
  case Builtin::Min:
  case Builtin::Max: {
    Value x = arg(0), y = arg(1); // left to right, as in element bodies
    return emitMinMax(b, l, bi == Builtin::Min, e.ty.isSigned, x, y);
  }
  case Builtin::Popcount:
    return toU32(bitOp<match::PopcountOp>(b, l, arg(0)));
  case Builtin::Clz:
    return toU32(bitOp<match::ClzOp>(b, l, arg(0)));
  case Builtin::Ctz:
    return toU32(bitOp<match::CtzOp>(b, l, arg(0)));
  case Builtin::Bswap:
    return bitOp<match::BswapOp>(b, l, arg(0));
  case Builtin::None:
    if (const FnDecl *f = sema.lookupFn(e.text)) {
      if (!isCompileTimeFn(*f))
        return inlineCall(e, *f);
      error(e.loc, compileTimeOnlyCall(*f));
      return constInt(l, b.getI64Type(), 0);
    }
    break;
  default:
    error(e.loc, "'" + e.text + "' is not available in a match program: " +
                     builtinInfo(bi).whyNotInMatch);
    return constInt(
        l,
        toMLIRType(ctx, e.ty.kind == Ty::Int || e.ty.kind == Ty::Bool
                            ? e.ty
                            : Ty::integer(64, false)),
        0);
  }
  error(e.loc, "this expression is not allowed in a match program");
  return constInt(l, b.getI64Type(), 0);
}

/// A call of a user function, inlined into the straight-line block. It
/// sees only its parameters and the module's constants.
Value MatchGen::inlineCall(const Expr &e, const FnDecl &f) {
  mlir::Location l = loc(e.loc);
  // Sema rejected call cycles and packet parameters before.
  assert(llvm::none_of(frames, [&](const Frame &fr) { return fr.fn == &f; }) &&
         "recursive call reached the inliner");
  llvm::SmallVector<Value> args;
  for (const ExprPtr &a : e.args)
    args.push_back(gen(*a));
  auto callerScopes = std::move(scopes);
  scopes.clear();
  scopes.emplace_back();
  for (size_t k = 0; k < f.params.size(); ++k)
    scopes.back()[f.params[k].name] = {args[k],
                                       sema.resolve(*f.params[k].type, false)};
  frames.push_back({&f, &e, nullptr, nullptr});
  genBlock(f.body, nullptr);
  Value result = frames.back().result;
  frames.pop_back();
  scopes = std::move(callerScopes);
  if (!result && f.result) // only after an error
    result = constInt(l, toMLIRType(ctx, sema.resolve(*f.result, false)), 0);
  return result;
}

Value MatchGen::genBinary(const Expr &e) {
  mlir::Location l = loc(e.loc);
  llvm::StringRef op = e.text;
  Value a = gen(*e.args[0]);
  Value c = gen(*e.args[1]);
  bool sgn = e.args[0]->ty.isSignedInt();
  if (Value v = emitPlainBinary(b, l, op, a, c, sgn))
    return v;
  // The operations below have no match-unit instruction; they are kept so
  // that the back end reports them at their source line.
  if (op == "/")
    return sgn ? (Value)b.create<mlir::arith::DivSIOp>(l, a, c)
               : (Value)b.create<mlir::arith::DivUIOp>(l, a, c);
  if (op == "%")
    return sgn ? (Value)b.create<mlir::arith::RemSIOp>(l, a, c)
               : (Value)b.create<mlir::arith::RemUIOp>(l, a, c);
  if (op == "<<" || op == ">>") {
    if (c.getType() != a.getType())
      c = c.getType().getIntOrFloatBitWidth() <
                  a.getType().getIntOrFloatBitWidth()
              ? (Value)b.create<mlir::arith::ExtUIOp>(l, a.getType(), c)
              : (Value)b.create<mlir::arith::TruncIOp>(l, a.getType(), c);
    if (op == "<<")
      return b.create<mlir::arith::ShLIOp>(l, a, c);
    return sgn ? (Value)b.create<mlir::arith::ShRSIOp>(l, a, c)
               : (Value)b.create<mlir::arith::ShRUIOp>(l, a, c);
  }
  llvm_unreachable("Sema admits no other binary operator");
}

bool npcc::emitMatchPrograms(Sema &sema, Module &m, mlir::ModuleOp module) {
  unsigned before = sema.errorCount();
  mlir::OpBuilder b(module.getContext());
  for (const MatchDecl &decl : m.matches) {
    b.setInsertionPointToEnd(module.getBody());
    MatchGen(sema, b).emit(decl);
  }
  return sema.errorCount() == before;
}
