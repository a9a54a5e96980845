//===- Parser.h - NPL source text to AST ------------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The only entry point into the ANTLR-generated parser. This header includes
// no ANTLR header and no exception leaves parseNPL, so callers may be built
// with -fno-exceptions like the rest of LLVM/MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_FRONTEND_PARSER_H
#define NPCC_FRONTEND_PARSER_H

#include "compiler/frontend/AST.h"
#include "llvm/ADT/StringRef.h"

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace npcc {

/// Parses `text` (the contents of `*file`) and appends its declarations to
/// `out`. Syntax errors are reported through the MLIR diagnostic engine of
/// `ctx` as `file:line:col: error: ...`; parsing stops at the first one,
/// because ANTLR's recovery produces follow-on errors that mislead more than
/// they help. Returns false on error.
bool parseNPL(mlir::MLIRContext *ctx, const std::string *file,
              llvm::StringRef text, ast::Module &out);

} // namespace npcc

#endif // NPCC_FRONTEND_PARSER_H
