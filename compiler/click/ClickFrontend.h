//===- ClickFrontend.h - load a Click configuration -------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The entry point of the Click front end (`npcc router.click`): reads and
// parses the configuration, loads the NPL element library its classes
// resolve against (std.np, and each `require(library "x.np")`), and lowers
// the configuration to NPL graphs in the same AST the NPL front end makes.
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_CLICK_CLICKFRONTEND_H
#define NPCC_CLICK_CLICKFRONTEND_H

#include "compiler/click/ClickLower.h"
#include "compiler/frontend/Frontend.h"

namespace npcc::click {

/// Loads the Click configuration `path` into `out`. Libraries are searched
/// relative to the configuration, then in `searchDirs`. Returns the stored
/// name of the configuration file (the main file, whose graph is the top
/// graph), or null after reporting errors.
const std::string *loadClickProgram(mlir::MLIRContext *ctx,
                                    llvm::StringRef path,
                                    llvm::ArrayRef<std::string> searchDirs,
                                    const Defines &defines, FileNames &names,
                                    ast::Module &out);

} // namespace npcc::click

#endif // NPCC_CLICK_CLICKFRONTEND_H
