//===- HLSMemory.cpp - where the HLS target keeps element state -----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dialects/NP/Transforms/HLSMemory.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace npcc;

np::HLSMemoryKind np::hlsMemoryKind(StateOp state) {
  auto type = dyn_cast<MemRefType>(state.getType());
  if (!type || !type.hasStaticShape() ||
      type.getNumElements() <= kHLSRegisterArrayLimit)
    return HLSMemoryKind::Registers;
  return HLSMemoryKind::BlockRAM;
}

StringRef np::hlsMemoryName(StateOp state) {
  if (auto memory = state->getAttrOfType<StringAttr>(kHLSMemoryAttr))
    return memory.getValue();
  return state.getSymName();
}

bool np::hasDelayedWrite(StateOp state) {
  return state->hasAttr(kHLSDelayedWriteAttr);
}
