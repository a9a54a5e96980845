//===- HandlerShape.cpp - handlers the runtime may call per packet --------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dialects/NP/IR/HandlerShape.h"
#include "dialects/NP/IR/NPOps.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;

namespace npcc::np {
namespace {

constexpr unsigned kUnbounded = ~0u;

bool isReceive(Operation *op) { return isa<RecvOp, SelectOp>(op); }

bool containsReceive(Operation *op) {
  return op
      ->walk([](Operation *o) {
        return isReceive(o) ? WalkResult::interrupt() : WalkResult::advance();
      })
      .wasInterrupted();
}

/// The most `np.recv`s one run of `block` can execute.
unsigned maxRecvs(Block &block) {
  unsigned n = 0;
  for (Operation &op : block) {
    unsigned k = 0;
    if (isa<RecvOp>(op)) {
      k = 1;
    } else if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
      for (Region &r : ifOp->getRegions())
        if (!r.empty())
          k = std::max(k, maxRecvs(r.front()));
    } else if (op.getNumRegions() && containsReceive(&op)) {
      k = kUnbounded; // a receive in a loop, or in a region we do not know
    }
    if (k == kUnbounded || n + k < n)
      return kUnbounded;
    n += k;
  }
  return n;
}

/// Operations that may come before the first receive: nothing the sender
/// could observe happening before its value was taken.
bool harmlessBeforeReceive(Operation &op) {
  if (op.getNumRegions())
    return false;
  // The handler's own locals (the `return` flag lives in one).
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return store.getMemRef().getDefiningOp<memref::AllocaOp>() != nullptr;
  return isMemoryEffectFree(&op) ||
         isa<memref::LoadOp, memref::AllocaOp, StateRefOp, StateFieldOp, NowOp>(
             op);
}

} // namespace

uint64_t pushPortMask(ElementOp element) {
  HandlerOp handler = element.getHandler();
  if (!handler || handler.getBodyRegion().empty())
    return 0;
  llvm::StringMap<unsigned> inIndex;
  for (Operation &op : *element.getBody())
    if (auto port = dyn_cast<PortOp>(op); port && port.isInput())
      inIndex[port.getSymName()] = inIndex.size();
  auto bitOf = [&](StringRef port) -> uint64_t {
    auto it = inIndex.find(port);
    return it == inIndex.end() || it->second >= 64 ? 0
                                                   : uint64_t(1) << it->second;
  };

  Block &body = *handler.getBody();
  bool blocksOrEnds = false;
  unsigned selects = 0;
  body.walk([&](Operation *op) {
    blocksOrEnds |= isa<DeviceRecvOp, FinishOp>(op);
    selects += isa<SelectOp>(op);
  });
  if (blocksOrEnds || selects > 1 || maxRecvs(body) != 1)
    return 0;

  Operation *first = nullptr;
  for (Operation &op : body) {
    if (isReceive(&op)) {
      first = &op;
      break;
    }
    if (!harmlessBeforeReceive(op))
      return 0;
  }
  if (auto recv = dyn_cast_or_null<RecvOp>(first))
    return selects ? 0 : bitOf(recv.getPort());
  auto select = dyn_cast_or_null<SelectOp>(first);
  if (!select)
    return 0;
  uint64_t mask = 0;
  for (Attribute a : select.getPorts()) {
    uint64_t bit = bitOf(cast<FlatSymbolRefAttr>(a).getValue());
    if (!bit)
      return 0;
    mask |= bit;
  }
  // The receive after the select must take from a port the select waited
  // on, or it could wait for a value that never comes.
  bool outside = false;
  body.walk([&](RecvOp r) { outside |= !(bitOf(r.getPort()) & mask); });
  return outside ? 0 : mask;
}

uint64_t selectPortMask(ElementOp element) {
  uint64_t mask = pushPortMask(element);
  if (!mask)
    return 0;
  for (Operation &op : *element.getHandler().getBody())
    if (isReceive(&op))
      return isa<SelectOp>(op) ? mask : 0;
  return 0;
}

} // namespace npcc::np
