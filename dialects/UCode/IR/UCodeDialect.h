//===- UCodeDialect.h - ucode dialect ---------------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef NPCC_DIALECTS_UCODE_IR_UCODEDIALECT_H
#define NPCC_DIALECTS_UCODE_IR_UCODEDIALECT_H

#include "mlir/IR/Dialect.h"

#include "dialects/UCode/IR/UCodeDialect.h.inc"

#endif // NPCC_DIALECTS_UCODE_IR_UCODEDIALECT_H
