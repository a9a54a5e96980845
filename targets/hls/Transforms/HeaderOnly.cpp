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

#include "targets/hls/Transforms/HLSMemory.h"

#include "dialects/NP/IR/NPOps.h"

#include "mlir/Interfaces/CallInterfaces.h"

using namespace mlir;
using namespace npcc::np;
using namespace npcc::hls;

namespace {

/// What an op of one kind does that needs more of a packet than its
/// header window.
struct Reason {
  TypeID kind;
  const char *why;
};

/// The reason of the row whose kind `op` is, or `otherwise`.
std::string reasonFor(Operation *op, ArrayRef<Reason> table,
                      const char *otherwise = "") {
  for (const Reason &r : table)
    if (op->getName().getTypeID() == r.kind)
      return r.why;
  return otherwise;
}

/// Why `op` needs more of a packet than its header window, or "".
std::string needsWholePacket(Operation *op) {
  if (auto ranges = packetByteRanges(op); !ranges.empty()) {
    // Inside: an access np-header-window proved, or constant ranges.
    bool inside =
        op->hasAttr(kHLSHeaderWindowAttr) ||
        llvm::all_of(ranges, [](const PacketByteRange &r) {
          auto c = constantByteRange(r);
          return c && c->first + c->second <= (uint64_t)kHLSHeaderWindowBytes;
        });
    if (inside)
      return "";
    static const Reason pastWindow[] = {
        {TypeID::get<PktGetOp>(),
         "reads a header field that may lie past the header window"},
        {TypeID::get<PktSetOp>(),
         "writes a header field that may lie past the header window"},
        {TypeID::get<PktCsumOp>(),
         "sums bytes that may lie past the header window"},
        {TypeID::get<PktCrcOp>(),
         "computes a CRC over bytes that may lie past the header window"}};
    return reasonFor(op, pastWindow,
                     "copies bytes that may lie past the header window");
  }
  static const Reason wholePacket[] = {
      {TypeID::get<PrintPktOp>(), "prints the packet"},
      {TypeID::get<CloneOp>(), "clones packets (a copy needs every byte)"},
      {TypeID::get<PktToWordOp>(), "holds packets in state (a packet queue)"}};
  if (std::string why = reasonFor(op, wholePacket); !why.empty())
    return why;
  if (auto call = dyn_cast<CallOpInterface>(op))
    if (llvm::any_of(call.getArgOperands(),
                     [](Value v) { return isa<PacketType>(v.getType()); }))
      return "passes a packet to a function";
  return "";
}

} // namespace

llvm::SmallVector<std::pair<Operation *, std::string>>
npcc::hls::wholePacketOps(ElementOp element) {
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
    if (reason.empty() && pulls && !packetByteRanges(op).empty())
      reason = "reads the packet after pulling bytes off its front";
    if (reason.empty() && puts && shrinks && isa<PktPutOp>(op))
      reason = "grows a frame it also shortens";
    if (!reason.empty())
      ops.push_back({op, std::move(reason)});
  });
  return ops;
}
