//===- Handlers.h - element handlers for hand-built test graphs -*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Generated code keeps per-instance state in per-instance globals; the tests
// do the same with one InstState per instance id. Handlers must not keep
// C++ objects with destructors alive across a port operation, since a
// terminating operation leaves the handler with a longjmp.
//
//===----------------------------------------------------------------------===//
#ifndef NPRT_TEST_UNIT_HANDLERS_H
#define NPRT_TEST_UNIT_HANDLERS_H

#include "test/unit/TestShim.h"

#include <vector>

namespace nprt_test {

struct InstState {
  uint64_t limit = 0; // values to produce / consume
  uint64_t count = 0;
  uint64_t mask = 0; // select mask
  uint64_t signal = 0;
  std::vector<uint64_t> got;
};

constexpr unsigned MaxInsts = 16;
extern InstState State[MaxInsts];
void resetState();

inline InstState &st(nprt_inst *self) { return State[nprt_test_self_id(self)]; }

/// Sends 1..limit on port 0, then terminates.
void produce(nprt_inst *self);
/// Sends 1..limit on ports 0 and 1, then terminates.
void produceTwo(nprt_inst *self);
/// Receives from port 0 and records.
void consume(nprt_inst *self);
void produceWithTicks(nprt_inst *self);
void drainOnTick(nprt_inst *self);
/// Receives from port 0 and only counts (for throughput).
void consumeCount(nprt_inst *self);
/// Adds each received value to the uint64_t in its state object; records
/// the running sum.
void accumulateInState(nprt_inst *self);
/// The same in the uint64_t of its shared object (nprt_shared).
void accumulateShared(nprt_inst *self);
/// Forwards port 0 to port 0.
void pass(nprt_inst *self);
/// Sends 1..limit on port 0 as fused sends to passPush, then terminates.
void produceFused(nprt_inst *self);
/// Push body of `pass`: forwards `v` as a fused send to consumePush.
void passPush(nprt_inst *self, uint64_t v);
/// Push body of `consume`: records `v` and counts the call.
void consumePush(nprt_inst *self, uint64_t v);
/// Receives from port 1 (and records); never reads port 0.
void recvSecond(nprt_inst *self);
/// select(mask), then records port * 1000000 + value.
void selectConsume(nprt_inst *self);
/// Sends limit packets (frame: 32-bit counter) on port 0.
void producePkts(nprt_inst *self);
/// Receives packets, records their counter, drops; ends after `limit`.
void consumePktsThenExit(nprt_inst *self);
/// Uses only nprt_poll / nprt_try_recv_val on port 0.
void pollOnly(nprt_inst *self);
/// Device 0 -> port 0.
void fromDevice(nprt_inst *self);
/// Port 0 -> device 0.
void toDevice(nprt_inst *self);
/// Forwards packets; clones each (dropping the clone) and counts a fault.
void cloneAndFault(nprt_inst *self);
/// Sends 1..limit on port 0, raising SIGINT after the last; never ends by
/// itself.
void produceThenInterrupt(nprt_inst *self);
/// Device 0 -> port 0, raising signal `signal` (SIGINT if 0) after `limit`
/// packets.
void fromDeviceThenInterrupt(nprt_inst *self);
/// Receives a packet and drops it twice (an ownership bug).
void dropTwice(nprt_inst *self);
/// Signal handler: signal = signal * 100 + arg.
void recordSignal(nprt_inst *self, int64_t arg);
/// Records the signal value seen by the first handler run, then ends.
void reportSignal(nprt_inst *self);

} // namespace nprt_test

#endif // NPRT_TEST_UNIT_HANDLERS_H
