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
const std::string *loadProgram(mlir::MLIRContext *ctx, llvm::StringRef path,
                               llvm::ArrayRef<std::string> searchDirs,
                               FileNames &names, ast::Module &out);

} // namespace npcc

#endif // NPCC_FRONTEND_FRONTEND_H
