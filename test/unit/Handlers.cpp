//===- Handlers.cpp - element handlers for hand-built test graphs -*- C++ -*-=//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
#include "test/unit/Handlers.h"

#include <csignal>

namespace nprt_test {

InstState State[MaxInsts];

void resetState() {
  // The run keeps an ignored SIGINT ignored, as a shell's background job
  // has it: the tests that raise one need it at its default.
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  for (InstState &s : State) {
    s = InstState();
    s.got.reserve(4096);
  }
}

void produce(nprt_inst *self) {
  InstState &s = st(self);
  if (s.count == s.limit)
    nprt_test_exit(self);
  nprt_send_val(self, 0, ++s.count);
}

void produceTwo(nprt_inst *self) {
  InstState &s = st(self);
  if (s.count == s.limit)
    nprt_test_exit(self);
  ++s.count;
  nprt_send_val(self, 0, s.count);
  nprt_send_val(self, 1, s.count);
}

// Values on port 0 and, after every tenth, a tick on port 1.
void produceWithTicks(nprt_inst *self) {
  InstState &s = st(self);
  if (s.count == s.limit)
    nprt_test_exit(self);
  nprt_send_val(self, 0, ++s.count);
  if (s.count % 10 == 0)
    nprt_send_val(self, 1, s.count);
}

// Waits for a tick on port 1, then takes whatever port 0 holds.
void drainOnTick(nprt_inst *self) {
  nprt_recv_val(self, 1);
  while (nprt_poll(self, 0))
    st(self).got.push_back(nprt_try_recv_val(self, 0));
}

void consume(nprt_inst *self) {
  st(self).got.push_back(nprt_recv_val(self, 0));
}

void accumulateInState(nprt_inst *self) {
  auto *sum = static_cast<uint64_t *>(nprt_state(self));
  *sum += nprt_recv_val(self, 0);
  st(self).got.push_back(*sum);
}

void accumulateShared(nprt_inst *self) {
  auto *sum = static_cast<uint64_t *>(nprt_shared(self));
  *sum += nprt_recv_val(self, 0);
  st(self).got.push_back(*sum);
}

void consumeCount(nprt_inst *self) {
  InstState &s = st(self);
  s.count += nprt_recv_val(self, 0);
}

void pass(nprt_inst *self) { nprt_send_val(self, 0, nprt_recv_val(self, 0)); }

// What npcc emits for a fused send on port 0 to `push`.
static void fusedSend(nprt_inst *self, uint64_t v,
                      void (*push)(nprt_inst *, uint64_t)) {
  if (nprt_inst *to = nprt_fused_enter_val(self, 0, v)) {
    push(to, v);
    nprt_fused_leave(self);
  }
}

void produceFused(nprt_inst *self) {
  InstState &s = st(self);
  if (s.count == s.limit)
    nprt_test_exit(self);
  fusedSend(self, ++s.count, passPush);
}

void passPush(nprt_inst *self, uint64_t v) { fusedSend(self, v, consumePush); }

void consumePush(nprt_inst *self, uint64_t v) {
  ++st(self).count;
  st(self).got.push_back(v);
}

void recvSecond(nprt_inst *self) {
  st(self).got.push_back(nprt_recv_val(self, 1));
}

void selectConsume(nprt_inst *self) {
  InstState &s = st(self);
  uint32_t port = nprt_select(self, s.mask);
  uint64_t v = nprt_recv_val(self, port);
  s.got.push_back(port * 1000000ull + v);
}

void producePkts(nprt_inst *self) {
  InstState &s = st(self);
  if (s.count == s.limit)
    nprt_test_exit(self);
  nprt_pkt *p = nprt_pkt_new(self, 64);
  nprt_pkt_set_bits(p, 0, 0, 32, ++s.count);
  nprt_send_pkt(self, 0, p);
}

void consumePktsThenExit(nprt_inst *self) {
  InstState &s = st(self);
  nprt_pkt *p = nprt_recv_pkt(self, 0);
  s.got.push_back(nprt_pkt_get_bits(p, 0, 0, 32));
  nprt_drop(self, p);
  if (s.got.size() == s.limit)
    nprt_test_exit(self);
}

void pollOnly(nprt_inst *self) {
  InstState &s = st(self);
  if (nprt_poll(self, 0))
    s.got.push_back(nprt_try_recv_val(self, 0));
  else
    ++s.count; // idle iterations
}

void fromDevice(nprt_inst *self) {
  nprt_send_pkt(self, 0, nprt_device_recv(self, 0));
}

void toDevice(nprt_inst *self) {
  nprt_device_send(self, 0, nprt_recv_pkt(self, 0));
}

void cloneAndFault(nprt_inst *self) {
  nprt_pkt *p = nprt_recv_pkt(self, 0);
  nprt_pkt *q = nprt_clone(self, p);
  if (nprt_pkt_get_bits(q, 0, 0, 32) != nprt_pkt_get_bits(p, 0, 0, 32))
    nprt_fault(self, 2);
  nprt_fault(self, 1);
  nprt_drop(self, q);
  nprt_send_pkt(self, 0, p);
}

void produceThenInterrupt(nprt_inst *self) {
  InstState &s = st(self);
  nprt_send_val(self, 0, ++s.count);
  if (s.count == s.limit)
    raise(SIGINT);
}

void fromDeviceThenInterrupt(nprt_inst *self) {
  InstState &s = st(self);
  nprt_send_pkt(self, 0, nprt_device_recv(self, 0));
  if (++s.count == s.limit)
    raise(s.signal ? (int)s.signal : SIGINT);
}

void dropTwice(nprt_inst *self) {
  nprt_pkt *p = nprt_recv_pkt(self, 0);
  nprt_drop(self, p);
  nprt_drop(self, p);
}

void recordSignal(nprt_inst *self, int64_t arg) {
  InstState &s = st(self);
  s.signal = s.signal * 100 + arg;
}

void reportSignal(nprt_inst *self) {
  InstState &s = st(self);
  s.got.push_back(s.signal);
  nprt_test_exit(self);
}

} // namespace nprt_test
