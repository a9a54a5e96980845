//===- UCodeOps.h - ucode dialect operations --------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef NPCC_DIALECTS_UCODE_IR_UCODEOPS_H
#define NPCC_DIALECTS_UCODE_IR_UCODEOPS_H

#include "dialects/UCode/IR/UCodeDialect.h"
#include "runtime/isa/ISA.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"

#include <string>

namespace npcc::ucode {
class BundleOp;
class MachineOp;
class ProgramOp;
} // namespace npcc::ucode

#define GET_OP_CLASSES
#include "dialects/UCode/IR/UCodeOps.h.inc"

namespace npcc::ucode {

/// The field of a word named `name` as in MatchUnit.def (`ALU_RD`), or
/// null.
uint32_t npcc::mu::Word::*wordField(llvm::StringRef name);

/// The name of a field of a word, as in MatchUnit.def.
llvm::StringRef wordFieldName(uint32_t npcc::mu::Word::*field);

/// Whether `name` is an assembler identifier, `[A-Za-z_.][A-Za-z0-9_.]*`, and
/// so can be a bundle label.
bool isValidLabel(llvm::StringRef name);

} // namespace npcc::ucode

#endif // NPCC_DIALECTS_UCODE_IR_UCODEOPS_H
