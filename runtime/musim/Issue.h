//===- Issue.h - one issued word of the match unit --------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// What a word does once it issues, given the word it popped: it executes
// (executeWord), may answer, and moves the PC (advanceControl). The loop
// (Simulate.cpp) decides before whether the word stalls and pops for it.
// `issue` is a template over the set of slots the word uses, so that the
// unobserved loop calls a copy with the idle slots compiled out, and over
// whether it fills a CycleEvent for the observer.
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_RUNTIME_MUSIM_ISSUE_H
#define NPCC_RUNTIME_MUSIM_ISSUE_H

#include "runtime/musim/Machine.h"
#include "runtime/musim/MachineStep.h"

namespace npcc::musim {

/// The unit's register files while the loop runs, in one block the issue
/// functions reach through one pointer (a word names its registers by
/// index, so they live in memory).
struct Core {
  uint64_t r[17], t[17]; // index SINK absorbs writes to r0/t0
  uint8_t p[17];         // index SINK absorbs idle predicate-unit writes
};

/// The unit's control and counters while the loop runs: scalars only, which
/// the compiler keeps in registers when the loop holds them as a local.
struct Control {
  unsigned pc, delayLeft, pendingTarget;
  uint64_t taken, cancelled;
  uint64_t outVal; // the value of the last answer (ISSUE_OUT)
};

/// What `issue` did, as bits.
enum : unsigned {
  ISSUE_DONE = 0,
  ISSUE_HALT = 1, // the word was `halt`
  ISSUE_OUT = 2,  // the word answered (Core::outVal, the word's cpTag)
};

template <unsigned Slots, bool Observe>
NPCC_MUSIM_ALWAYS_INLINE inline unsigned issue(Core &k, Control &ctl,
                                               const MicroOp &o, uint64_t inVal,
                                               bool inEnd, CycleEvent *ev) {
  ConcreteDomain d;
  WordEffect<ConcreteDomain> e(d);
  executeWord<ConcreteDomain, Slots>(d, o, k.r, k.t, k.p, inVal, inEnd, e);
  bool out = uses<Slots>(o, SLOT_CP) && o.cpOp == mu::CP_OUT && e.cpDo;

  auto branch = CycleEvent::NONE;
  bool isTaken = false;
  BranchAction act = uses<Slots>(o, SLOT_BR) ? branchAction(o, ctl.delayLeft)
                                             : BranchAction::None;
  if (act == BranchAction::Cancelled) {
    branch = CycleEvent::CANCELLED;
    ++ctl.cancelled;
  } else if (act == BranchAction::Halt) {
    branch = CycleEvent::HALT;
  } else if (act == BranchAction::Conditional) {
    isTaken = e.taken;
    branch = isTaken ? CycleEvent::TAKEN : CycleEvent::NOT_TAKEN;
  }

  if (Observe) {
    ev->pc = ctl.pc;
    ev->stall = false;
    ev->inVal = inVal;
    ev->inEnd = inEnd;
    ev->cpDone = e.cpDo;
    ev->cpVal = e.cpVal;
    ev->aluDone = e.aluWrite;
    ev->aluVal = e.aluVal;
    ev->aluCmp = e.aluCmp;
    ev->ternCmp = e.ternCmp;
    ev->pred0 = e.pred0;
    ev->pred1 = e.pred1;
    ev->branch = branch;
  }

  advanceControl(o, isTaken, ctl.pc, ctl.delayLeft, ctl.pendingTarget);
  ctl.taken += isTaken;
  if (out)
    ctl.outVal = e.cpVal;
  return (act == BranchAction::Halt ? ISSUE_HALT : ISSUE_DONE) |
         (out ? ISSUE_OUT : ISSUE_DONE);
}

} // namespace npcc::musim

#endif // NPCC_RUNTIME_MUSIM_ISSUE_H
