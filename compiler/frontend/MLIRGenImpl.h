//===- MLIRGenImpl.h - state shared by the MLIRGen files --------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Private to compiler/frontend. Elaboration (Elaborate.cpp) specialises
// elements and emits graphs, evaluating compile-time values with ConstEval
// (ConstEval.cpp); BodyGen (BodyGen.h) emits the handler bodies of one
// specialised element.
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_FRONTEND_MLIRGENIMPL_H
#define NPCC_FRONTEND_MLIRGENIMPL_H

#include "compiler/frontend/AST.h"
#include "compiler/frontend/Sema.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"

#include <map>
#include <optional>

namespace npcc {

/// A value known at compile time: parameters, constants, array sizes.
struct CValue {
  // Prefix: i = len << 32 | addr. Record: list holds the fields in order.
  enum Kind { Int, Bool, Str, List, Prefix, Record } kind = Int;
  uint64_t i = 0;
  std::string s;
  std::string define; // Str: the Click `$NAME` it came from, if any
  std::vector<CValue> list;
  const ast::RecordDecl *record = nullptr;
  ast::Loc loc;

  std::string key() const; // canonical text, used to deduplicate
  mlir::Attribute toAttr(mlir::Builder &b) const;
  /// Whether `v` is a value of type `t` (integers: unsigned ones fit).
  static bool fits(const CValue &v, const ast::Ty &t);
};

using Env = llvm::StringMap<CValue>;

/// Evaluates constant expressions against parameters and module constants.
class ConstEval {
public:
  ConstEval(Sema &sema, const Env &env) : sema(sema), envp(&env) {}
  /// Reports "not a compile-time constant" (naming `what`) on failure.
  std::optional<CValue> eval(const ast::Expr &e, llvm::StringRef what);
  /// Like eval, but silent: used to decide whether something is constant.
  std::optional<CValue> tryEval(const ast::Expr &e);
  /// The names that are constants from now on (an inlined function sees
  /// none of its caller's parameters); returns the previous ones.
  const Env &setEnv(const Env &e) {
    const Env &old = *envp;
    envp = &e;
    return old;
  }
  /// `v` truncated to the width of `t` (sign-extended if signed).
  static uint64_t wrapTo(uint64_t v, const ast::Ty &t);
  /// Lets tryEval run functions, silently: a constant's value and the body
  /// of a function it calls are constant expressions by definition.
  void allowSilentCalls(bool allow) { silentCalls = allow; }

private:
  std::optional<CValue> evalImpl(const ast::Expr &e, bool report,
                                 llvm::StringRef what);
  std::optional<CValue> evalConstructor(const ast::Expr &e,
                                        const ast::RecordDecl &rec, bool report,
                                        llvm::StringRef what);
  /// A call of a user function, its body run (ConstEvalFn.cpp).
  std::optional<CValue> evalFnCall(const ast::Expr &e, const ast::FnDecl &f,
                                   bool report, llvm::StringRef what);
  Sema &sema;
  const Env *envp;
  bool silentCalls = false;
};

/// A specialised element: the declaration plus its parameter values.
struct ElementSpec {
  const ast::ElementDecl *decl;
  Env env;
  std::string symbol;
  /// Port names after expanding port arrays (`o[0]`, `o[1]`, ...), with the
  /// declaration each came from.
  struct Port {
    std::string name;
    bool isInput;
    ast::Ty elem;
    const ast::PortDecl *decl;
  };
  std::vector<Port> ports;
  llvm::StringMap<uint64_t> portArraySizes;
};

/// Emits the np.element for `spec` into `module`. Returns false on error.
bool emitElement(Sema &sema, mlir::ModuleOp module, ElementSpec &spec);

/// The arith operation of a binary operator that lowers the same way in
/// handlers and match programs (bitwise, +, -, *, comparisons); null for
/// the others (/, %, shifts).
mlir::Value emitPlainBinary(mlir::OpBuilder &b, mlir::Location l,
                            llvm::StringRef op, mlir::Value a, mlir::Value c,
                            bool isSigned);

/// `~a` (op "~": a xor all ones) or `-a` (op "-": 0 minus a), the same in
/// handlers and match programs.
mlir::Value emitIntUnary(mlir::OpBuilder &b, mlir::Location l,
                         llvm::StringRef op, mlir::Value a);

/// `a << c` or `a >> c` in a handler: the amount `c` (any integer type) is
/// zero-extended or clamped to a's width, so that an amount of the width or
/// more shifts every bit out (>> of a signed value: copies of the sign);
/// the IR never shifts by the width or more, which arith leaves undefined.
mlir::Value emitShift(mlir::OpBuilder &b, mlir::Location l, llvm::StringRef op,
                      mlir::Value a, mlir::Value c, bool isSigned);

/// Built-ins that are plain arithmetic (ArithGen.cpp). Counts are u32.
mlir::Value emitPopcount(mlir::OpBuilder &b, mlir::Location l, mlir::Value x);
mlir::Value emitClz(mlir::OpBuilder &b, mlir::Location l, mlir::Value x);
mlir::Value emitCtz(mlir::OpBuilder &b, mlir::Location l, mlir::Value x);
mlir::Value emitBswap(mlir::OpBuilder &b, mlir::Location l, mlir::Value x);
/// A u32 hash of the values (each zero-extended to 64 bits).
mlir::Value emitHash(mlir::OpBuilder &b, mlir::Location l,
                     llvm::ArrayRef<mlir::Value> xs);
/// The Internet checksum (u16) of a u32 one's complement sum.
mlir::Value emitCsumFold(mlir::OpBuilder &b, mlir::Location l, mlir::Value acc);
/// RFC 1624: checksum `hc` after a 16-bit word changed from `old` to `neu`.
mlir::Value emitCsumUpdate(mlir::OpBuilder &b, mlir::Location l, mlir::Value hc,
                           mlir::Value old, mlir::Value neu);

/// `a as to`: truncation, sign or zero extension by the source type, or a
/// compare with zero for bool.
mlir::Value emitCast(mlir::OpBuilder &b, mlir::Location l, mlir::Value a,
                     const ast::Ty &from, const ast::Ty &to);

/// min(a, c) or max(a, c) as a compare and a select.
mlir::Value emitMinMax(mlir::OpBuilder &b, mlir::Location l, bool isMin,
                       bool isSigned, mlir::Value a, mlir::Value c);

/// Emits a match.program for every match declaration. False on error.
bool emitMatchPrograms(Sema &sema, ast::Module &m, mlir::ModuleOp module);

/// Converts a semantic type to the MLIR type used in handler bodies.
mlir::Type toMLIRType(mlir::MLIRContext *ctx, const ast::Ty &t);

/// Reads "12/0800%0fff 23/06" style Click classifier patterns.
struct PatternClause {
  unsigned offset;
  std::vector<uint8_t> value, mask;
};
bool parseClassifierPattern(llvm::StringRef text,
                            std::vector<PatternClause> &out,
                            std::string &error);

} // namespace npcc

#endif // NPCC_FRONTEND_MLIRGENIMPL_H
