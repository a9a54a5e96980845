//===- MachineStep.h - execute one pre-decoded wide word --------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The hot loop's body, inline so the run loop can specialise it. Every
// slot reads the state the previous word left, then the writes are applied
// in the documented order: input unit, copy unit, ALU, ternary unit,
// predicate unit; compare predicates combine ALU, then ternary, then the
// input unit's END flag. A word that needs input while the FIFO is empty
// does nothing at all.
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_RUNTIME_MUSIM_MACHINESTEP_H
#define NPCC_RUNTIME_MUSIM_MACHINESTEP_H

#include "runtime/musim/Machine.h"

namespace npcc::musim {

namespace detail {

inline bool accumulate(uint8_t old, bool r, uint8_t acc) {
  return acc == mu::ACC_SET ? r : acc == mu::ACC_AND ? (old & r) : (old | r);
}

/// The AND over the selected segments of one ALU compare.
inline bool compare(const MicroOp &o, uint64_t a, uint64_t b) {
  if (o.aluOp == mu::ALU_EQ)
    return ((a ^ b) & o.cmpMask) == 0;
  bool all = true;
  for (unsigned i = 0; i < o.aluSegs; ++i) {
    const Segment &s = o.aluSeg[i];
    uint64_t x = a >> s.shift & s.mask, y = b >> s.shift & s.mask;
    bool r;
    switch (o.aluOp) {
    case mu::ALU_NE:
      r = x != y;
      break;
    case mu::ALU_LTU:
      r = x < y;
      break;
    case mu::ALU_LEU:
      r = x <= y;
      break;
    case mu::ALU_GTU:
      r = x > y;
      break;
    case mu::ALU_GEU:
      r = x >= y;
      break;
    case mu::ALU_LTS:
      r = (x ^ s.sign) < (y ^ s.sign);
      break;
    default: // ALU_GES
      r = (x ^ s.sign) >= (y ^ s.sign);
      break;
    }
    all &= r;
  }
  return all;
}

inline uint64_t permute(const MicroOp &o, uint64_t a, uint64_t b) {
  uint64_t res = 0;
  for (unsigned j = 0; j < 8; ++j) {
    unsigned sel = o.permSel >> (4 * j) & 15;
    uint64_t byte = (sel < 8 ? a >> (8 * sel) : b >> (8 * (sel - 8))) & 0xff;
    res |= byte << (8 * j);
  }
  return res & ~o.permZero;
}

inline uint64_t tpermute(const MicroOp &o, uint64_t v) {
  if (o.tpermIdentity)
    return v;
  uint64_t res = 0;
  for (unsigned j = 0; j < 4; ++j)
    res |= (v >> (16 * o.tperm[j]) & 0xffff) << (16 * j);
  return res;
}

} // namespace detail

template <bool Observe> inline Status Machine::issue(CycleEvent *ev) {
  if (pc >= numOps) {
    fault = "pc " + std::to_string(pc) + " is past the end of the program (" +
            std::to_string(numOps) + " words)";
    return Status::Fault;
  }
  const MicroOp &o = ops[pc];
  if (o.needsInput && in.empty()) {
    ++stalls;
    if (Observe) {
      ev->pc = pc;
      ev->stall = true;
    }
    return Status::Stalled;
  }
  lastPc = pc;
  ++words;
  ++counts[pc];

  // Reads (the state the previous word left).
  uint64_t inVal = 0;
  bool inEnd = false;
  popped = o.inOp != mu::IN_NONE;
  if (popped) {
    in.pop(inVal, inEnd);
    lastPopEnd = inEnd;
  }
  poppedEnd = inEnd;

  bool cpDo = o.cpOp != mu::CP_NONE && (p[o.cpPred] ^ o.cpPneg);
  uint64_t cpVal = r[o.cpSrc];

  bool aluWrite = false, aluCmp = false;
  uint64_t aluVal = 0;
  if (o.aluOp != mu::ALU_NOP) {
    uint64_t a = r[o.aluRa], b = (r[o.aluRb] & o.immKeep) | o.immBits;
    uint64_t h = o.carryTop;
    switch (o.aluOp) {
    case mu::ALU_ADD:
      aluVal = ((a & ~h) + (b & ~h)) ^ ((a ^ b) & h);
      break;
    case mu::ALU_SUB:
      aluVal = ((a | h) - (b & ~h)) ^ ((a ^ ~b) & h);
      break;
    case mu::ALU_AND:
      aluVal = a & b;
      break;
    case mu::ALU_OR:
      aluVal = a | b;
      break;
    case mu::ALU_XOR:
      aluVal = a ^ b;
      break;
    case mu::ALU_ANDN:
      aluVal = a & ~b;
      break;
    case mu::ALU_PERM:
      aluVal = detail::permute(o, a, r[o.aluRb]);
      break;
    default:
      aluCmp =
          detail::accumulate(p[o.aluP], detail::compare(o, a, b), o.aluAcc);
      break;
    }
    aluWrite = o.aluOp < mu::ALU_EQ && (p[o.aluPred] ^ o.aluPneg);
  }

  bool ternCmp = false;
  if (o.ternOp != mu::TERN_NOP) {
    uint64_t diff = t[o.ternA] ^ t[o.ternB];
    uint64_t m = o.ternOp == mu::TERN_EQ ? t[o.ternM] : ~t[o.ternM];
    ternCmp = (diff & m & o.ternMask) == 0;
  }

  bool pr0 = o.f0 >> (p[o.a0] * 2 + p[o.b0]) & 1;
  bool pr1 = o.f1 >> (p[o.a1] * 2 + p[o.b1]) & 1;

  auto branch = CycleEvent::NONE;
  bool halt = false, isTaken = false;
  if (o.brOp != mu::BR_NONE) {
    if (delayLeft) {
      branch = CycleEvent::CANCELLED;
      ++cancelled;
    } else if (o.brOp == mu::BR_HALT) {
      branch = CycleEvent::HALT;
      halt = true;
    } else {
      isTaken = p[o.brPred] == (o.brOp == mu::BR_IF1);
      branch = isTaken ? CycleEvent::TAKEN : CycleEvent::NOT_TAKEN;
    }
  }

  // Writes, in order; later ones win.
  if (o.inOp & 1)
    r[o.inRd] = inVal;
  if (o.inOp & 2)
    t[o.inTd] = detail::tpermute(o, inVal);
  hasOut = false;
  if (cpDo) {
    if (o.cpOp == mu::CP_TERN) {
      t[o.cpTd] = cpVal;
    } else {
      hasOut = true;
      outVal = cpVal;
      outTag = o.cpTag;
    }
  }
  if (aluWrite)
    r[o.aluRd] = aluVal;
  p[o.aluP] = aluCmp; // SINK unless a compare
  ternCmp = detail::accumulate(p[o.ternP], ternCmp, o.ternAcc);
  p[o.ternP] = ternCmp; // after the ALU; SINK unless a ternary compare
  p[o.inEndp] = inEnd;  // SINK when the word has no END flag
  p[o.d0] = pr0;
  p[o.d1] = pr1;

  if (Observe) {
    ev->pc = pc;
    ev->stall = false;
    ev->inVal = inVal;
    ev->inEnd = inEnd;
    ev->cpDone = cpDo;
    ev->cpVal = cpVal;
    ev->aluDone = aluWrite;
    ev->aluVal = aluVal;
    ev->aluCmp = aluCmp;
    ev->ternCmp = ternCmp;
    ev->pred0 = pr0;
    ev->pred1 = pr1;
    ev->branch = branch;
  }

  // Next PC: the delay slots of a taken branch, then its target.
  if (delayLeft) {
    pc = --delayLeft ? pc + 1 : pendingTarget;
  } else {
    pc = pc + 1;
  }
  if (isTaken) {
    ++taken;
    delayLeft = mu::DELAY_SLOTS;
    pendingTarget = o.target;
  }
  return halt ? Status::Halted : Status::Issued;
}

} // namespace npcc::musim

#endif // NPCC_RUNTIME_MUSIM_MACHINESTEP_H
