//===- Machine.h - the match unit's architectural state ---------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Register files, predicates, the PC and the delay-slot state of one match
// unit (docs/match-unit-isa.md, "Machine state"); the input FIFO is
// InputFifo.h. The step function that executes one pre-decoded word lives
// in MachineStep.h, one cycle of the unit in Issue.h.
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_RUNTIME_MUSIM_MACHINE_H
#define NPCC_RUNTIME_MUSIM_MACHINE_H

#include "runtime/musim/Program.h"

#include <cstdint>
#include <string>
#include <vector>

namespace npcc::musim {

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

/// The unit's state as the run's bookkeeping and the observer see it. The
/// loop (Simulate.cpp) works on its own copy and publishes it when they
/// look.
struct Machine {
  explicit Machine(const Program &prog)
      : prog(&prog), ops(prog.simOps.data()), numOps(prog.ops.size()) {
    reset();
  }
  void reset();

  const Program *prog;
  const MicroOp *ops; // prog->simOps, for the hot loop
  unsigned numOps;
  uint64_t r[17], t[17]; // index SINK absorbs writes to r0/t0
  uint8_t p[17];         // index SINK absorbs idle predicate-unit writes
  unsigned pc = 0, lastPc = 0;
  unsigned delayLeft = 0, pendingTarget = 0;

  // Set by the last issued word that the run's bookkeeping hears about.
  bool popped = false, poppedEnd = false, hasOut = false;
  bool lastPopEnd = false; // the last word popped so far was an END mark
  uint64_t outVal = 0;
  uint8_t outTag = 0;

  // Counters.
  uint64_t stalls = 0, words = 0, taken = 0, cancelled = 0;
  std::vector<uint64_t> execCount; // per word address, and per sentinel
};

} // namespace npcc::musim

#endif // NPCC_RUNTIME_MUSIM_MACHINE_H
