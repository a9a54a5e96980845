//===- Imports.h - what the files of a program bring in ---------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The steps loadProgram takes once every file is parsed: element aliases
// become copies of their elements, a selective import (`import "std.np" {
// Counter };`) keeps only the named elements and graphs of its files, and
// a program's own element or graph shadows a library one of that name.
// See "import" and "Element aliases" in docs/language.md.
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_FRONTEND_IMPORTS_H
#define NPCC_FRONTEND_IMPORTS_H

#include "compiler/frontend/AST.h"

#include "llvm/ADT/ArrayRef.h"

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace npcc {

/// The names a selective import asks for, and the files it loaded (the
/// imported file and, transitively, the files that one imports).
struct ImportSelection {
  std::string path; // as written, for messages
  std::vector<ast::NameRef> names;
  std::vector<const std::string *> files;
  bool whole = false;  // the file is also imported without a list
  int sharesWith = -1; // the selection that loaded the file before
};

/// Replaces each alias of `m` by a copy of its element under the alias's
/// name, less the handlers it lists. False after reporting an unknown
/// element or handler, or a cycle of aliases.
bool resolveAliases(mlir::MLIRContext *ctx, ast::Module &m);

/// Drops the elements and graphs of each selection's files that it does
/// not name (nor a graph it keeps uses). False after reporting a name the
/// files do not declare.
bool applySelections(mlir::MLIRContext *ctx,
                     llvm::ArrayRef<ImportSelection> selections,
                     ast::Module &m);

/// Drops each library element or graph that a program file defines again,
/// recording it in `m.shadowed` for Sema's -Wshadow-library.
void shadowLibrary(ast::Module &m);

} // namespace npcc

#endif // NPCC_FRONTEND_IMPORTS_H
