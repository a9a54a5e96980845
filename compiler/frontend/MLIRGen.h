//===- MLIRGen.h - NPL AST to np dialect ------------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_FRONTEND_MLIRGEN_H
#define NPCC_FRONTEND_MLIRGEN_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"

namespace npcc {
namespace ast {
struct Module;
} // namespace ast
class Sema;

/// Elaborates the checked module: evaluates instance arguments, specialises
/// each element once per distinct argument list, checks connections, and
/// emits np dialect IR. Graphs declared in `mainFile` that take no
/// parameters and are not instantiated elsewhere are top candidates; `top`
/// picks one explicitly. Returns null after reporting errors.
mlir::OwningOpRef<mlir::ModuleOp> mlirGen(Sema &sema, ast::Module &module,
                                          const std::string *mainFile,
                                          llvm::StringRef top);

} // namespace npcc

#endif // NPCC_FRONTEND_MLIRGEN_H
