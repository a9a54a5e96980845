//===- NPOps.h - np dialect operations ----------------------------*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef NPCC_DIALECTS_NP_IR_NPOPS_H
#define NPCC_DIALECTS_NP_IR_NPOPS_H

#include "dialects/NP/IR/NPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace npcc::np {
class ElementOp;
class GraphOp;
class HandlerOp;
class InitOp;
class InstanceOp;
class PortOp;
class SignalOp;
class TimerOp;
class FiniOp;
class PushOp;
class ControlOp;
class YieldOp;
} // namespace npcc::np

#define GET_OP_CLASSES
#include "dialects/NP/IR/NPOps.h.inc"

namespace npcc::np {

/// The type of the packet metadata field `field` (`in_port`, `paint`,
/// `out_port`: i32; `anno`: i64), or null for an unknown field.
mlir::Type getMetaFieldType(mlir::MLIRContext *context, llvm::StringRef field);

/// Discardable string attribute on `np.state`: the array of structs the
/// state is a field of. An array of structs is one state per field
/// (`tab.key`, `tab.hits` of `tab: [Ent; 64]`), and each field names the
/// array it came from (`const.NAME` for a constant array of structs indexed
/// at run time). What that means is up to a target: the HLS target keeps
/// the fields of one array in one memory (targets/hls/Transforms/HLSMemory.h).
constexpr llvm::StringLiteral kStructArrayAttr = "memory";

} // namespace npcc::np

#endif // NPCC_DIALECTS_NP_IR_NPOPS_H
