//===- Program.cpp - decode match-unit words for the simulator ------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
#include "runtime/musim/Program.h"

#include <algorithm>

namespace npcc::musim {

const char *const SlotNames[NUM_SLOTS] = {"in",   "cp",   "alu",
                                          "tern", "pred", "br"};

namespace {

/// Splits the four lanes into segments (bit k of `simd`: lanes k and k+1
/// are joined) and keeps those that contain a lane of `lanes`.
unsigned segments(unsigned simd, unsigned lanes, Segment *out,
                  uint64_t &carryTop, uint64_t &selected) {
  unsigned n = 0, start = 0;
  carryTop = selected = 0;
  for (unsigned k = 0; k < mu::LANES; ++k) {
    if (k + 1 < mu::LANES && (simd >> k & 1))
      continue;
    unsigned width = 16 * (k + 1 - start);
    uint64_t mask = width == 64 ? ~0ull : ((1ull << width) - 1);
    carryTop |= 1ull << (16 * (k + 1) - 1);
    unsigned laneBits = ((1u << (k + 1)) - 1) & ~((1u << start) - 1);
    if (lanes & laneBits) {
      out[n].mask = mask;
      out[n].sign = 1ull << (width - 1);
      out[n].shift = 16 * start;
      selected |= mask << (16 * start);
      ++n;
    }
    start = k + 1;
  }
  return n;
}

uint8_t reg(uint32_t r) { return r == 0 ? SINK : r; }

bool decodeOne(const mu::Word &w, MicroOp &o, std::string &why) {
  // Input unit.
  o.inOp = w.IN_OP;
  o.needsInput = o.inOp != mu::IN_NONE;
  if (o.inOp & 1)
    o.inRd = reg(w.IN_RD);
  if (o.inOp & 2) {
    o.inTd = reg(w.IN_TD);
    for (unsigned j = 0; j < 4; ++j)
      o.tperm[j] = w.IN_TPERM >> (2 * j) & 3;
    o.tpermIdentity = w.IN_TPERM == 0xe4;
  }
  if (w.IN_ENDP != 0) {
    if (!o.needsInput) {
      why = "END flag p" + std::to_string(w.IN_ENDP) + " without input";
      return false;
    }
    if (w.IN_ENDP < mu::PRED_CMP_FIRST) {
      why = "END flag predicate p" + std::to_string(w.IN_ENDP) +
            " is not one of p8..p15";
      return false;
    }
    o.inEndp = w.IN_ENDP;
  }
  // Copy unit.
  o.cpOp = w.CP_OP;
  if (o.cpOp == 3) {
    why = "reserved copy operation 3";
    return false;
  }
  o.cpSrc = w.CP_SRC;
  o.cpTd = reg(w.CP_TD);
  o.cpTag = w.CP_TAG;
  o.cpPred = w.CP_PRED;
  o.cpPneg = w.CP_PNEG;
  // ALU.
  o.aluOp = w.ALU_OP;
  o.aluRa = w.ALU_RA;
  o.aluRb = w.ALU_RB;
  o.aluPred = w.ALU_PRED;
  o.aluPneg = w.ALU_PNEG;
  bool compare = o.aluOp >= mu::ALU_EQ;
  o.aluClass = o.aluOp == mu::ALU_NOP  ? 0
               : !compare              ? ALU_CLASS_WRITE
               : o.aluOp == mu::ALU_EQ ? ALU_CLASS_EQ
                                       : ALU_CLASS_CMP;
  if (o.aluOp == mu::ALU_PERM) {
    o.aluRd = reg(w.ALU_RD);
    o.permSel = w.ALU_IMM;
    unsigned zero = w.ALU_CMPD | w.ALU_ACC << 3 | w.ALU_SIMD << 5;
    for (unsigned j = 0; j < 8; ++j)
      if (zero >> j & 1)
        o.permZero |= 0xffull << (8 * j);
  } else if (o.aluOp != mu::ALU_NOP) {
    if (w.ALU_IMMSEL == 3) {
      why = "reserved ALU immsel 3";
      return false;
    }
    if (w.ALU_IMMSEL == mu::IMM_LO) {
      o.immKeep = ~0xffffffffull;
      o.immBits = w.ALU_IMM;
    } else if (w.ALU_IMMSEL == mu::IMM_HI) {
      o.immKeep = 0xffffffffull;
      o.immBits = uint64_t(w.ALU_IMM) << 32;
    }
    o.aluSegs =
        segments(w.ALU_SIMD, w.ALU_LANES, o.aluSeg, o.carryTop, o.cmpMask);
    if (compare) {
      if (w.ALU_ACC == 3) {
        why = "reserved ALU accumulation 3";
        return false;
      }
      o.aluP = mu::PRED_CMP_FIRST + w.ALU_CMPD;
      o.aluAcc = w.ALU_ACC;
    } else {
      o.aluRd = reg(w.ALU_RD);
    }
  }
  // Ternary unit.
  o.ternOp = w.TERN_OP;
  if (o.ternOp == 3) {
    why = "reserved ternary operation 3";
    return false;
  }
  if (o.ternOp != mu::TERN_NOP) {
    if (w.TERN_ACC == 3) {
      why = "reserved ternary accumulation 3";
      return false;
    }
    o.ternA = w.TERN_TA;
    o.ternB = w.TERN_TB;
    o.ternM = w.TERN_TM;
    o.ternInv = o.ternOp == mu::TERN_EQ ? 0 : ~0ull;
    o.ternP = mu::PRED_CMP_FIRST + w.TERN_CMPD;
    o.ternAcc = w.TERN_ACC;
    Segment segs[4];
    uint64_t top;
    segments(w.TERN_SIMD, w.TERN_LANES, segs, top, o.ternMask);
  }
  // Predicate unit.
  if (w.PRED_DST0) {
    o.d0 = w.PRED_DST0;
    o.a0 = w.PRED_A0;
    o.b0 = w.PRED_B0;
    o.f0 = w.PRED_FN0;
  }
  if (w.PRED_DST1) {
    o.d1 = w.PRED_DST1;
    o.a1 = w.PRED_A1;
    o.b1 = w.PRED_B1;
    o.f1 = w.PRED_FN1;
  }
  // Branch unit.
  o.brOp = w.BR_OP;
  o.brPred = w.BR_PRED;
  o.target = w.BR_TARGET;

  o.slots = (o.inOp ? 1 << SLOT_IN : 0) | (o.cpOp ? 1 << SLOT_CP : 0) |
            (o.aluOp ? 1 << SLOT_ALU : 0) | (o.ternOp ? 1 << SLOT_TERN : 0) |
            (w.PRED_DST0 || w.PRED_DST1 ? 1 << SLOT_PRED : 0) |
            (o.brOp ? 1 << SLOT_BR : 0);
  o.kind = o.slots | o.aluClass << NUM_SLOTS;
  return true;
}

} // namespace

bool loadProgram(const std::vector<mu::Word> &words, Program &prog,
                 std::string &error) {
  if (words.empty()) {
    error = "the program is empty";
    return false;
  }
  if (words.size() > mu::MAX_WORDS) {
    error = "the program has " + std::to_string(words.size()) +
            " words; the microcode memory holds " +
            std::to_string(mu::MAX_WORDS);
    return false;
  }
  prog.words = words;
  prog.ops.assign(words.size(), MicroOp());
  for (size_t i = 0; i < words.size(); ++i) {
    std::string why;
    if (!decodeOne(words[i], prog.ops[i], why)) {
      error = "word " + std::to_string(i) + ": " + why;
      return false;
    }
  }
  size_t reach = prog.ops.size(); // the PC after the last word
  for (const MicroOp &o : prog.ops)
    reach = std::max<size_t>(reach, o.target);
  MicroOp pastEnd;
  pastEnd.kind = KIND_PAST_END;
  prog.simOps = prog.ops;
  prog.simOps.resize(reach + 1, pastEnd);
  return true;
}

} // namespace npcc::musim
