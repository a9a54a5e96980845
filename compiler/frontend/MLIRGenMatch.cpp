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
//===----------------------------------------------------------------------===//

#include "compiler/frontend/MLIRGen.h"
#include "compiler/frontend/MLIRGenImpl.h"

#include "dialects/Match/IR/MatchOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

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

  void genBlock(const Block &block, Value path);
  void genStmt(const Stmt &s, Value path);
  Value gen(const Expr &e);
  Value genBinary(const Expr &e);
  Value genField(const Expr &e);
  Value constInt(mlir::Location l, mlir::Type t, uint64_t v) {
    return b.create<mlir::arith::ConstantOp>(l, t,
                                             b.getIntegerAttr(t, (int64_t)v));
  }
  Value andPath(Value path, Value c, mlir::Location l) {
    return path ? (Value)b.create<mlir::arith::AndIOp>(l, path, c) : c;
  }
  Value toU64(Value v, const Ty &t, mlir::Location l) {
    unsigned w = v.getType().getIntOrFloatBitWidth();
    if (w == 64)
      return v;
    if (t.kind == Ty::Int && t.isSigned)
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
  headerName = m.params[0].name;
  itemName = m.params[1].name;
  headerRec = sema.lookupRecord(m.params[0].type->name);
  itemRec = sema.lookupRecord(m.params[1].type->name);
  scopes.emplace_back();
  genBlock(m.body, nullptr);
}

void MatchGen::genBlock(const Block &block, Value path) {
  scopes.emplace_back();
  for (const StmtPtr &s : block)
    genStmt(*s, path);
  scopes.pop_back();
}

void MatchGen::genStmt(const Stmt &s, Value path) {
  mlir::Location l = loc(s.loc);
  switch (s.kind) {
  case Stmt::Let:
  case Stmt::Var: {
    Ty t = s.type ? sema.resolve(*s.type, false) : s.init->ty;
    Value v = s.init ? gen(*s.init) : constInt(l, toMLIRType(ctx, t), 0);
    scopes.back()[s.name] = {v, t};
    return;
  }
  case Stmt::Assign: {
    Var *var = s.target->kind == Expr::Name ? lookup(s.target->text) : nullptr;
    if (!var) {
      sema.error(s.target->loc) << "a match program can only assign to its "
                                   "own variables";
      return;
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
    return;
  }
  case Stmt::If: {
    Value c = gen(*s.cond);
    Value one = constInt(l, b.getI1Type(), 1);
    Value notC = b.create<mlir::arith::XOrIOp>(l, c, one);
    genBlock(s.body, andPath(path, c, l));
    if (!s.elseBody.empty())
      genBlock(s.elseBody, andPath(path, notC, l));
    return;
  }
  case Stmt::Fail:
    b.create<match::FailIfOp>(l, path ? path : constInt(l, b.getI1Type(), 1));
    return;
  case Stmt::ExprStmt: {
    const Expr &e = *s.init;
    if (e.kind == Expr::Call && e.text == "accept") {
      Value off = toU64(gen(*e.args[0]), e.args[0]->ty, l);
      Value len = toU64(gen(*e.args[1]), e.args[1]->ty, l);
      b.create<match::AcceptOp>(l, off, len);
      return;
    }
    gen(e);
    return;
  }
  case Stmt::Nested:
    genBlock(s.body, path);
    return;
  default:
    sema.error(s.loc) << "not allowed in a match program";
    return;
  }
}

Value MatchGen::genField(const Expr &e) {
  mlir::Location l = loc(e.loc);
  const Expr &base = *e.args[0];
  bool isHeader = base.kind == Expr::Name && base.text == headerName;
  bool isItem = base.kind == Expr::Name && base.text == itemName;
  if (!isHeader && !isItem) {
    sema.error(e.loc) << "fields are read from the header or the item";
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
    sema.error(e.loc) << "'" << e.text << "' is a struct; read its fields";
    return constInt(l, b.getI64Type(), 0);
  }
  case Expr::Field:
    return genField(e);
  case Expr::Unary: {
    Value a = gen(*e.args[0]);
    if (e.text == "!")
      return b.create<mlir::arith::XOrIOp>(l, a, constInt(l, b.getI1Type(), 1));
    if (e.text == "~")
      return b.create<mlir::arith::XOrIOp>(l, a,
                                           constInt(l, a.getType(), ~0ull));
    return b.create<mlir::arith::SubIOp>(l, constInt(l, a.getType(), 0), a);
  }
  case Expr::Binary:
    return genBinary(e);
  case Expr::Cond:
    return b.create<mlir::arith::SelectOp>(l, gen(*e.args[0]), gen(*e.args[1]),
                                           gen(*e.args[2]));
  case Expr::Cast:
    return emitCast(b, l, gen(*e.args[0]), e.args[0]->ty, e.ty);
  case Expr::Call: {
    Builtin bi = lookupBuiltin(e.text);
    if (bi == Builtin::Min || bi == Builtin::Max)
      return emitMinMax(b, l, bi == Builtin::Min, e.ty.isSigned,
                        gen(*e.args[0]), gen(*e.args[1]));
    break;
  }
  default:
    break;
  }
  sema.error(e.loc) << "this expression is not allowed in a match program";
  return constInt(l, b.getI64Type(), 0);
}

Value MatchGen::genBinary(const Expr &e) {
  mlir::Location l = loc(e.loc);
  llvm::StringRef op = e.text;
  Value a = gen(*e.args[0]);
  Value c = gen(*e.args[1]);
  const Ty &t = e.args[0]->ty;
  bool sgn = t.kind == Ty::Int && t.isSigned;
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
