//===- FusedHops.cpp - which fused sends are static hops ------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// A fused send on an uncounted channel (np::uncountedChannels: it closes
// no cycle and few calls can follow it) is a static hop: its
// call leaves the stack's count of nested calls alone, so the inline path
// (nprt/link.h's nprt_link_pass_*) only checks that its link is armed.
// Where the packet sent is one the sender was handed, it cannot be the
// sender's stand-in, and that check goes too (nprt_link_forward_pkt).
//
//===----------------------------------------------------------------------===//

#include "targets/emitc/NPToEmitC.h"

#include "dialects/NP/IR/NPOps.h"
#include "dialects/NP/Transforms/PushDepth.h"

#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace npcc;
using namespace npcc::toemitc;

namespace {

/// Whether the packet `v` cannot be the sender's stand-in (what its
/// nprt_pkt_new returns when out of memory): the sender was handed it, and
/// every send checks for stand-ins, so none travels.
bool handedOver(Value v) {
  if (auto arg = dyn_cast<BlockArgument>(v))
    return isa<np::PushOp>(arg.getOwner()->getParentOp());
  return isa_and_nonnull<np::RecvOp, np::DeviceRecvOp>(v.getDefiningOp());
}

} // namespace

void npcc::toemitc::classifyFusedSends(np::ProgramOp program,
                                       NPLoweringInfo &info) {
  info.uncountedChannels = np::uncountedChannels(program);
  // Each instance has an element of its own here: the channel of a send
  // is the one leaving its element's instance on its port.
  llvm::DenseMap<std::pair<unsigned, unsigned>, unsigned> channelOf;
  for (unsigned i = 0, e = program.getChannels().size(); i < e; ++i) {
    np::ProgramOp::Channel c = program.getChannel(i);
    channelOf[{c.src, c.srcPort}] = i;
  }
  llvm::DenseMap<Operation *, unsigned> instanceOf;
  for (auto [i, element] : llvm::enumerate(info.elementAt))
    instanceOf.try_emplace(element, i);
  program->getParentOp()->walk([&](np::FusedSendOp send) {
    auto inst = instanceOf.find(send->getParentOfType<np::ElementOp>());
    if (inst == instanceOf.end())
      return;
    auto chan = channelOf.find({inst->second, info.ports.lookup(send)[0]});
    if (chan == channelOf.end() || !info.uncountedChannels[chan->second])
      return;
    info.staticSends.insert(send);
    if (handedOver(send.getValue()))
      info.handedSends.insert(send);
  });
}
