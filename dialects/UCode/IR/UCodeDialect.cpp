//===- UCodeDialect.cpp - ucode dialect -----------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dialects/UCode/IR/UCodeDialect.h"
#include "dialects/UCode/IR/UCodeOps.h"

using namespace mlir;
using namespace npcc::ucode;

#include "dialects/UCode/IR/UCodeDialect.cpp.inc"

void UCodeDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dialects/UCode/IR/UCodeOps.cpp.inc"
      >();
}
