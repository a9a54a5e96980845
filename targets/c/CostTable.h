//===- CostTable.h - cycles of one C operation on an NPU core ---*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The static cost model c-annotate-costs sums per basic block: the cycles
// and instructions one EmitC operation takes on a single-issue in-order
// RISC core (a MIPS R3000 or an NFP microengine: one ALU operation a
// cycle, a multi-cycle multiplier, no divider but a software routine).
// Memory latency is not in it: npsim adds it when the access happens,
// from the configured memory (docs/npsim.md, "Cost annotations").
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_TARGETS_C_COSTTABLE_H
#define NPCC_TARGETS_C_COSTTABLE_H

#include "mlir/IR/Operation.h"

namespace npcc::c {

struct OpCost {
  unsigned cycles = 0;
  unsigned instrs = 0;
};

/// What `op` costs where it stands (not its regions: their blocks are
/// annotated on their own).
OpCost costOf(mlir::Operation *op);

/// Bytes of one instruction, for the code addresses the instruction cache
/// of a simulated core sees.
constexpr unsigned kInstrBytes = 4;

} // namespace npcc::c

#endif // NPCC_TARGETS_C_COSTTABLE_H
