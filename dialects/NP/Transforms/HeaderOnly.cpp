//===- HeaderOnly.cpp - elements whose payload may stream past them -------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// On the FPGA an element buffers only the header window of a packet it
// receives (the flits that cover the frame's first kHLSHeaderWindowBytes
// bytes); the rest of the packet stays in its input stream and goes on to
// the output stream when the element sends the packet, or is discarded
// when it drops it (runtime/hls/nphls.cpp). This finds the ops before
// which a packet must be read in whole: the slow path of an element, or
// all of it for one that works on payload.
//
//===----------------------------------------------------------------------===//

#include "dialects/NP/Transforms/HLSMemory.h"

#include "dialects/NP/IR/NPOps.h"

#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/CallInterfaces.h"

using namespace mlir;
using namespace npcc::np;

namespace {

/// Whether `len` bytes from `offset` lie inside the window: constants that
/// do, or an access np-header-window proved.
bool insideWindow(Operation *op, Value offset, Value len, int64_t bytes) {
  if (op->hasAttr(kHLSHeaderWindowAttr))
    return true;
  APInt o, l;
  if (!matchPattern(offset, m_ConstantInt(&o)))
    return false;
  if (len) {
    if (!matchPattern(len, m_ConstantInt(&l)))
      return false;
    bytes = l.getZExtValue();
  }
  return o.getZExtValue() + bytes <= (uint64_t)kHLSHeaderWindowBytes;
}

/// Why `op` needs more of a packet than its header window, or "".
std::string needsWholePacket(Operation *op) {
  auto field = [](int64_t bits) { return (bits + 7) / 8; };
  if (auto get = dyn_cast<PktGetOp>(op))
    return insideWindow(op, get.getOffset(), {},
                        field(get.getBit() + get.getWidth()))
               ? ""
               : "reads a header field that may lie past the header window";
  if (auto set = dyn_cast<PktSetOp>(op))
    return insideWindow(op, set.getOffset(), {},
                        field(set.getBit() + set.getWidth()))
               ? ""
               : "writes a header field that may lie past the header window";
  if (auto csum = dyn_cast<PktCsumOp>(op))
    return insideWindow(op, csum.getOffset(), csum.getLen(), 0)
               ? ""
               : "sums bytes that may lie past the header window";
  if (auto crc = dyn_cast<PktCrcOp>(op))
    return insideWindow(op, crc.getOffset(), crc.getLen(), 0)
               ? ""
               : "computes a CRC over bytes that may lie past the header "
                 "window";
  if (auto copy = dyn_cast<PktCopyOp>(op))
    return insideWindow(op, copy.getDstOffset(), copy.getLen(), 0) &&
                   insideWindow(op, copy.getSrcOffset(), copy.getLen(), 0)
               ? ""
               : "copies bytes that may lie past the header window";
  if (isa<PrintPktOp>(op))
    return "prints the packet";
  if (isa<CloneOp>(op))
    return "clones packets (a copy needs every byte)";
  if (isa<PktToWordOp>(op))
    return "holds packets in state (a packet queue)";
  if (auto call = dyn_cast<CallOpInterface>(op))
    if (llvm::any_of(call.getArgOperands(),
                     [](Value v) { return isa<PacketType>(v.getType()); }))
      return "passes a packet to a function";
  return "";
}

} // namespace

llvm::SmallVector<std::pair<Operation *, std::string>>
npcc::np::wholePacketOps(ElementOp element) {
  // An access after a pull is relative to a front the window did not
  // start at; a frame grown after it was shortened would take back bytes
  // the stream still holds.
  bool pulls = false, puts = false, shrinks = false;
  element.walk([&](Operation *op) {
    pulls |= isa<PktPullOp>(op);
    puts |= isa<PktPutOp>(op);
    shrinks |= isa<PktTakeOp, PktTruncateOp>(op);
  });
  llvm::SmallVector<std::pair<Operation *, std::string>> ops;
  element.walk([&](Operation *op) {
    std::string reason = needsWholePacket(op);
    if (reason.empty() && pulls &&
        isa<PktGetOp, PktSetOp, PktCsumOp, PktCrcOp, PktCopyOp>(op))
      reason = "reads the packet after pulling bytes off its front";
    if (reason.empty() && puts && shrinks && isa<PktPutOp>(op))
      reason = "grows a frame it also shortens";
    if (!reason.empty())
      ops.push_back({op, std::move(reason)});
  });
  return ops;
}
