//===- MatchOps.h - match dialect -------------------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_DIALECTS_MATCH_IR_MATCHOPS_H
#define NPCC_DIALECTS_MATCH_IR_MATCHOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "dialects/Match/IR/MatchOpsDialect.h.inc"

namespace npcc::match {
class AcceptOp;
} // namespace npcc::match

#define GET_OP_CLASSES
#include "dialects/Match/IR/MatchOps.h.inc"

#endif // NPCC_DIALECTS_MATCH_IR_MATCHOPS_H
