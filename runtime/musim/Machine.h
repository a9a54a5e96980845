//===- Machine.h - the match unit's architectural state ---------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Register files, predicates, the input FIFO, the PC and the delay-slot
// state of one match unit (docs/match-unit-isa.md, "Machine state"). The
// step function that executes one pre-decoded word lives in MachineStep.h.
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_RUNTIME_MUSIM_MACHINE_H
#define NPCC_RUNTIME_MUSIM_MACHINE_H

#include "runtime/musim/Program.h"

#include <cstdint>
#include <string>
#include <vector>

namespace npcc::musim {

/// The input FIFO: 64-bit words, each with an END mark. A ring that grows.
class InputFifo {
public:
  InputFifo() : vals(64), ends(64), mask(63) {}
  bool empty() const { return head == tail; }
  size_t size() const { return tail - head; }
  void push(uint64_t v, bool end) {
    if (tail - head == vals.size())
      grow();
    vals[tail & mask] = v;
    ends[tail & mask] = end;
    ++tail;
  }
  void pop(uint64_t &v, bool &end) {
    v = vals[head & mask];
    end = ends[head & mask];
    ++head;
  }

private:
  void grow();
  std::vector<uint64_t> vals;
  std::vector<uint8_t> ends;
  size_t head = 0, tail = 0, mask;
};

/// What one cycle did, filled only when the run is observed (trace, VCD).
struct CycleEvent {
  uint64_t cycle = 0;
  unsigned pc = 0;
  bool stall = false;
  uint64_t inVal = 0;
  bool inEnd = false;
  bool cpDone = false, aluDone = false;
  uint64_t cpVal = 0, aluVal = 0;
  bool aluCmp = false, ternCmp = false; // value after accumulation
  bool pred0 = false, pred1 = false;
  enum Branch { NONE, TAKEN, NOT_TAKEN, CANCELLED, HALT } branch = NONE;
};

enum class Status { Issued, Stalled, Halted, Fault };

struct Machine {
  explicit Machine(const Program &prog)
      : prog(&prog), ops(prog.ops.data()), numOps(prog.ops.size()) {
    reset();
  }
  void reset();

  const Program *prog;
  const MicroOp *ops; // prog->ops, for the hot loop
  unsigned numOps;
  uint64_t r[17], t[17]; // index SINK absorbs writes to r0/t0
  uint8_t p[17];         // index SINK absorbs idle predicate-unit writes
  unsigned pc = 0, lastPc = 0;
  unsigned delayLeft = 0, pendingTarget = 0;
  InputFifo in;

  // Set by the last issued word.
  bool popped = false, poppedEnd = false, hasOut = false;
  bool lastPopEnd = false; // the last word popped so far was an END mark
  uint64_t outVal = 0;
  uint8_t outTag = 0;

  // Counters.
  uint64_t stalls = 0, words = 0, taken = 0, cancelled = 0;
  std::vector<uint64_t> execCount; // per word address
  uint64_t *counts;                // execCount.data()
  std::string fault;

  template <bool Observe> Status issue(CycleEvent *ev);
};

} // namespace npcc::musim

#endif // NPCC_RUNTIME_MUSIM_MACHINE_H
