//===- BodyGen.h - emits element bodies (private) ---------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Private to compiler/frontend: MLIRGenBody.cpp emits element structure and
// storage, MLIRGenStmt.cpp statements, MLIRGenQueue.cpp packet queues,
// MLIRGenExpr.cpp expressions and MLIRGenBuiltins.cpp calls of builtins.
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_FRONTEND_BODYGEN_H
#define NPCC_FRONTEND_BODYGEN_H

#include "compiler/frontend/MLIRGenImpl.h"

#include "dialects/NP/IR/NPOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace npcc {

using ast::Block;
using ast::ElementDecl;
using ast::Expr;
using ast::ExprPtr;
using ast::Loc;
using ast::SelectCase;
using ast::Stmt;
using ast::StmtPtr;
using ast::Ty;
using mlir::Value;

/// What a name means inside a body.
struct Binding {
  enum Kind { SSA, Var, State, Header, Const } kind = SSA;
  Ty ty;
  Value value;       // SSA value, or the memref of a Var
  std::string state; // State: symbol (field symbols are state.field)
  Value pkt, offset; // Header view: packet and byte offset
  llvm::StringMap<Value> fields; // Var of struct type: memref per field
  CValue cval;
};

/// A packet index or header offset as the 64-bit byte offset np.pkt_get and
/// np.pkt_set take (zero-extended: a packet index is never negative).
inline mlir::Value packetByteOffset(mlir::OpBuilder &b, mlir::Location l,
                                    mlir::Value v) {
  if (v.getType().isInteger(64))
    return v;
  return b.create<mlir::arith::ExtUIOp>(l, b.getI64Type(), v);
}

class BodyGen {
public:
  BodyGen(Sema &sema, ElementSpec &spec, mlir::OpBuilder &b)
      : sema(sema), spec(spec), b(b), ctx(b.getContext()), ce(sema, spec.env) {}

  bool emit(np::ElementOp element);

private:
  // Statements
  void genBlock(const Block &block);
  void genStmt(const Stmt &s);
  void genAssign(const Stmt &s);
  void genLoop(const Stmt &s);
  void genSelect(const Stmt &s);
  void genLocal(const Stmt &s);

  // Expressions
  Value gen(const Expr &e);
  Value genBinary(const Expr &e);
  Value genCall(const Expr &e);
  Value genOneOpBuiltin(const Expr &e);
  Value genField(const Expr &e);
  Value genIndex(const Expr &e);
  Value genCast(const Expr &e);
  const std::vector<CValue> *classifierPatterns(const Expr &e);
  /// `p` matched against the pattern strings of `classify(p, pats)` and
  /// `ipclassify(p, pats)`.
  Value genClassify(const Expr &e, Value p, const std::vector<CValue> &pats);
  Value genIPClassify(const Expr &e, Value p, const std::vector<CValue> &pats);
  Value inlineCall(const Expr &e, const ast::FnDecl &f);
  Value genRecvAny(const Expr &e);
  Value genEnqueue(const Expr &e);
  void genDequeue(const Stmt &ifLet);
  /// The arms of an `if let`, the insertion point in the then-block: the
  /// body with the name bound to `bound`, then the else-body.
  void genIfLetArms(const Stmt &s, mlir::scf::IfOp ifOp, const Ty &ty,
                    Value bound);
  void genIfLetArms(const Stmt &s, mlir::scf::IfOp ifOp, const Binding &bd);
  Value queueLength(const Expr &queue);
  void emitQueueDrain(mlir::Location l, const std::string &queue, uint64_t n);
  Value genHeaderField(const Expr &view, const std::string &field,
                       Value newValue);
  Value prefixField(mlir::Location l, Value v, llvm::StringRef field);
  Value namedDevice(const Expr &call);

  // Tables (MLIRGenTable.cpp)
  struct TableInfo {
    Ty ty;
    Value mem;
    np::TableKind kind;
    unsigned keyWords, valueWords;
  };
  TableInfo tableInfo(const Expr &table);
  Value tableOp(mlir::Location l, const TableInfo &t, np::TableOpKind op,
                mlir::ValueRange args);
  llvm::SmallVector<Value> scalarsOf(const Expr &e);
  bool storeTableWords(const TableInfo &t, unsigned first, const Expr &e,
                       unsigned words);
  Value genTableCall(const Expr &e);
  void emitControl(const ast::ControlDecl &c);
  void genRecordAssign(const Stmt &s);
  void genLookup(const Stmt &s);

  // Storage helpers
  Value stateRef(const std::string &sym);
  Value loadScalar(Value memref);
  void storeScalar(Value memref, Value v);
  Value guardedLoad(Value memref, Value index, const Ty &elem);
  void guardedStore(Value memref, Value index, Value v);
  Value storageOf(const Expr &e, std::string &fieldOut, Value &indexOut);
  Value allocLocal(const Ty &t, uint64_t len);
  Value constArray(const Expr &name, const std::string &field);

  // Ports
  std::optional<std::string> portName(const Expr &portExpr, Value *dynIndex);
  void sendTo(const Expr &portExpr, Value v, const Loc &callLoc);

  // Utilities
  mlir::Location loc(const Loc &l) { return toLoc(ctx, l); }
  Value constInt(mlir::Location l, mlir::Type t, uint64_t v) {
    return b.create<mlir::arith::ConstantOp>(l, t,
                                             b.getIntegerAttr(t, (int64_t)v));
  }
  Value i32(mlir::Location l, uint64_t v) {
    return constInt(l, b.getI32Type(), v);
  }
  Value toI32(Value v, const Ty &t);
  Value toIndex(Value v, const Ty &t);
  Value notOf(Value v) {
    return b.create<mlir::arith::XOrIOp>(
        v.getLoc(), v, constInt(v.getLoc(), b.getI1Type(), 1));
  }
  Binding *lookup(const std::string &name) {
    for (auto it = scopes.rbegin(); it != scopes.rend(); ++it) {
      auto f = it->find(name);
      if (f != it->end())
        return &f->second;
    }
    return nullptr;
  }
  static bool mayReturn(const Stmt &s);
  /// `s` may `break` (which == Break) or `continue` the innermost loop
  /// around it (not a loop inside `s`).
  static bool exitsLoop(const Stmt &s, Stmt::Kind which);
  static bool exitsLoop(const Block &b, Stmt::Kind which) {
    for (const StmtPtr &s : b)
      if (exitsLoop(*s, which))
        return true;
    return false;
  }
  /// True once the body returned or the innermost loop broke or continued:
  /// the statements after such a statement are guarded by its negation.
  Value exitFlagsSet(mlir::Location l);
  static bool mayReturn(const Block &b) {
    for (const StmtPtr &s : b)
      if (mayReturn(*s))
        return true;
    return false;
  }
  void emitBody(mlir::Region &region, const Block &body,
                mlir::BlockArgument signalArg = nullptr);
  bool failed() const { return sema.errorCount() != errorsAtStart; }

  Sema &sema;
  ElementSpec &spec;
  mlir::OpBuilder &b;
  mlir::MLIRContext *ctx;
  ConstEval ce;
  std::vector<llvm::StringMap<Binding>> scopes;
  Value returnFlag;
  Value resultSlot; // the result of the function being inlined, if any
  /// The flags of the loops around the statement being emitted (null when
  /// the loop body has no break or continue).
  struct LoopFlags {
    Value broken, continued;
  };
  std::vector<LoopFlags> loops;
  unsigned errorsAtStart = 0;
};

} // namespace npcc

#endif // NPCC_FRONTEND_BODYGEN_H
