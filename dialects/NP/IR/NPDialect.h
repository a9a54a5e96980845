//===- NPDialect.h - np dialect, types and attributes -------------*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef NPCC_DIALECTS_NP_IR_NPDIALECT_H
#define NPCC_DIALECTS_NP_IR_NPDIALECT_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "dialects/NP/IR/NPDialect.h.inc"
#include "dialects/NP/IR/NPEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/NP/IR/NPTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/NP/IR/NPAttrs.h.inc"

namespace npcc::np {

/// The bytes and metadata of packets, as read and written by the packet
/// operations; distinct from memref state so that both can be reordered
/// around each other.
struct PacketResource
    : public mlir::SideEffects::Resource::Base<PacketResource> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(PacketResource)
  llvm::StringRef getName() final { return "np.packet"; }
};

/// The bits of an integer value: its width, 64 for an index; 0 for a
/// value of any other type.
inline unsigned scalarBitWidth(mlir::Type type) {
  if (auto integer = llvm::dyn_cast<mlir::IntegerType>(type))
    return integer.getWidth();
  return type.isIndex() ? 64 : 0;
}

} // namespace npcc::np

#endif // NPCC_DIALECTS_NP_IR_NPDIALECT_H
