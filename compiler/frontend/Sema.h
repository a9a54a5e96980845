//===- Sema.h - NPL semantic analysis ---------------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Sema resolves names and types of a parsed NPL module and checks every
// element body generically (parameters are typed but not yet valued). It
// attaches a Ty to each expression for MLIRGen. Checks that need parameter
// values (port counts, constant loop bounds, connections) happen during
// elaboration in MLIRGen, which reuses the lookups below.
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_FRONTEND_SEMA_H
#define NPCC_FRONTEND_SEMA_H

#include "compiler/frontend/AST.h"
#include "compiler/frontend/Builtins.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringMap.h"

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace npcc {

/// Converts an AST location to an MLIR FileLineColLoc.
mlir::Location toLoc(mlir::MLIRContext *ctx, const ast::Loc &l);

/// The metadata fields of a packet reachable as `p.field`.
bool isPacketMetaField(llvm::StringRef name, unsigned &width);

/// The warnings the front end emits. Each has a stable name, used by
/// -W<name>, -Wno-<name> and -Werror=<name> and printed after the message
/// ("unused variable 'x' [-Wunused-variable]"). ChannelDepth is
/// np-check-channels' (its `channel-depth` option). ShadowLibrary: a
/// program's element or graph replaces a library one of that name.
enum class Warning : unsigned {
  UnusedVariable,
  UnreachableCode,
  ChannelDepth,
  ShadowLibrary,
  Count
};

struct WarningOptions {
  bool enabled[(unsigned)Warning::Count] = {true, false, true, true};
  bool asError[(unsigned)Warning::Count] = {false, false, false, false};
  bool allAsErrors = false; // -Werror

  static const char *name(Warning w);
  /// "ignore", "warn" or "error": what the flags make of `w`.
  const char *mode(Warning w) const;
  /// Applies the text after -W: "NAME", "no-NAME", "error", "no-error",
  /// "error=NAME", "no-error=NAME". False if NAME is unknown.
  bool apply(llvm::StringRef flag);
};

class Sema {
public:
  Sema(mlir::MLIRContext *ctx, ast::Module &module);

  /// Runs all checks; returns false if any error was reported.
  bool run();

  const ast::ElementDecl *lookupElement(llvm::StringRef name) const;
  const ast::GraphDecl *lookupGraph(llvm::StringRef name) const;
  const ast::RecordDecl *lookupRecord(llvm::StringRef name) const;
  const ast::ConstDecl *lookupConst(llvm::StringRef name) const;
  const ast::FnDecl *lookupFn(llvm::StringRef name) const;
  /// A named packet annotation and the word of the packet that holds it.
  struct Annotation {
    const ast::AnnotationDecl *decl;
    ast::Ty ty;
    unsigned slot;
  };
  /// A pcap file a program names (device_recv("in.pcap")): the n-th file
  /// of a direction is device n of that direction.
  struct NamedDevice {
    bool output;
    std::string path, define;
    uint32_t linkType = 0, snaplen = 0;
    ast::Loc loc;
  };
  std::vector<NamedDevice> namedDevices;
  /// The device number of file `path` (added on first use); -1 after an
  /// error (a file used with two link types).
  int namedDevice(bool output, const std::string &path,
                  const std::string &define, uint32_t linkType,
                  uint32_t snaplen, const ast::Loc &loc);
  const Annotation *lookupAnnotation(llvm::StringRef name) const {
    auto it = annotations.find(name);
    return it == annotations.end() ? nullptr : &it->second;
  }

  /// Resolves a written type. Array sizes are not evaluated here (len 0).
  ast::Ty resolve(const ast::TypeRef &t, bool report = true);
  /// 64-bit words a key or value of type `t` takes in a table (0: none).
  unsigned tableWords(const ast::Ty &t);

  /// Bit offset and width of `field` in header `h`; false if absent.
  static bool headerField(const ast::RecordDecl &h, llvm::StringRef field,
                          unsigned &bitOffset, unsigned &width);

  /// Where `field` of a struct lives in the 64-bit words a match program
  /// reads: fields are packed from the least significant bit of word 0
  /// and never straddle two words. False if absent or unsized.
  static bool matchField(const ast::RecordDecl &r, llvm::StringRef field,
                         unsigned &word, unsigned &lsb, unsigned &width);
  /// The number of words a struct occupies in that layout.
  static unsigned matchWords(const ast::RecordDecl &r);

  mlir::InFlightDiagnostic error(const ast::Loc &l);
  /// Reports `msg` as warning `w` if it is enabled (as an error under
  /// -Werror or -Werror=<name>), with `note` at `noteLoc` if given.
  void warn(const ast::Loc &l, Warning w, const llvm::Twine &msg,
            const ast::Loc *noteLoc = nullptr, const llvm::Twine &note = {});
  WarningOptions warnings;
  void errorWithNote(const ast::Loc &l, const llvm::Twine &msg,
                     const ast::Loc &noteLoc, const llvm::Twine &note);
  unsigned errorCount() const { return errors; }
  mlir::MLIRContext *getContext() const { return ctx; }

private:
  struct Symbol {
    enum Kind { Const, Param, Port, State, Let, Var, Loop } kind;
    ast::Ty ty;
    ast::Loc loc;
    mutable bool used = false;
  };
  using Scope = llvm::StringMap<Symbol>;

  ast::Ty resolveContainer(const ast::TypeRef &t, bool report);
  void checkDuplicates();
  /// -Wshadow-library for each library declaration loadProgram dropped.
  void warnShadowed();
  void checkAnnotations();
  llvm::StringMap<Annotation> annotations;
  void checkRecord(const ast::RecordDecl &r);
  void checkElement(ast::ElementDecl &e);
  void checkMerge(const ast::StateVar &v, const ast::Ty &t);
  void checkGraphDecl(const ast::GraphDecl &g);
  void checkMatch(ast::MatchDecl &m);
  void checkFn(ast::FnDecl &f);
  ast::Ty checkFnCall(ast::Expr &e, const ast::FnDecl &f);
  ast::Ty checkConstructor(ast::Expr &e, const ast::RecordDecl &r);
  /// `e` names a packet queue of the element's state (for `what`).
  bool queueOperand(ast::Expr &e, llvm::StringRef what);
  const ast::Ty *tableOperand(ast::Expr &e, llvm::StringRef what);
  void checkLoad(ast::Expr &e);
  void checkRecursion();
  void beginBodyScopes();
  void checkBlock(ast::Block &b);
  void popScope();
  void checkStmt(ast::Stmt &s);
  ast::Ty checkExpr(ast::Expr &e, const ast::Ty *expected = nullptr);
  ast::Ty checkCall(ast::Expr &e);
  ast::Ty checkFixedCall(ast::Expr &e, const BuiltinInfo &row);
  bool checkArity(ast::Expr &e, size_t n);
  ast::Ty checkField(ast::Expr &e);
  void checkAssignTarget(ast::Expr &e);
  bool coerce(ast::Expr &e, const ast::Ty &to);
  const ast::Ty *expectPort(ast::Expr &e, bool wantInput);
  const Symbol *lookup(llvm::StringRef name) const;
  void declare(llvm::StringRef name, Symbol s);

  mlir::MLIRContext *ctx;
  ast::Module &module;
  llvm::StringMap<const ast::ElementDecl *> elements;
  llvm::StringMap<const ast::GraphDecl *> graphs;
  llvm::StringMap<const ast::RecordDecl *> records;
  llvm::StringMap<const ast::ConstDecl *> consts;
  llvm::StringMap<const ast::FnDecl *> fns;
  /// Calls between functions, for the recursion check: caller -> callees
  /// with the location of each call.
  llvm::StringMap<std::vector<std::pair<std::string, ast::Loc>>> calls;
  const ast::FnDecl *currentFn = nullptr;
  /// Set while a function's parameters resolve: only they may be `[T]`.
  bool unsizedArrayOk = false;
  const ast::ControlDecl *currentControl = nullptr; // read/write handler
  void checkControl(ast::ControlDecl &c);
  std::vector<Scope> scopes;
  const ast::ElementDecl *currentElement = nullptr;
  bool inHandler = false;
  bool inInit = false;
  bool inTimer = false; // sends, but never waits to receive
  bool inMatch = false;
  unsigned loopDepth = 0; // loops around the statement being checked
  unsigned errors = 0;
};

/// Checks that every packet is sent or dropped exactly once on every path
/// of every element body (Ownership.cpp). Run on a module Sema accepted.
void checkPacketOwnership(Sema &sema, ast::Module &m);

} // namespace npcc

#endif // NPCC_FRONTEND_SEMA_H
