//===- MachineIR.h - schedules to and from ucode.machine --------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_TARGETS_UCODE_MATCHTOUCODE_MACHINEIR_H
#define NPCC_TARGETS_UCODE_MATCHTOUCODE_MACHINEIR_H

#include "dialects/UCode/IR/UCodeOps.h"
#include "targets/ucode/MatchToUCode/Backend.h"

#include "mlir/IR/Builders.h"

namespace npcc::mub {

/// A ucode.machine named `name` holding `program`, at `b`'s insertion point.
ucode::MachineOp buildMachineOp(mlir::OpBuilder &b, mlir::Location loc,
                                llvm::StringRef name, const Scheduled &program);

/// The schedule a ucode.machine holds.
mlir::LogicalResult readMachineOp(ucode::MachineOp machine, Scheduled &out);

} // namespace npcc::mub

#endif // NPCC_TARGETS_UCODE_MATCHTOUCODE_MACHINEIR_H
