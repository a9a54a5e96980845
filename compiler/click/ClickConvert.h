//===- ClickConvert.h - Click arguments to NPL arguments --------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Binds the arguments of a Click element to the parameters of the NPL
// element (or graph) of the same class name, converting each by its
// parameter's declared type: integers (also IPv4 and Ethernet addresses,
// and symbolic names through module constants `Class_param_WORD`), bool,
// str, `prefix`, structs (space-separated words, one per field) and
// variadic parameters. Keyword arguments (`CAPACITY 10`) bind by name.
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_CLICK_CLICKCONVERT_H
#define NPCC_CLICK_CLICKCONVERT_H

#include "compiler/click/ClickAST.h"
#include "compiler/click/ClickArgs.h"

#include "llvm/ADT/StringMap.h"

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace npcc::click {

/// Name lookups into the loaded NPL library.
struct ModuleIndex {
  llvm::StringMap<const ast::ElementDecl *> elements;
  llvm::StringMap<const ast::GraphDecl *> graphs;
  llvm::StringMap<const ast::RecordDecl *> records;
  llvm::StringMap<const ast::ConstDecl *> consts;
  llvm::StringMap<const ast::FnDecl *> fns;

  void build(const ast::Module &m);
};

/// One Click argument after $-substitution.
struct ArgText {
  Piece piece;        // offset: where the argument starts in the file
  bool exact = true;  // piece.text is the file's text (nothing substituted)
  std::string define; // the define the whole argument came from, if any
};

class ArgConverter {
public:
  ArgConverter(mlir::MLIRContext *ctx, const ModuleIndex &index,
               const Program &program)
      : ctx(ctx), index(index), program(program) {}

  /// Binds `args` of an instance of `className` (at `instLoc`) to `params`
  /// and appends the NPL arguments, in parameter order, to `out`. False
  /// after reporting errors.
  bool bind(llvm::StringRef className, const std::vector<ast::Param> &params,
            const std::vector<ArgText> &args, const Loc &instLoc,
            std::vector<ast::ExprPtr> &out);

private:
  struct Target {
    llvm::StringRef className, param; // for messages and constant names
    llvm::StringRef record, field;    // set inside a struct argument
  };
  ast::ExprPtr convert(const ast::TypeRef &type, const ArgText &arg,
                       const Target &to);
  ast::ExprPtr convertInteger(const ast::TypeRef &type, const Piece &word,
                              bool exact, const Target &to);
  ast::ExprPtr convertStruct(const ast::RecordDecl &record, const ArgText &arg,
                             const Target &to);
  Loc locOf(const Piece &p) const { return program.locAt(p.offset); }

  mlir::MLIRContext *ctx;
  const ModuleIndex &index;
  const Program &program;
};

} // namespace npcc::click

#endif // NPCC_CLICK_CLICKCONVERT_H
