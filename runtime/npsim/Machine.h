//===- Machine.h - the machine a simulated run configures -------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// npsim.h's npsim_machine: the Engine, the configuration, where the
// program's objects lie, and the ingress and egress engines' state; shared
// by the bridge (Bridge.cpp) and the report (Report.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_RUNTIME_NPSIM_MACHINE_H
#define NPCC_RUNTIME_NPSIM_MACHINE_H

#include "runtime/npsim/Engine.h"
#include "runtime/npsim/npsim.h"

#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace npcc::npsim {

/// The engine's tags: acquisition, extraction and the runtime first, then
/// the program's instances.
constexpr uint32_t kFirstInstanceTag = 3;

/// A packet placed by the ingress engine, waiting for its context.
struct Placed {
  uint64_t addr, born;
};

/// A frame in the switch matrix, then in its destination port's queue.
struct MatrixFrame {
  std::vector<uint8_t> bytes;
  int64_t ts = 0;
  uint32_t vcore = 0; ///< the destination context
  uint32_t port = 0;  ///< the destination NPU's port (a device)
  uint64_t index = 0; ///< its number among that port's frames
  uint64_t addr = 0, born = 0;
};

/// One input interface's ingress engine: its packets, in input order.
struct Ingress {
  std::vector<size_t> packets; ///< indices into the machine's in* vectors
  size_t next = 0;
  bool blocked = false; ///< the next packet's queue is full
  uint64_t lastArrive = 0, lastBytes = 0;
};

/// One output's egress engine: takes descriptors in order, reads the
/// packet out of memory and sends it at line rate.
struct Egress {
  Cycle free = 0;
  uint64_t packets = 0, bytes = 0;
};

/// Bytes of one packet buffer in packet memory, and the distance between
/// two: a line more, so that the packets' first bytes do not all fall on
/// one bank.
constexpr uint64_t kBufBytes = 2048;
constexpr uint64_t kBufStride = kBufBytes + 64;
/// Contexts of one simulation, all cores (of all NPUs) together.
constexpr uint32_t kMaxVcores = 512;
/// Descriptors the ingress engine may queue for one context.
constexpr size_t kQueueDepth = 4;

} // namespace npcc::npsim

struct npsim_machine {
  npcc::npsim::Config cfg;
  std::unique_ptr<npcc::npsim::Engine> eng;
  std::string prog;
  FILE *err = nullptr;
  npsim_costs costs{};
  uint32_t cores = 0, contexts = 0;
  /// Next free byte per memory and copy.
  std::vector<std::vector<uint64_t>> used;
  // Ingress.
  std::vector<uint32_t> inTarget, inBytes, inDev;
  std::vector<uint64_t> inArrive; ///< cycle each packet is on the wire,
                                  ///< counted from inStart
  /// The wire starts once the chip has booted: every context that has
  /// packets coming asked for its first one (its processes ran to where
  /// they wait for input). Contexts booting one after another on a core
  /// are not what a packet's latency or the throughput should measure.
  npcc::npsim::Cycle inStart = 0;
  size_t bootWait = 0;                   ///< contexts still booting
  std::vector<uint8_t> askedOnce;        ///< per vcore
  std::vector<npcc::npsim::Ingress> ins; ///< per input device
  /// Per vcore and input device (queueOf): the packets placed for it.
  std::vector<std::deque<npcc::npsim::Placed>> queues;
  std::vector<size_t> inFlight; ///< placed or being placed
  std::vector<npcc::npsim::WaitQueue> waiting;
  size_t queueOf(uint32_t vcore, uint32_t dev) const {
    return size_t(vcore) * ins.size() + dev;
  }
  npcc::npsim::Lock inLock, outLock;
  uint64_t inSlots = 0;
  // Egress.
  std::vector<npcc::npsim::Egress> outs;
  uint64_t bitsOut = 0, packetsOut = 0, bytesIn = 0;
  npcc::npsim::Cycle firstIn = UINT64_MAX, lastOut = 0, end = 0;
  std::vector<uint64_t> latencies;
  std::vector<uint64_t> allocNext; ///< per vcore: buffers it made
  npcc::npsim::WaitQueue doorbell; ///< npsim_doorbell_wait's sleepers
  int localMemory = -1; ///< the core's private memory (packet headers)
  // The switch matrix ([switch]; npus is 1 without one).
  uint32_t npus = 1;
  std::vector<std::deque<npcc::npsim::MatrixFrame>> matrixQ; ///< per vcore
  std::vector<npcc::npsim::MatrixFrame> matrixTaken; ///< per vcore: the last
  std::vector<npcc::npsim::WaitQueue> matrixWait;    ///< per vcore
  std::vector<uint8_t> quiet; ///< per vcore: its graph cannot move
  std::vector<uint64_t> portFrames, matrixSlot; ///< per NPU
  uint64_t matrixInFlight = 0, matrixSwitched = 0, matrixDropped = 0;
  bool matrixEnded = false;
};

#endif // NPCC_RUNTIME_NPSIM_MACHINE_H
