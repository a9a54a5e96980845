//===- NPDialect.cpp - np dialect, types and attributes -------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dialects/NP/IR/NPDialect.h"
#include "dialects/NP/IR/NPOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace npcc::np;

#include "dialects/NP/IR/NPDialect.cpp.inc"
#include "dialects/NP/IR/NPEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/NP/IR/NPTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/NP/IR/NPAttrs.cpp.inc"

void NPDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialects/NP/IR/NPTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/NP/IR/NPAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "dialects/NP/IR/NPOps.cpp.inc"
      >();
}
