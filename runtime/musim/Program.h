//===- Program.h - match-unit words decoded once for simulation -*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// musim never looks at a mu::Word while it runs: each word is turned once,
// at load, into a MicroOp whose fields are what the hot loop needs (sink
// registers for dropped writes, immediate masks, segment tables). Reserved
// encodings are rejected here, with the word's address.
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_RUNTIME_MUSIM_PROGRAM_H
#define NPCC_RUNTIME_MUSIM_PROGRAM_H

#include "runtime/isa/ISA.h"

#include <cstdint>
#include <string>
#include <vector>

namespace npcc::musim {

/// Index of the write-only register that absorbs writes to r0/t0, and of
/// the predicate that absorbs an idle predicate-unit write.
constexpr unsigned SINK = 16;

/// One SIMD segment of a compare: the bits at `shift`, `mask` wide.
struct Segment {
  uint64_t mask = 0; // unshifted
  uint64_t sign = 0; // the segment's top bit, unshifted
  uint8_t shift = 0;
};

/// What an ALU operation does, for the simulator's loop to dispatch on:
/// writes a register (add..perm), compares for equality, or compares
/// otherwise.
enum AluClass : uint8_t { ALU_CLASS_WRITE = 1, ALU_CLASS_EQ, ALU_CLASS_CMP };

/// A pre-decoded wide word. Aligned so that the loop finds a word at
/// `ops + (pc << 8)` on one or few cache lines.
struct alignas(64) MicroOp {
  // Input unit.
  uint8_t inOp = 0, inRd = SINK, inTd = SINK, inEndp = SINK;
  bool tpermIdentity = true;
  uint8_t tperm[4] = {0, 1, 2, 3};
  // Copy unit.
  uint8_t cpOp = 0, cpSrc = 0, cpTd = SINK, cpTag = 0, cpPred = 0, cpPneg = 0;
  // ALU.
  uint8_t aluOp = 0, aluRd = SINK, aluRa = 0, aluRb = 0, aluPred = 0,
          aluPneg = 0, aluP = SINK, aluAcc = 0, aluSegs = 0;
  uint64_t immKeep = ~0ull, immBits = 0; // operand 2 = (rb & keep) | bits
  uint64_t carryTop = 0;                 // top bit of every segment
  uint64_t cmpMask = 0;                  // union of the selected segments
  uint64_t permZero = 0;                 // result bytes forced to zero
  uint32_t permSel = 0;
  Segment aluSeg[4];
  // Ternary unit.
  uint8_t ternOp = 0, ternA = 0, ternB = 0, ternM = 0, ternP = SINK,
          ternAcc = 0;
  uint64_t ternMask = 0; // union of the selected segments
  uint64_t ternInv = 0;  // ~0 when the mask register is inverted (not EQ)
  // Predicate unit.
  uint8_t d0 = SINK, a0 = 0, b0 = 0, f0 = 0, d1 = SINK, a1 = 0, b1 = 0, f1 = 0;
  // Branch unit.
  uint8_t brOp = 0, brPred = 0;
  uint16_t target = 0;
  bool needsInput = false;
  uint8_t slots = 0;    // bit per non-empty slot, in SlotKind order
  uint8_t aluClass = 0; // AluClass, 0 without an ALU operation
  uint8_t kind = 0;     // slots | aluClass << NUM_SLOTS, for dispatch
};

/// The six slots, in word order.
enum SlotKind { SLOT_IN, SLOT_CP, SLOT_ALU, SLOT_TERN, SLOT_PRED, SLOT_BR };
constexpr unsigned NUM_SLOTS = 6;

/// MicroOp::kind of no decoded word (an ALU without a class): the
/// sentinels past the end of a program (Program::simOps).
constexpr uint8_t KIND_PAST_END = 1 << SLOT_ALU;
extern const char *const SlotNames[NUM_SLOTS];

struct Program {
  std::string name;
  std::vector<mu::Word> words;
  std::vector<MicroOp> ops;
  /// `ops`, then KIND_PAST_END sentinels up to the farthest branch target:
  /// every PC the unit can reach indexes it, so musim's loop learns that
  /// the PC left the program from the word's kind, which it reads anyway.
  std::vector<MicroOp> simOps;
};

/// Decodes `words` into `prog`; on a reserved encoding returns false with
/// a message naming the word ("word 3: reserved ALU immsel 3").
bool loadProgram(const std::vector<mu::Word> &words, Program &prog,
                 std::string &error);

} // namespace npcc::musim

#endif // NPCC_RUNTIME_MUSIM_PROGRAM_H
