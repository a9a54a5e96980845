//===- HLSMemory.cpp - where the HLS target keeps element state -----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "targets/hls/Transforms/HLSMemory.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace npcc;
using namespace npcc::np;

hls::HLSMemoryKind hls::hlsMemoryKind(StateOp state) {
  auto type = dyn_cast<MemRefType>(state.getType());
  if (!type || !type.hasStaticShape() ||
      type.getNumElements() <= kHLSRegisterArrayLimit)
    return HLSMemoryKind::Registers;
  return HLSMemoryKind::BlockRAM;
}

StringRef hls::stateNameOf(Value memref) {
  Operation *def = memref.getDefiningOp();
  if (auto field = dyn_cast_or_null<StateFieldOp>(def))
    return field.getState();
  if (auto ref = dyn_cast_or_null<StateRefOp>(def))
    return ref.getState();
  return {};
}

StringRef hls::hlsMemoryName(StateOp state) {
  if (auto memory = state->getAttrOfType<StringAttr>(kHLSMemoryAttr))
    return memory.getValue();
  return state.getSymName();
}

bool hls::hasDelayedWrite(StateOp state) {
  return state->hasAttr(kHLSDelayedWriteAttr);
}

std::string hls::hlsForwardStateName(StringRef state, HLSForwardPart part) {
  return (state + kHLSForwardSuffix[static_cast<int>(part)]).str();
}

StringRef hls::hlsForwardedState(StateOp state) {
  if (auto of = state->getAttrOfType<StringAttr>(kHLSForwardOfAttr))
    return of.getValue();
  return "";
}

SmallVector<hls::PacketByteRange, 2> hls::packetByteRanges(Operation *op) {
  auto field = [](Value offset, int64_t bits) {
    return PacketByteRange{offset, Value(), (bits + 7) / 8};
  };
  if (auto get = dyn_cast<PktGetOp>(op))
    return {field(get.getOffset(), get.getBit() + get.getWidth())};
  if (auto set = dyn_cast<PktSetOp>(op))
    return {field(set.getOffset(), set.getBit() + set.getWidth())};
  if (auto csum = dyn_cast<PktCsumOp>(op))
    return {{csum.getOffset(), csum.getLen()}};
  if (auto crc = dyn_cast<PktCrcOp>(op))
    return {{crc.getOffset(), crc.getLen()}};
  if (auto copy = dyn_cast<PktCopyOp>(op))
    return {{copy.getDstOffset(), copy.getLen()},
            {copy.getSrcOffset(), copy.getLen()}};
  return {};
}

std::optional<std::pair<uint64_t, uint64_t>>
hls::constantByteRange(const PacketByteRange &range) {
  APInt offset, length;
  if (!matchPattern(range.offset, m_ConstantInt(&offset)))
    return std::nullopt;
  uint64_t bytes = range.bytes;
  if (range.length) {
    if (!matchPattern(range.length, m_ConstantInt(&length)))
      return std::nullopt;
    bytes = length.getZExtValue();
  }
  return std::make_pair(offset.getZExtValue(), bytes);
}

bool hls::isPacketPathBody(Operation *body) {
  return isa<HandlerOp, PushOp>(body);
}

std::optional<hls::HLSElements> hls::parseHLSElements(StringRef text) {
  return llvm::StringSwitch<std::optional<HLSElements>>(text)
      .Case("not-host", HLSElements::NotHost)
      .Case("fpga", HLSElements::FPGA)
      .Case("all", HLSElements::All)
      .Default(std::nullopt);
}

SmallVector<np::ElementOp> hls::selectHLSElements(ModuleOp module,
                                                  HLSElements which) {
  // The placements of every element's instances.
  llvm::StringMap<SmallVector<StringRef, 1>> placements;
  for (auto graph : module.getOps<GraphOp>())
    for (auto inst : graph.getBody()->getOps<InstanceOp>())
      placements[inst.getCallee()].push_back(inst.getPlacement());
  for (auto program : module.getOps<ProgramOp>())
    for (auto [element, placement] :
         llvm::zip(program.getElements(), program.getPlacements()))
      placements[cast<FlatSymbolRefAttr>(element).getValue()].push_back(
          cast<StringAttr>(placement).getValue());
  SmallVector<ElementOp> selected;
  for (auto element : module.getOps<ElementOp>()) {
    auto it = placements.find(element.getSymName());
    ArrayRef<StringRef> where;
    if (it != placements.end())
      where = it->second;
    bool take = false;
    switch (which) {
    case HLSElements::All:
      take = true;
      break;
    case HLSElements::NotHost:
      take = llvm::none_of(where, [](StringRef p) { return p == "host"; });
      break;
    case HLSElements::FPGA:
      take = !where.empty() &&
             llvm::all_of(where, [](StringRef p) { return p == "fpga"; });
      break;
    }
    if (take)
      selected.push_back(element);
  }
  return selected;
}

FailureOr<SmallVector<np::ElementOp>>
hls::selectHLSElements(ModuleOp module, StringRef elements, StringRef pass) {
  std::optional<HLSElements> which = parseHLSElements(elements);
  if (!which)
    return module.emitError()
           << pass << ": elements must be not-host, fpga or all, not '"
           << elements << "'";
  return selectHLSElements(module, *which);
}
