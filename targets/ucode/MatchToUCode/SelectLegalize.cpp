//===- SelectLegalize.cpp - values off the lanes --------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The match unit computes on 16-bit lanes and has no shifter: a field at any
// other position or width is masked, moved up by additions that double and
// moved down by byte permutes before it is combined; booleans become 0/1
// and selects predicated moves.
//
//===----------------------------------------------------------------------===//

#include "targets/ucode/MatchToUCode/BackendImpl.h"

using namespace mlir;
using namespace npcc;
using namespace npcc::mub;
using mu::Word;

//===----------------------------------------------------------------------===//
// Legalization: values off the lanes, without a shifter
//===----------------------------------------------------------------------===//

static int blockOf(const IntVal &a, const IntVal &b) {
  int block = std::max(a.block, b.block);
  return block == Machine::Init ? Machine::Header : block;
}

/// rd = a OP b with both operands placed at `lsb`; a constant b becomes the
/// immediate when its bits fit one half of it.
IntVal Backend::aluBinary(unsigned aluOp, const IntVal &a, const IntVal &b,
                          unsigned lsb, unsigned width, unsigned simd,
                          Location loc) {
  if (a.isConst && b.isConst && simd == mu::DefaultSimd) {
    uint64_t x = a.c, y = b.c;
    uint64_t r = aluOp == mu::ALU_AND   ? x & y
                 : aluOp == mu::ALU_OR  ? x | y
                 : aluOp == mu::ALU_XOR ? x ^ y
                 : aluOp == mu::ALU_ADD ? x + y
                                        : x - y;
    return constant(r, lsb, width);
  }
  IntVal out;
  out.lsb = lsb;
  out.width = width;
  out.block = blockOf(a, b);
  MOp o = op(UAlu, out.block);
  o.w.ALU_OP = aluOp;
  IntVal aa = a, bb = b;
  aa.lsb = bb.lsb = lsb;
  int ra = rOf(aa, out.block, loc);
  int rb = m.r0();
  if (!(bb.isConst && immediate(bb.c, lsb, bb.width, o.w)))
    rb = rOf(bb, out.block, loc);
  o.w.ALU_SIMD = simd;
  out.r = m.newReg(FR);
  o.regs = {{&Word::ALU_RD, out.r},
            {&Word::ALU_RA, ra},
            {&Word::ALU_RB, rb},
            {&Word::ALU_PRED, m.p0()}};
  o.reads = {ra, rb};
  o.writes = {out.r};
  place(o, out.block == Machine::Header ? 3 : 0);
  return out;
}

/// The value with every bit outside its field cleared.
IntVal Backend::cleaned(const IntVal &v, Location loc) {
  if (v.isConst || v.clean || (v.lsb == 0 && v.width == 64))
    return v;
  auto key = std::make_tuple(0, v.r, v.lsb, v.width, itemBlock);
  auto it = legalCache.find(key);
  if (it != legalCache.end())
    return it->second;
  IntVal out = aluBinary(mu::ALU_AND, v, constant(~0ull, v.lsb, v.width), v.lsb,
                         v.width, mu::DefaultSimd, loc);
  out.clean = true;
  legalCache[key] = out;
  return out;
}

/// The value moved up by `k` bits: k additions of the register to itself.
IntVal Backend::shiftedUp(const IntVal &v, unsigned k, Location loc) {
  if (v.isConst || k == 0) {
    IntVal c = v;
    c.lsb += k;
    return c;
  }
  if (v.lsb + k + v.width > 64) {
    error(loc, "a field would leave the 64-bit word when moved to another "
               "bit position; the match unit has no shifter");
    return v;
  }
  auto key = std::make_tuple(1, v.r, v.lsb, k, itemBlock);
  auto it = legalCache.find(key);
  if (it != legalCache.end()) {
    IntVal out = it->second;
    out.width = v.width;
    out.clean = false;
    return out;
  }
  IntVal x = v;
  for (unsigned i = 0; i < k; ++i) {
    x = aluBinary(mu::ALU_ADD, x, x, x.lsb, x.width, mu::DefaultSimd, loc);
    x.lsb = v.lsb + i + 1;
  }
  x.width = v.width;
  x.clean = false;
  legalCache[key] = x;
  return x;
}

/// Bytes `bytes`.. of the register of `x` moved down to byte 0, the bytes
/// above zeroed (`alu.perm`). The result describes the register: the caller
/// sets where its field lies.
static void permDown(MOp &o, unsigned bytes) {
  setPerm(o, [&](unsigned j) { return (int)(j + bytes); });
}

/// The value moved down to bit 0: up to the next byte boundary by
/// doubling, then a byte permute that zeroes the bytes above. A field too
/// wide to move up first is moved in two parts: the bytes above its first
/// byte, and that byte on its own.
IntVal Backend::lowered(const IntVal &v, Location loc) {
  if (v.lsb == 0)
    return v;
  if (v.isConst) {
    IntVal c = v;
    c.lsb = 0;
    return c;
  }
  auto key = std::make_tuple(2, v.r, v.lsb, v.width, itemBlock);
  auto it = legalCache.find(key);
  if (it != legalCache.end())
    return it->second;
  auto perm = [&](const IntVal &x, unsigned bytes) {
    IntVal out;
    out.block = blockOf(x, x);
    MOp o = op(UAlu, out.block);
    permDown(o, bytes);
    int ra = rOf(x, out.block, loc);
    out.r = m.newReg(FR);
    o.regs = {{&Word::ALU_RD, out.r},
              {&Word::ALU_RA, ra},
              {&Word::ALU_RB, m.r0()},
              {&Word::ALU_PRED, m.p0()}};
    o.reads = {ra};
    o.writes = {out.r};
    place(o, out.block == Machine::Header ? 3 : 0);
    return out;
  };
  IntVal out;
  unsigned s = v.lsb % 8;
  if (s == 0 || v.lsb + (8 - s) + v.width <= 64) {
    IntVal x = s ? shiftedUp(v, 8 - s, loc) : v;
    out = perm(x, x.lsb / 8);
    out.lsb = 0;
    out.width = v.width;
    // Above the field only the zeroed bytes remain when it ended at bit 63.
    out.clean = x.lsb + x.width == 64;
  } else {
    // The field ends too close to bit 63 to move up to a byte boundary:
    // with b its first byte, X >> lsb = ((X >> 8(b+1)) << (8 - s)) |
    // (((byte b of X) << (8 - s)) >> 8), on the clean field X.
    unsigned b = v.lsb / 8;
    IntVal x = cleaned(v, loc);
    IntVal hi = perm(x, b + 1);
    hi.lsb = 0;
    hi.width = v.width - (8 - s);
    hi = shiftedUp(hi, 8 - s, loc);
    IntVal lo = b ? perm(x, b) : x;
    lo = aluBinary(mu::ALU_AND, lo, constant(0xff, 0, 8), 0, 8, mu::DefaultSimd,
                   loc);
    lo = shiftedUp(lo, 8 - s, loc);
    lo = perm(lo, 1);
    lo.lsb = 0;
    lo.width = 8 - s;
    hi.lsb = 0;
    hi.width = v.width;
    out = aluBinary(mu::ALU_OR, hi, lo, 0, v.width, mu::DefaultSimd, loc);
    out.clean = true;
  }
  legalCache[key] = out;
  return out;
}

/// Two operands at the same bit position: the lower one moves up.
void Backend::align(IntVal &a, IntVal &b, Location loc) {
  if (a.isConst && b.isConst) {
    a.lsb = b.lsb = 0;
    return;
  }
  if (a.isConst) {
    a.lsb = b.lsb;
    return;
  }
  if (b.isConst) {
    b.lsb = a.lsb;
    return;
  }
  if (a.lsb < b.lsb)
    a = shiftedUp(a, b.lsb - a.lsb, loc);
  else if (b.lsb < a.lsb)
    b = shiftedUp(b, a.lsb - b.lsb, loc);
}

/// A condition as the integer 0 or 1.
IntVal Backend::boolToInt(const BoolVal &b, Location loc) {
  if (b.isConst)
    return constant(b.c ? 1 : 0, 0, 1);
  IntVal out;
  out.block = b.block == Machine::Init ? Machine::Header : b.block;
  if (out.block == Machine::Item)
    out.block = Machine::Item;
  out.lsb = 0;
  out.width = 1;
  out.clean = true;
  out.r = m.newReg(FR);
  MOp zero = op(UAlu, out.block);
  zero.w.ALU_OP = mu::ALU_OR;
  zero.regs = {{&Word::ALU_RD, out.r},
               {&Word::ALU_RA, m.r0()},
               {&Word::ALU_RB, m.r0()},
               {&Word::ALU_PRED, m.p0()}};
  zero.writes = {out.r};
  place(zero, out.block == Machine::Header ? 3 : 0);
  int p = predOf(b, out.block);
  MOp one = op(UAlu, out.block);
  one.w.ALU_OP = mu::ALU_OR;
  one.w.ALU_IMMSEL = mu::IMM_LO;
  one.w.ALU_IMM = 1;
  one.w.ALU_PNEG = b.neg;
  one.regs = {{&Word::ALU_RD, out.r},
              {&Word::ALU_RA, m.r0()},
              {&Word::ALU_RB, m.r0()},
              {&Word::ALU_PRED, p}};
  one.reads = {out.r, p};
  one.writes = {out.r};
  place(one, out.block == Machine::Header ? 3 : 0);
  (void)loc;
  return out;
}

/// dst = c ? a : b by predicated moves. When an operand dies here and lives
/// in a temporary of this block, the select overwrites it under the
/// (possibly inverted) condition: one operation.
IntVal Backend::selectInt(Operation *selOp, BoolVal c, Value tv, Value fv,
                          IntVal a, IntVal b, Location loc) {
  IntVal out;
  unsigned width = tv.getType().getIntOrFloatBitWidth();
  align(a, b, loc);
  out.lsb = a.isConst ? b.lsb : a.lsb;
  out.width = width;
  out.clean = (a.isConst || a.clean) && (b.isConst || b.clean);
  a.lsb = b.lsb = out.lsb;
  out.block = std::max(std::max(a.block, b.block), c.block);
  if (out.block == Machine::Init)
    out.block = Machine::Header;
  // out.r = ra (an OR with r0) where predicate p, inverted by pneg, holds.
  auto moveIf = [&](int ra, int p, bool pneg, std::vector<int> reads) {
    MOp mov = op(UAlu, out.block);
    mov.w.ALU_OP = mu::ALU_OR;
    mov.w.ALU_PNEG = pneg;
    mov.regs = {{&Word::ALU_RD, out.r},
                {&Word::ALU_RA, ra},
                {&Word::ALU_RB, m.r0()},
                {&Word::ALU_PRED, p}};
    mov.reads = std::move(reads);
    mov.writes = {out.r};
    place(mov, out.block == Machine::Header ? 3 : 0);
  };
  auto reusable = [&](Value v, const IntVal &iv) {
    if (!selOp || iv.isConst || iv.r < 0 || iv.block != out.block)
      return false;
    // A value moved or cleaned here is a temporary of its own.
    if (ints.count(v) && ints[v].r != iv.r)
      return false;
    // Every other user must already be selected (placed earlier), so
    // this select is the last reader of the register.
    auto allSelected = [&](Value w) {
      for (Operation *user : w.getUsers())
        if (user != selOp &&
            !(user->getNumResults() == 1 && (ints.count(user->getResult(0)) ||
                                             bools.count(user->getResult(0)))))
          return false;
      return true;
    };
    if (!allSelected(v))
      return false;
    // So must the users of every other value in the register: a bool's 0/1
    // serves each of its zero-extensions (seed 440280: `(b as u32)` in a
    // max overwrote the `(b as u64)` an answer read later).
    for (auto &entry : ints)
      if (entry.first != v && !entry.second.isConst && entry.second.r == iv.r &&
          !allSelected(entry.first))
        return false;
    if (m.regs()[iv.r].phys >= 0)
      return false;
    for (unsigned k = 0; k < kWords; ++k)
      if (iv.r == hdrR[k] || iv.r == itemR[k])
        return false;
    // Legalized copies are cached by their source register, which must
    // keep its value.
    for (auto &entry : legalCache)
      if (entry.second.r == iv.r || std::get<1>(entry.first) == iv.r)
        return false;
    return true;
  };
  if (reusable(fv, b) || reusable(tv, a)) {
    bool intoFalse = reusable(fv, b);
    const IntVal &keep = intoFalse ? b : a, &other = intoFalse ? a : b;
    int p = predOf(c, out.block);
    int ro = rOf(other, out.block, loc);
    out.r = keep.r;
    // Compares still to be placed that read the register must read it
    // before it is overwritten: place them now.
    for (Lazy &l : lazies)
      if (!l.done && std::find(l.op.reads.begin(), l.op.reads.end(), keep.r) !=
                         l.op.reads.end()) {
        l.done = true;
        place(l.op, l.minWord);
      }
    moveIf(ro, p, intoFalse ? c.neg : !c.neg, {ro, p});
    return out;
  }
  out.r = m.newReg(FR);
  // dst = false value; dst = true value if the condition holds.
  int rb = rOf(b, out.block, loc), ra = rOf(a, out.block, loc);
  moveIf(rb, m.p0(), false, {rb});
  int p = predOf(c, out.block);
  moveIf(ra, p, c.neg, {ra, p});
  return out;
}
