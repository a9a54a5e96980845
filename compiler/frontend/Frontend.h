//===- Frontend.h - load an NPL program with its imports --------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_FRONTEND_FRONTEND_H
#define NPCC_FRONTEND_FRONTEND_H

#include "compiler/frontend/AST.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"

#include <deque>

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace npcc {

/// Owns file names referenced by AST locations.
using FileNames = std::deque<std::string>;

/// Reads `path` and, transitively, the files it imports (each once).
/// Imports are searched relative to the importing file, then in
/// `searchDirs` in order. Returns the stored name of the main file, or null
/// after reporting errors (unreadable file, binary input, syntax errors).
/// Several calls that share `loaded` load each file once between them.
const std::string *loadProgram(mlir::MLIRContext *ctx, llvm::StringRef path,
                               llvm::ArrayRef<std::string> searchDirs,
                               FileNames &names, ast::Module &out,
                               llvm::StringSet<> *loaded = nullptr);

/// Reads a source file that is not NPL (a Click configuration) with the
/// same rules: a regular file or standard input for "-", within the size
/// limit, text. Returns its stored name, or null after reporting an error.
const std::string *readSourceText(mlir::MLIRContext *ctx, llvm::StringRef path,
                                  FileNames &names, std::string &text);

} // namespace npcc

#endif // NPCC_FRONTEND_FRONTEND_H
