//===- NPOps.td - np dialect operations ---------------------*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef NPCC_DIALECTS_NP_IR_NPOPS_TD
#define NPCC_DIALECTS_NP_IR_NPOPS_TD

include "dialects/NP/IR/NPDialect.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class NP_Op<string mnemonic, list<Trait> traits = []>
    : Op<NP_Dialect, mnemonic, traits>;

include "dialects/NP/IR/NPStructureOps.td"
include "dialects/NP/IR/NPGraphOps.td"
include "dialects/NP/IR/NPPacketOps.td"
include "dialects/NP/IR/NPTableOps.td"

#endif // NPCC_DIALECTS_NP_IR_NPOPS_TD
