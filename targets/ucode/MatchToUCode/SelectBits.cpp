//===- SelectBits.cpp - bit counts and byte swaps ------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The match unit has no instruction that counts bits, and no shifter: the
// counts are built from its ALU operations. Moving a value up by one bit is
// an addition of the register to itself, moving it by whole bytes (either
// way) is one byte permute (`alu.perm`), and a guarded operation writes its
// destination only when a predicate holds. docs/match-unit-compiler.md
// gives the cost of each sequence.
//
//===----------------------------------------------------------------------===//

#include "targets/ucode/MatchToUCode/BackendImpl.h"

#include "llvm/ADT/bit.h"

using namespace mlir;
using namespace npcc;
using namespace npcc::mub;
using mu::Word;

/// A register operation of the bit sequences: f(ra, rb or the immediate)
/// into a new register, or, under predicate `guard`, into register `into`
/// updated in place (the old value survives where the guard is false).
/// Returns the register written.
int Backend::bitStep(MOp o, int ra, int rb, int block, int guard, int into) {
  int rd = into >= 0 ? into : m.newReg(FR);
  o.regs = {{&Word::ALU_RD, rd},
            {&Word::ALU_RA, ra},
            {&Word::ALU_RB, rb},
            {&Word::ALU_PRED, guard >= 0 ? guard : m.p0()}};
  o.reads = {ra, rb};
  if (guard >= 0) {
    o.reads.push_back(guard);
    o.reads.push_back(rd);
  }
  o.writes = {rd};
  place(std::move(o), block == Machine::Header ? 3 : 0);
  return rd;
}

/// Byte j of the result is byte `from(j)` of register `ra`, or zero where
/// `from(j)` is negative (bitStep gives the destination).
int Backend::permute(int ra, int block,
                     const std::function<int(unsigned)> &from, int guard,
                     int into) {
  MOp o = op(UAlu, block);
  setPerm(o, from);
  return bitStep(std::move(o), ra, m.r0(), block, guard, into);
}

/// ra OP c for a constant c below 2^32 (the low immediate).
int Backend::aluImm(unsigned aluOp, int ra, uint32_t c, int block, int guard,
                    int into) {
  MOp o = op(UAlu, block);
  o.w.ALU_OP = aluOp;
  o.w.ALU_IMMSEL = mu::IMM_LO;
  o.w.ALU_IMM = c;
  return bitStep(std::move(o), ra, m.r0(), block, guard, into);
}

/// ra OP rb.
int Backend::aluReg(unsigned aluOp, int ra, int rb, int block, int guard,
                    int into) {
  MOp o = op(UAlu, block);
  o.w.ALU_OP = aluOp;
  return bitStep(std::move(o), ra, rb, block, guard, into);
}

/// The bits set among the low `w` bits of register `x` (garbage above them
/// unless `clean`), as a new register at bit 0. A SWAR count that moves
/// every partial sum up instead of down (the unit has no right shift): the
/// counts of bit pairs, nibbles and bytes land in the low nibble of bytes
/// 1-4, which byte permutes then add up.
int Backend::popcountReg(int x, unsigned w, bool clean, int block) {
  auto half = [&](int u) {
    // Pairs: 2-bit counts at bits 2k+1.
    int a = aluImm(mu::ALU_AND, u, 0x55555555u, block);
    int b = aluReg(mu::ALU_SUB, u, a, block);
    a = aluReg(mu::ALU_ADD, a, a, block);
    int y = aluReg(mu::ALU_ADD, a, b, block);
    // Nibbles: 3-bit counts at bits 4j+3.
    int c = aluImm(mu::ALU_AND, y, 0x66666666u, block);
    int d = aluReg(mu::ALU_SUB, y, c, block);
    for (int k = 0; k < 2; ++k)
      c = aluReg(mu::ALU_ADD, c, c, block);
    y = aluReg(mu::ALU_ADD, c, d, block);
    // Bytes: 4-bit counts at bits 8i+7, then up to the low nibble of byte
    // i+1.
    int e = aluImm(mu::ALU_AND, y, 0x38383838u, block);
    int f = aluReg(mu::ALU_SUB, y, e, block);
    for (int k = 0; k < 4; ++k)
      e = aluReg(mu::ALU_ADD, e, e, block);
    y = aluReg(mu::ALU_ADD, e, f, block);
    return aluReg(mu::ALU_ADD, y, y, block);
  };
  // Bytes 1..bytes hold counts below 256: no carry crosses a byte.
  auto reduce = [&](int y, unsigned bytes) {
    if (bytes > 2)
      y = aluReg(mu::ALU_ADD, y,
                 permute(y, block, [](unsigned j) { return (int)j + 2; }),
                 block);
    if (bytes > 1)
      y = aluReg(mu::ALU_ADD, y,
                 permute(y, block, [](unsigned j) { return (int)j + 1; }),
                 block);
    return permute(y, block, [](unsigned j) { return j == 0 ? 1 : -1; });
  };
  if (w <= 32) {
    int u = x;
    if (!clean)
      u = aluImm(mu::ALU_AND, x, w == 32 ? 0xffffffffu : (1u << w) - 1, block);
    return reduce(half(u), (w + 7) / 8);
  }
  // The halves' byte counts are added, then reduced once.
  int lo = aluImm(mu::ALU_AND, x, 0xffffffffu, block);
  unsigned hiBits = w - 32, hiBytes = (hiBits + 7) / 8;
  int hi = permute(x, block,
                   [&](unsigned j) { return j < hiBytes ? (int)(j + 4) : -1; });
  if (hiBits % 8 && !clean)
    hi = aluImm(mu::ALU_AND, hi, (1u << hiBits) - 1, block);
  return reduce(aluReg(mu::ALU_ADD, half(lo), half(hi), block), 4);
}

/// Leading zeros by binary search: the value is moved up to the top of the
/// word, then for k = 32, 16, ..., 1 a compare tells whether its top k bits
/// are zero; if so k is added to the count and the value moves up k bits
/// (guarded operations, no branch). Zero gets the width.
int Backend::clzReg(int x, unsigned w, int block) {
  // v is a register of this sequence, updated in place below.
  unsigned up = 64 - w, q = up / 8;
  int v = x;
  if (q)
    v = permute(x, block,
                [&](unsigned j) { return j >= q ? (int)(j - q) : -1; });
  for (unsigned k = 0; k < up % 8; ++k)
    v = aluReg(mu::ALU_ADD, v, v, block);
  if (v == x)
    v = aluReg(mu::ALU_OR, x, m.r0(), block);
  int n = aluReg(mu::ALU_OR, m.r0(), m.r0(), block);
  auto topZero = [&](unsigned k) {
    // v < 2^(64-k): the high immediate with r0's zero low half.
    MOp o = op(UAlu, block);
    o.w.ALU_OP = k ? mu::ALU_LTU : mu::ALU_EQ;
    o.w.ALU_IMMSEL = k ? (unsigned)mu::IMM_HI : 0;
    o.w.ALU_IMM = k ? 1u << (32 - k) : 0;
    int p = m.newReg(FC);
    o.regs = {
        {&Word::ALU_RA, v}, {&Word::ALU_RB, m.r0()}, {&Word::ALU_CMPD, p}};
    o.reads = {v};
    o.writes = {p};
    place(std::move(o), block == Machine::Header ? 3 : 0);
    return p;
  };
  for (unsigned k = 32; k >= 1; k /= 2) {
    if (k >= w)
      continue;
    int p = topZero(k);
    aluImm(mu::ALU_ADD, n, k, block, p, n);
    if (k == 1)
      break;
    if (k >= 8)
      permute(
          v, block,
          [&](unsigned j) { return j >= k / 8 ? (int)(j - k / 8) : -1; }, p, v);
    else
      for (unsigned i = 0; i < k; ++i)
        aluReg(mu::ALU_ADD, v, v, block, p, v);
  }
  int zero = topZero(0);
  aluImm(mu::ALU_OR, m.r0(), w, block, zero, n);
  return n;
}

static int blockOf(const IntVal &x) {
  return x.block == Machine::Init ? Machine::Header : x.block;
}

IntVal Backend::bitOp(Operation *def, Location loc) {
  IntVal in = intVal(def->getOperand(0));
  unsigned w = in.width;
  uint64_t mask = w == 64 ? ~0ull : (1ull << w) - 1;
  if (in.isConst) {
    uint64_t c = in.c & mask, r;
    if (isa<match::PopcountOp>(def))
      r = llvm::popcount(c);
    else if (isa<match::ClzOp>(def))
      r = c ? llvm::countl_zero(c) - (64 - w) : w;
    else if (isa<match::CtzOp>(def))
      r = c ? llvm::countr_zero(c) : w;
    else
      r = llvm::byteswap(c) >> (64 - w);
    return constant(r, 0, w);
  }
  IntVal out;
  out.lsb = 0;
  out.width = w;
  out.clean = true; // every result fits its width
  if (isa<match::BswapOp>(def)) {
    // One permute from the field's bytes when they are whole bytes.
    IntVal x = in.lsb % 8 ? lowered(in, loc) : in;
    out.block = blockOf(x);
    unsigned first = x.lsb / 8, n = w / 8;
    out.r = permute(rOf(x, out.block, loc), out.block, [&](unsigned j) {
      return j < n ? (int)(first + n - 1 - j) : -1;
    });
    return out;
  }
  // At bit 0; the bits above the operand need not be clear: the count
  // masks them, and clz moves them out of the word.
  IntVal x = lowered(in, loc);
  out.block = blockOf(x);
  int r = rOf(x, out.block, loc);
  if (isa<match::PopcountOp>(def)) {
    out.r = popcountReg(r, w, x.clean || w == 64, out.block);
  } else if (isa<match::ClzOp>(def)) {
    out.r = clzReg(r, w, out.block);
  } else {
    // ctz(x) = popcount((x & -x) - 1) on w bits: the bits below the lowest
    // set one, or all w bits for 0.
    int neg = aluReg(mu::ALU_SUB, m.r0(), r, out.block);
    int low = aluReg(mu::ALU_AND, r, neg, out.block);
    int below = aluImm(mu::ALU_SUB, low, 1, out.block);
    out.r = popcountReg(below, w, w == 64, out.block);
  }
  return out;
}
