//===- ClickParser.h - Click configuration text to syntax tree --*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_CLICK_CLICKPARSER_H
#define NPCC_CLICK_CLICKPARSER_H

#include "compiler/click/ClickAST.h"
#include "llvm/ADT/StringRef.h"

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace npcc::click {

/// Parses `program.text` (named `*program.file`) into
/// `program.statements`. Reports the first syntax error through the MLIR
/// diagnostic engine of `ctx` and returns false.
bool parseClick(mlir::MLIRContext *ctx, Program &program);

/// Click's integer syntax (decimal, 0x hex, 0b binary, a leading 0 for
/// octal, '_' between digits, an optional sign). False if `text` is not
/// entirely an integer or does not fit in 64 bits.
bool parseClickInteger(llvm::StringRef text, bool allowNegative,
                       uint64_t &value, bool &negative);

} // namespace npcc::click

#endif // NPCC_CLICK_CLICKPARSER_H
