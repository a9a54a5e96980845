//===- Sema.cpp - NPL name resolution and type checking -------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Sema checks a module in the order run() gives: declarations
// (SemaDecls.cpp), statements (SemaStmt.cpp), expressions (SemaExpr.cpp) and
// builtin calls (SemaBuiltins.cpp), resolving written types (SemaTypes.cpp).
// Warnings and their -W flags are in Warnings.cpp, the bit layout of headers,
// match structs and table entries in TypeLayout.cpp.
//
// Integer typing is strict, as in Rust: operands of a binary operator have
// the same type, and literals take the type their context gives them. A
// network engineer reading `ttl - 1` must never wonder about promotions.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/Sema.h"

#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"

using namespace npcc;
using namespace npcc::ast;

mlir::Location npcc::toLoc(mlir::MLIRContext *ctx, const Loc &l) {
  if (!l.file)
    return mlir::UnknownLoc::get(ctx);
  return mlir::FileLineColLoc::get(ctx, *l.file, l.line, l.col);
}

Sema::Sema(mlir::MLIRContext *ctx, Module &module) : ctx(ctx), module(module) {}

mlir::InFlightDiagnostic Sema::error(const Loc &l) {
  ++errors;
  return mlir::emitError(toLoc(ctx, l));
}

void Sema::errorWithNote(const Loc &l, const llvm::Twine &msg,
                         const Loc &noteLoc, const llvm::Twine &note) {
  auto d = error(l);
  d << msg;
  d.attachNote(toLoc(ctx, noteLoc)) << note;
}

const ElementDecl *Sema::lookupElement(llvm::StringRef n) const {
  return elements.lookup(n);
}
const GraphDecl *Sema::lookupGraph(llvm::StringRef n) const {
  return graphs.lookup(n);
}
const RecordDecl *Sema::lookupRecord(llvm::StringRef n) const {
  return records.lookup(n);
}
const ConstDecl *Sema::lookupConst(llvm::StringRef n) const {
  return consts.lookup(n);
}

const FnDecl *Sema::lookupFn(llvm::StringRef n) const { return fns.lookup(n); }

int Sema::namedDevice(bool output, const std::string &path,
                      const std::string &define, uint32_t linkType,
                      uint32_t snaplen, const Loc &loc) {
  int index = 0;
  for (const NamedDevice &d : namedDevices) {
    if (d.output != output)
      continue;
    if (d.path == path && d.define == define) {
      if (output && (d.linkType != linkType || d.snaplen != snaplen)) {
        errorWithNote(loc,
                      "'" + path +
                          "' is written with two link types or "
                          "snap lengths",
                      d.loc, "first written here");
        return -1;
      }
      return index;
    }
    ++index;
  }
  namedDevices.push_back({output, path, define, linkType, snaplen, loc});
  return index;
}

bool Sema::run() {
  warnShadowed();
  checkDuplicates();
  checkAnnotations();
  for (const RecordDecl &r : module.records)
    checkRecord(r);
  scopes.clear();
  scopes.emplace_back();
  for (ConstDecl &c : module.consts) {
    Ty t = resolve(*c.type);
    auto plain = [](const Ty &x) {
      return x.kind == Ty::Int || x.kind == Ty::Bool || x.kind == Ty::Prefix ||
             x.kind == Ty::Record;
    };
    bool scalarArray = t.kind == Ty::Array && t.elem && plain(*t.elem);
    if (!plain(t) && t.kind != Ty::Error && !scalarArray)
      error(c.type->loc) << "constant '" << c.name
                         << "' must be an integer, a bool, a prefix, a "
                            "struct or an array of them";
    else if (scalarArray && c.value->kind != Expr::ArrayLit)
      error(c.value->loc)
          << "an array constant is an array literal [a, b, ...]";
    else if (scalarArray)
      for (ExprPtr &x : c.value->args)
        coerce(*x, *t.elem);
    else if (t.kind != Ty::Error)
      coerce(*c.value, t);
    scopes.back()[c.name] = {Symbol::Const, t, c.loc};
  }
  for (ElementDecl &e : module.elements)
    checkElement(e);
  for (const GraphDecl &g : module.graphs)
    checkGraphDecl(g);
  for (MatchDecl &m : module.matches)
    checkMatch(m);
  for (FnDecl &f : module.fns)
    checkFn(f);
  checkRecursion();
  // Ownership needs the types; after type errors it would only add noise.
  if (errors == 0)
    checkPacketOwnership(*this, module);
  return errors == 0;
}
