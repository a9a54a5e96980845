//===- ClickLower.h - Click configuration to NPL graphs ---------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Lowers a parsed Click configuration onto the NPL AST: the configuration
// becomes a parameterless top graph, each elementclass a compound graph
// per distinct argument list (its formals substituted as Click does), and
// every element an instance of the NPL element or graph of its class name.
// See docs/click.md for the mapping of names, ports and arguments.
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_CLICK_CLICKLOWER_H
#define NPCC_CLICK_CLICKLOWER_H

#include "compiler/click/ClickAST.h"
#include "compiler/click/ClickConvert.h"

#include <utility>

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace npcc::click {

/// `-D NAME=VALUE` definitions; they override the configuration's
/// `define($NAME ...)` or add to it.
using Defines = std::vector<std::pair<std::string, std::string>>;

/// Appends the graphs of `program` to `module`, whose library elements
/// (already loaded) the Click classes resolve against. `topName` is the
/// preferred name of the top graph. False after reporting errors.
bool lowerClick(mlir::MLIRContext *ctx, const Program &program,
                const Defines &defines, llvm::StringRef topName,
                ast::Module &module);

} // namespace npcc::click

#endif // NPCC_CLICK_CLICKLOWER_H
