//===- Select.cpp - instruction selection --------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "targets/ucode/MatchToUCode/BackendImpl.h"

using namespace mlir;
using namespace npcc;
using namespace npcc::mub;
using mu::Word;

//===----------------------------------------------------------------------===//
// Constants and copies
//===----------------------------------------------------------------------===//

bool Backend::fieldLanes(unsigned lsb, unsigned width, unsigned &simd,
                         unsigned &lanes) const {
  if (lsb % 16 || width % 16)
    return false;
  unsigned first = lsb / 16, last = (lsb + width) / 16 - 1;
  simd = 0;
  lanes = 0;
  for (unsigned l = first; l <= last; ++l) {
    lanes |= 1u << l;
    if (l < last)
      simd |= 1u << l;
  }
  return true;
}

/// Places the constant `c` of a field at `lsb` into the immediate of `w`.
bool Backend::immediate(uint64_t c, unsigned lsb, unsigned width,
                        Word &w) const {
  uint64_t mask = width == 64 ? ~0ull : ((1ull << width) - 1);
  uint64_t v = (c & mask) << lsb;
  uint64_t span = (width == 64 ? ~0ull : mask << lsb);
  if ((span >> 32) == 0) {
    w.ALU_IMMSEL = mu::IMM_LO;
    w.ALU_IMM = (uint32_t)v;
    return true;
  }
  if ((span & 0xffffffffull) == 0) {
    w.ALU_IMMSEL = mu::IMM_HI;
    w.ALU_IMM = (uint32_t)(v >> 32);
    return true;
  }
  return false;
}

int Backend::constR(uint64_t c) {
  if (c == 0)
    return m.r0();
  auto it = rConsts.find(c);
  if (it != rConsts.end())
    return it->second;
  int r = m.newReg(FR);
  // or r, r0, r0, lo=low ; or r, r, r0, hi=high
  MOp lo = op(UAlu, Machine::Init);
  lo.w.ALU_OP = mu::ALU_OR;
  lo.w.ALU_IMMSEL = mu::IMM_LO;
  lo.w.ALU_IMM = (uint32_t)c;
  lo.regs = {
      {&Word::ALU_RD, r}, {&Word::ALU_RA, m.r0()}, {&Word::ALU_RB, m.r0()}};
  lo.writes = {r};
  place(lo);
  if (c >> 32) {
    MOp hi = op(UAlu, Machine::Init);
    hi.w.ALU_OP = mu::ALU_OR;
    hi.w.ALU_IMMSEL = mu::IMM_HI;
    hi.w.ALU_IMM = (uint32_t)(c >> 32);
    hi.regs = {{&Word::ALU_RD, r}, {&Word::ALU_RA, r}, {&Word::ALU_RB, r}};
    hi.reads = {r};
    hi.writes = {r};
    place(hi);
  }
  rConsts[c] = r;
  return r;
}

int Backend::constT(uint64_t c) {
  if (c == ~0ull)
    return m.t0();
  auto it = tConsts.find(c);
  if (it != tConsts.end())
    return it->second;
  int src = constR(c);
  int t = m.newReg(FT);
  MOp cp = op(UCp, Machine::Init);
  cp.w.CP_OP = mu::CP_TERN;
  cp.regs = {{&Word::CP_SRC, src}, {&Word::CP_TD, t}, {&Word::CP_PRED, m.p0()}};
  cp.reads = {src};
  cp.writes = {t};
  place(cp);
  tConsts[c] = t;
  return t;
}

/// Header values used by the item loop must survive it: the first three
/// header words share registers with item words, so they are copied.
int Backend::stable(int vreg, int block, File f) {
  bool shared = false;
  for (unsigned k = 0; k < 3; ++k)
    shared |= vreg == hdrR[k] || vreg == hdrT[k];
  if (block != Machine::Item || !shared)
    return vreg;
  auto key = std::make_pair(vreg, (int)f);
  auto it = stableCopies.find(key);
  if (it != stableCopies.end())
    return it->second;
  int src = vreg;
  for (unsigned k = 0; k < 3; ++k)
    if (vreg == hdrT[k])
      src = hdrR[k]; // T copies come from the R twin
  int copy = m.newReg(f);
  MOp o = op(f == FR ? UAlu : UCp, Machine::Header);
  if (f == FR) {
    o.w.ALU_OP = mu::ALU_OR;
    o.regs = {{&Word::ALU_RD, copy},
              {&Word::ALU_RA, src},
              {&Word::ALU_RB, m.r0()},
              {&Word::ALU_PRED, m.p0()}};
  } else {
    o.w.CP_OP = mu::CP_TERN;
    o.regs = {
        {&Word::CP_SRC, src}, {&Word::CP_TD, copy}, {&Word::CP_PRED, m.p0()}};
  }
  o.reads = {src};
  o.writes = {copy};
  place(o, 3);
  stableCopies[key] = copy;
  return copy;
}

int Backend::rOf(const IntVal &v, int block, Location loc) {
  if (v.isConst)
    return constR(v.c << v.lsb);
  if (v.r < 0) {
    error(loc, "value is only in the ternary file; the ALU cannot read it");
    return m.r0();
  }
  return stable(v.r, block, FR);
}

int Backend::tOf(const IntVal &v, int block, Location loc) {
  if (v.isConst)
    return constT(v.c << v.lsb);
  if (options.headerTernPerItem && block == Machine::Item &&
      v.block < Machine::Item && v.r >= 0) {
    // Ternary registers are scarce across the items: copy the header value
    // from its ALU register in every item.
    auto key = std::make_pair(v.r, itemBlock);
    auto it = itemTernCopies.find(key);
    if (it != itemTernCopies.end())
      return it->second;
    int src = stable(v.r, block, FR);
    int t = m.newReg(FT);
    MOp cp = op(UCp, Machine::Item);
    cp.w.CP_OP = mu::CP_TERN;
    cp.regs = {
        {&Word::CP_SRC, src}, {&Word::CP_TD, t}, {&Word::CP_PRED, m.p0()}};
    cp.reads = {src};
    cp.writes = {t};
    place(cp);
    itemTernCopies[key] = t;
    return t;
  }
  if (v.t >= 0)
    return stable(v.t, block, FT);
  if (v.r < 0) {
    error(loc, "value has no register");
    return m.t0();
  }
  // Copy the ALU value into the ternary file.
  auto key = std::make_pair(v.r, (int)FT + 16);
  auto it = stableCopies.find(key);
  if (it != stableCopies.end())
    return it->second;
  int src = stable(v.r, block, FR);
  int t = m.newReg(FT);
  MOp cp = op(UCp, v.block);
  cp.w.CP_OP = mu::CP_TERN;
  cp.regs = {{&Word::CP_SRC, src}, {&Word::CP_TD, t}, {&Word::CP_PRED, m.p0()}};
  cp.reads = {src};
  cp.writes = {t};
  place(cp, v.block == Machine::Header ? 3 : 0);
  stableCopies[key] = t;
  if (v.block == Machine::Item)
    itemCopies.push_back(key);
  return t;
}

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
    MOp mov = op(UAlu, out.block);
    mov.w.ALU_OP = mu::ALU_OR;
    mov.w.ALU_PNEG = intoFalse ? c.neg : !c.neg;
    mov.regs = {{&Word::ALU_RD, out.r},
                {&Word::ALU_RA, ro},
                {&Word::ALU_RB, m.r0()},
                {&Word::ALU_PRED, p}};
    mov.reads = {ro, p};
    mov.writes = {out.r};
    place(mov, out.block == Machine::Header ? 3 : 0);
    return out;
  }
  out.r = m.newReg(FR);
  // dst = false value; dst = true value if the condition holds.
  int rb = rOf(b, out.block, loc), ra = rOf(a, out.block, loc);
  MOp first = op(UAlu, out.block);
  first.w.ALU_OP = mu::ALU_OR;
  first.regs = {{&Word::ALU_RD, out.r},
                {&Word::ALU_RA, rb},
                {&Word::ALU_RB, m.r0()},
                {&Word::ALU_PRED, m.p0()}};
  first.reads = {rb};
  first.writes = {out.r};
  place(first, out.block == Machine::Header ? 3 : 0);
  int p = predOf(c, out.block);
  MOp second = op(UAlu, out.block);
  second.w.ALU_OP = mu::ALU_OR;
  second.w.ALU_PNEG = c.neg;
  second.regs = {{&Word::ALU_RD, out.r},
                 {&Word::ALU_RA, ra},
                 {&Word::ALU_RB, m.r0()},
                 {&Word::ALU_PRED, p}};
  second.reads = {ra, p};
  second.writes = {out.r};
  place(second, out.block == Machine::Header ? 3 : 0);
  return out;
}

//===----------------------------------------------------------------------===//
// Integer values
//===----------------------------------------------------------------------===//

IntVal Backend::intVal(Value v) {
  auto it = ints.find(v);
  if (it != ints.end())
    return it->second;
  IntVal out;
  Operation *def = v.getDefiningOp();
  Location loc = def ? def->getLoc() : program.getLoc();
  AtSource source(*this, loc);
  if (auto c = dyn_cast_or_null<arith::ConstantOp>(def)) {
    out = constant(cast<IntegerAttr>(c.getValue()).getValue().getZExtValue(), 0,
                   v.getType().getIntOrFloatBitWidth());
  } else if (auto hw = dyn_cast_or_null<match::HeaderWordOp>(def)) {
    unsigned k = hw.getIndex();
    out.r = hdrR[k];
    out.t = hdrT[k];
    out.block = Machine::Header;
  } else if (auto iw = dyn_cast_or_null<match::ItemWordOp>(def)) {
    unsigned k = iw.getIndex();
    out.r = itemR[k];
    out.t = itemT[k];
    out.block = Machine::Item;
  } else if (auto f = dyn_cast_or_null<match::FieldOp>(def)) {
    out = intVal(f.getWord());
    out.lsb += f.getLsb();
    out.width = f.getWidth();
    out.clean = out.lsb == 0 && out.width == 64;
  } else if (v.getType().isInteger(1) && def &&
             !isa<match::FieldOp, arith::TruncIOp, match::PopcountOp,
                  match::ClzOp, match::CtzOp>(def)) {
    // A condition used as a number (`b as u8`).
    out = boolToInt(boolVal(v), loc);
  } else if (isa_and_nonnull<arith::ExtUIOp, arith::TruncIOp>(def)) {
    IntVal in = intVal(def->getOperand(0));
    unsigned w = v.getType().getIntOrFloatBitWidth();
    if (in.isConst) {
      out = constant(in.c, 0, w);
    } else if (isa<arith::TruncIOp>(def)) {
      // Kept in place: the bits above the narrower field are now garbage.
      out = in;
      out.width = w;
      out.clean = false;
    } else {
      // Zero-extended in place: the bits above the field must be clear.
      if (in.lsb + w > 64)
        in = lowered(in, loc);
      out = cleaned(in, loc);
      out.width = w;
      out.clean = true;
    }
  } else if (auto ext = dyn_cast_or_null<arith::ExtSIOp>(def)) {
    IntVal in = intVal(ext.getIn());
    unsigned w = v.getType().getIntOrFloatBitWidth(), from = in.width;
    if (in.isConst) {
      uint64_t c = in.c;
      if (from < 64 && (c >> (from - 1)) & 1)
        c |= ~0ull << from;
      out = constant(c, 0, w);
    } else {
      // sext(x) = (x ^ S) - S with S the sign bit, on the clean field.
      if (in.lsb + w > 64)
        in = lowered(in, loc);
      IntVal x = cleaned(in, loc);
      IntVal sign = constant(1ull << (from - 1), x.lsb, w);
      IntVal flipped =
          aluBinary(mu::ALU_XOR, x, sign, x.lsb, w, mu::DefaultSimd, loc);
      out =
          aluBinary(mu::ALU_SUB, flipped, sign, x.lsb, w, mu::DefaultSimd, loc);
      out.clean = x.lsb + w == 64;
    }
  } else if (isa_and_nonnull<arith::AndIOp, arith::OrIOp, arith::XOrIOp,
                             arith::AddIOp, arith::SubIOp>(def)) {
    IntVal a = intVal(def->getOperand(0)), b = intVal(def->getOperand(1));
    if (a.isConst && !b.isConst && !isa<arith::SubIOp>(def))
      std::swap(a, b);
    unsigned w = v.getType().getIntOrFloatBitWidth();
    unsigned alu = isa<arith::AndIOp>(def)   ? mu::ALU_AND
                   : isa<arith::OrIOp>(def)  ? mu::ALU_OR
                   : isa<arith::XOrIOp>(def) ? mu::ALU_XOR
                   : isa<arith::AddIOp>(def) ? mu::ALU_ADD
                                             : mu::ALU_SUB;
    align(a, b, loc);
    unsigned lsb = a.isConst ? b.lsb : a.lsb;
    unsigned simd = mu::DefaultSimd, lanes = mu::DefaultLanes;
    bool sum = alu == mu::ALU_ADD || alu == mu::ALU_SUB;
    if (sum && w < 64 && fieldLanes(lsb, w, simd, lanes)) {
      // SIMD segments keep the carries inside the field.
      out = aluBinary(alu, a, b, lsb, w, simd, loc);
    } else if (sum && !(lsb == 0 && w == 64)) {
      // A 64-bit sum of the clean fields: nothing carries into the field
      // from below; the carry out of it lands above, as garbage.
      a = cleaned(a, loc);
      b = cleaned(b, loc);
      out = aluBinary(alu, a, b, lsb, w, mu::DefaultSimd, loc);
    } else {
      out = aluBinary(alu, a, b, lsb, w, mu::DefaultSimd, loc);
      bool ca = a.isConst || a.clean, cb = b.isConst || b.clean;
      out.clean = sum || (alu == mu::ALU_AND ? (ca || cb) : (ca && cb));
    }
  } else if (auto sel = dyn_cast_or_null<arith::SelectOp>(def)) {
    BoolVal c = boolVal(sel.getCondition());
    if (c.isConst)
      return rememberInt(
          v, intVal(c.c ? sel.getTrueValue() : sel.getFalseValue()));
    IntVal a = intVal(sel.getTrueValue()), b = intVal(sel.getFalseValue());
    out = selectInt(sel, c, sel.getTrueValue(), sel.getFalseValue(), a, b, loc);
  } else if (isa_and_nonnull<arith::MinUIOp, arith::MaxUIOp, arith::MinSIOp,
                             arith::MaxSIOp>(def)) {
    // min(a, b) = a < b ? a : b, max(a, b) = a > b ? a : b.
    using P = arith::CmpIPredicate;
    P pred = isa<arith::MinUIOp>(def)   ? P::ult
             : isa<arith::MaxUIOp>(def) ? P::ugt
             : isa<arith::MinSIOp>(def) ? P::slt
                                        : P::sgt;
    mlir::OpBuilder builder(def);
    auto cmp = builder.create<arith::CmpIOp>(loc, pred, def->getOperand(0),
                                             def->getOperand(1));
    BoolVal c = boolVal(cmp);
    IntVal a = intVal(def->getOperand(0)), b = intVal(def->getOperand(1));
    out = selectInt(nullptr, c, def->getOperand(0), def->getOperand(1), a, b,
                    loc);
  } else if (isa_and_nonnull<match::PopcountOp, match::ClzOp, match::CtzOp,
                             match::BswapOp>(def)) {
    out = bitOp(def, loc);
  } else if (def) {
    StringRef name = def->getName().getStringRef();
    if (isa<arith::MulIOp>(def))
      error(loc, "the match unit has no multiplier");
    else if (isa<arith::DivUIOp, arith::DivSIOp, arith::RemUIOp,
                 arith::RemSIOp>(def))
      error(loc, "the match unit has no divider");
    else if (isa<arith::ShLIOp, arith::ShRUIOp, arith::ShRSIOp>(def))
      error(loc, "the match unit has no shifter");
    else
      error(loc, "'" + name + "' has no match-unit instruction");
  } else {
    error(loc, "unsupported value");
  }
  return rememberInt(v, out);
}

//===----------------------------------------------------------------------===//
// Booleans
//===----------------------------------------------------------------------===//

/// The register a boolean lives in, materialising constants through p0.
int Backend::predOf(const BoolVal &b, int block) {
  if (b.isConst)
    return m.p0();
  if (block == Machine::Item && b.block < Machine::Item &&
      options.headerBoolsInAlu)
    return predOf(retestedPerItem(b), block);
  materialize(b);
  return b.p;
}

/// A header condition as the item loop sees it when predicates are
/// scarce: the header keeps it as 0/1 in an ALU register, and every item
/// compares that register with zero. A predicate then lives only from the
/// compare to its last use in the item, an ALU register across the items.
/// The result has `b`'s polarity (`neg` included), so callers fold it as
/// they would fold `b`.
BoolVal Backend::retestedPerItem(const BoolVal &b) {
  auto key = std::make_pair(b.p, itemBlock);
  auto it = retests.find(key);
  if (it != retests.end()) {
    BoolVal out = it->second;
    out.neg = b.neg;
    return out;
  }
  BoolVal positive = b;
  positive.neg = false;
  IntVal bit = boolToInt(positive, program.getLoc());
  int r = stable(bit.r, Machine::Item, FR);
  MOp o = op(UAlu, Machine::Item);
  o.w.ALU_OP = mu::ALU_NE;
  BoolVal out;
  out.block = Machine::Item;
  out.p = m.newReg(FC);
  o.regs = {
      {&Word::ALU_RA, r}, {&Word::ALU_RB, m.r0()}, {&Word::ALU_CMPD, out.p}};
  o.reads = {r};
  o.writes = {out.p};
  out = defer(std::move(o), 0, out.p, Machine::Item);
  retests[key] = out;
  out.neg = b.neg;
  return out;
}

/// ALU compares invert by opcode; ternary ones cannot.
static bool invertAlu(MOp &o) {
  if (o.unit != UAlu)
    return false;
  static const unsigned pairs[][2] = {{mu::ALU_EQ, mu::ALU_NE},
                                      {mu::ALU_LTU, mu::ALU_GEU},
                                      {mu::ALU_LEU, mu::ALU_GTU},
                                      {mu::ALU_LTS, mu::ALU_GES}};
  for (auto &pr : pairs)
    for (int k = 0; k < 2; ++k)
      if (o.w.ALU_OP == pr[k]) {
        o.w.ALU_OP = pr[1 - k];
        return true;
      }
  return false;
}

/// and/or of two compares not placed yet: the second writes the first's
/// predicate with acc=and/or (De Morgan when both are negated), saving a
/// predicate-unit operation and a word.
bool Backend::accumulate(unsigned fn, BoolVal a, BoolVal b, BoolVal &out) {
  if ((fn != 0x8 && fn != 0xe) || !pending(a) || !pending(b) ||
      a.lazy == b.lazy)
    return false;
  // Copies write the joined predicate; the compares themselves stay
  // pending for any other user of their own results.
  MOp oa = lazies[a.lazy].op, ob = lazies[b.lazy].op;
  auto flippable = [](const MOp &o) {
    MOp copy = o;
    return invertAlu(copy);
  };
  bool isAnd = fn == 0x8, negOut;
  // Both positive: acc = fn. Both negated: acc = dual fn, result negated.
  bool pos = (!a.neg || flippable(oa)) && (!b.neg || flippable(ob));
  bool negd = (a.neg || flippable(oa)) && (b.neg || flippable(ob));
  if (pos) {
    if (a.neg)
      invertAlu(oa);
    if (b.neg)
      invertAlu(ob);
    negOut = false;
  } else if (negd) {
    if (!a.neg)
      invertAlu(oa);
    if (!b.neg)
      invertAlu(ob);
    isAnd = !isAnd;
    negOut = true;
  } else {
    return false;
  }
  // ALU before ternary: both may then share a word.
  bool aFirst = !(oa.unit == UTern && ob.unit == UAlu);
  MOp &first = aFirst ? oa : ob, &second = aFirst ? ob : oa;
  int firstMin = lazies[aFirst ? a.lazy : b.lazy].minWord;
  int secondMin = lazies[aFirst ? b.lazy : a.lazy].minWord;
  int firstOld = aFirst ? a.p : b.p, secondOld = aFirst ? b.p : a.p;
  int p = m.newReg(FC);
  for (RegField &f : first.regs)
    if (f.vreg == firstOld)
      f.vreg = p;
  for (RegField &f : second.regs)
    if (f.vreg == secondOld)
      f.vreg = p;
  first.writes = {p};
  second.writes = {p};
  second.reads.push_back(p);
  second.accumulates = true;
  unsigned acc = isAnd ? mu::ACC_AND : mu::ACC_OR;
  if (second.unit == UAlu)
    second.w.ALU_ACC = acc;
  else
    second.w.TERN_ACC = acc;
  place(first, firstMin);
  place(second, secondMin);
  out = BoolVal();
  out.p = p;
  out.neg = negOut;
  out.block = std::max(a.block, b.block);
  return true;
}

BoolVal Backend::logic(unsigned fn, BoolVal a, BoolVal b, int block) {
  // Outside the selection of a value (joins of checks), the operation
  // belongs to the check it adds.
  int source = b.source >= 0 ? b.source : a.source;
  AtSource at(*this, current == program.getLoc() && source >= 0
                         ? origins[source]
                         : current);
  if (options.headerBoolsInAlu &&
      std::max({a.block, b.block, block}) == Machine::Item) {
    // Tested again per item, a header condition may join an item compare
    // by accumulation.
    if (!a.isConst && a.block < Machine::Item)
      a = retestedPerItem(a);
    if (!b.isConst && b.block < Machine::Item)
      b = retestedPerItem(b);
  }
  BoolVal acc;
  if (accumulate(fn, a, b, acc))
    return acc;
  // Fold negations into the truth table: f(a', b') with a' = a ^ na.
  auto flipA = [](unsigned f) { return ((f >> 2) & 3) | ((f & 3) << 2); };
  auto flipB = [](unsigned f) { return ((f & 0x5) << 1) | ((f & 0xa) >> 1); };
  if (a.isConst) { // a is p0 (true); make it true by negation
    if (!a.c)
      fn = flipA(fn);
  } else if (a.neg) {
    fn = flipA(fn);
  }
  if (b.isConst) {
    if (!b.c)
      fn = flipB(fn);
  } else if (b.neg) {
    fn = flipB(fn);
  }
  BoolVal out;
  out.block = std::max(std::max(a.block, b.block), block);
  if (out.block == Machine::Init)
    out.block = Machine::Header;
  out.p = m.newReg(FP);
  int pa = predOf(a, out.block), pb = predOf(b, out.block);
  MOp o = op(UPred, out.block);
  o.w.PRED_FN0 = fn; // moved to unit 1 at emission if needed
  o.regs = {
      {&Word::PRED_DST0, out.p}, {&Word::PRED_A0, pa}, {&Word::PRED_B0, pb}};
  o.reads = {pa, pb};
  o.writes = {out.p};
  place(o, out.block == Machine::Header ? 3 : 0);
  return out;
}

BoolVal Backend::ternaryEq(const IntVal &a, const IntVal &b, const IntVal *mask,
                           Location loc) {
  BoolVal out;
  out.block = std::max(a.block, b.block);
  if (mask)
    out.block = std::max(out.block, mask->block);
  if (out.block == Machine::Init)
    out.block = Machine::Header;
  MOp o = op(UTern, out.block);
  o.w.TERN_OP = mu::TERN_EQ;
  int ta = tOf(a, out.block, loc);
  unsigned fsimd, flanes;
  uint64_t fieldOnes = a.width == 64 ? ~0ull : (1ull << a.width) - 1;
  // A constant of all ones within lane-selected bits is t0 itself.
  int tb = !mask && b.isConst && (b.c & fieldOnes) == fieldOnes &&
                   fieldLanes(a.lsb, a.width, fsimd, flanes)
               ? m.t0()
               : tOf(b, out.block, loc);
  int tm;
  unsigned simd, lanes;
  if (mask) {
    // A mask that is a field: only its own bits may select.
    IntVal mk = mask->isConst ? *mask : cleaned(*mask, loc);
    tm = tOf(mk, out.block, loc);
    o.w.TERN_SIMD = mu::DefaultSimd;
    o.w.TERN_LANES = mu::DefaultLanes;
  } else if (fieldLanes(a.lsb, a.width, simd, lanes)) {
    tm = m.t0();
    o.w.TERN_SIMD = simd;
    o.w.TERN_LANES = lanes;
  } else {
    uint64_t bits = a.width == 64 ? ~0ull : ((1ull << a.width) - 1) << a.lsb;
    tm = constT(bits);
    o.w.TERN_SIMD = mu::DefaultSimd;
    o.w.TERN_LANES = mu::DefaultLanes;
  }
  out.p = m.newReg(FC);
  o.regs = {{&Word::TERN_TA, ta}, {&Word::TERN_TB, tb}, {&Word::TERN_TM, tm}};
  o.reads = {ta, tb, tm};
  o.writes = {out.p};
  o.regs.push_back({&Word::TERN_CMPD, out.p});
  return defer(std::move(o), out.block == Machine::Header ? 3 : 0, out.p,
               out.block);
}

BoolVal Backend::aluCompare(unsigned aluOp, const IntVal &a0, const IntVal &b0,
                            Location loc) {
  IntVal a = a0, b = b0;
  align(a, b, loc);
  BoolVal out;
  out.block = std::max(a.block, b.block);
  if (out.block == Machine::Init)
    out.block = Machine::Header;
  unsigned lsb = a.isConst ? b.lsb : a.lsb, width = a.width;
  unsigned simd = mu::DefaultSimd, lanes = mu::DefaultLanes;
  bool ordered = aluOp != mu::ALU_EQ && aluOp != mu::ALU_NE;
  if (!(lsb == 0 && width == 64) && !fieldLanes(lsb, width, simd, lanes)) {
    // Off the lanes: compare the clean fields as 64-bit numbers (the bits
    // below and above are zero in both); a signed order is the unsigned
    // order with the sign bits flipped.
    a = cleaned(a, loc);
    b = cleaned(b, loc);
    if (aluOp == mu::ALU_LTS || aluOp == mu::ALU_GES) {
      IntVal sign = constant(1ull << (width - 1), lsb, width);
      if (a.isConst)
        a.c ^= sign.c;
      else
        a = aluBinary(mu::ALU_XOR, a, sign, lsb, width, mu::DefaultSimd, loc);
      if (b.isConst)
        b.c ^= sign.c;
      else
        b = aluBinary(mu::ALU_XOR, b, sign, lsb, width, mu::DefaultSimd, loc);
      aluOp = aluOp == mu::ALU_LTS ? mu::ALU_LTU : mu::ALU_GEU;
    }
    (void)ordered;
    simd = mu::DefaultSimd;
    lanes = mu::DefaultLanes;
  } else if (lsb == 0 && width == 64) {
    simd = mu::DefaultSimd;
    lanes = mu::DefaultLanes;
  }
  MOp o = op(UAlu, out.block);
  o.w.ALU_OP = aluOp;
  o.w.ALU_SIMD = simd;
  o.w.ALU_LANES = lanes;
  IntVal aa = a, bb = b;
  aa.lsb = bb.lsb = lsb;
  int ra = rOf(aa, out.block, loc);
  int rb = m.r0();
  if (!(bb.isConst && immediate(bb.c, lsb, width, o.w)))
    rb = rOf(bb, out.block, loc);
  out.p = m.newReg(FC);
  o.regs = {{&Word::ALU_RA, ra}, {&Word::ALU_RB, rb}, {&Word::ALU_CMPD, out.p}};
  o.reads = {ra, rb};
  o.writes = {out.p};
  return defer(std::move(o), out.block == Machine::Header ? 3 : 0, out.p,
               out.block);
}

/// `pred` for swapped operands: `b swapped(pred) a` exactly when `a pred b`.
static arith::CmpIPredicate swapped(arith::CmpIPredicate pred) {
  using P = arith::CmpIPredicate;
  static const std::pair<P, P> mirrors[] = {
      {P::ult, P::ugt}, {P::ule, P::uge}, {P::slt, P::sgt}, {P::sle, P::sge}};
  for (auto [a, b] : mirrors) {
    if (pred == a)
      return b;
    if (pred == b)
      return a;
  }
  return pred; // eq and ne are symmetric
}

BoolVal Backend::compare(arith::CmpIOp cmp) {
  using P = arith::CmpIPredicate;
  P pred = cmp.getPredicate();
  Value lhs = cmp.getLhs(), rhs = cmp.getRhs();
  Location loc = cmp.getLoc();
  if (isConstant(lhs) && !isConstant(rhs)) {
    std::swap(lhs, rhs);
    pred = swapped(pred);
  }
  if (pred == P::eq || pred == P::ne) {
    bool ne = pred == P::ne;
    // ((x ^ y) & m) == 0 and (x & K) == 0: equality under a mask. The
    // operands are only selected once the pattern is known, so that the
    // xor and the and are never computed.
    if (isConstant(rhs) && constantOf(rhs) == 0) {
      if (auto andOp = lhs.getDefiningOp<arith::AndIOp>()) {
        Value x = andOp.getLhs(), k = andOp.getRhs();
        if (isConstant(x))
          std::swap(x, k);
        auto xorOp = x.getDefiningOp<arith::XOrIOp>();
        if (xorOp && !isConstant(k) && !isConstant(xorOp.getLhs()) &&
            !isConstant(xorOp.getRhs())) {
          IntVal p = intVal(xorOp.getLhs()), q = intVal(xorOp.getRhs());
          IntVal kv = intVal(k);
          if (p.lsb == q.lsb && kv.lsb == p.lsb) {
            BoolVal eq = ternaryEq(p, q, &kv, loc);
            return ne ? notOf(eq) : eq;
          }
        }
        IntVal kv = intVal(k), xv = intVal(x);
        if (kv.isConst && !xv.isConst) {
          IntVal zero;
          zero.isConst = true;
          zero.c = 0;
          zero.lsb = xv.lsb;
          IntVal mask = kv;
          mask.lsb = xv.lsb;
          BoolVal eq = ternaryEq(xv, zero, &mask, loc);
          return ne ? notOf(eq) : eq;
        }
      }
    }
    IntVal a = intVal(lhs), b = intVal(rhs);
    if (!a.isConst && !b.isConst) {
      align(a, b, loc);
      // Both units compare lane-aligned fields; take the one free first.
      unsigned fs, fl;
      if (a.r >= 0 && b.r >= 0 && fieldLanes(a.lsb, a.width, fs, fl)) {
        int block = std::max({a.block, b.block, (int)Machine::Header});
        int minWord = block == Machine::Header ? 3 : 0;
        MOp ta = op(UTern, block), al = op(UAlu, block);
        ta.reads = {stable(a.t >= 0 ? a.t : a.r, block, FT),
                    stable(b.t >= 0 ? b.t : b.r, block, FT)};
        al.reads = {stable(a.r, block, FR), stable(b.r, block, FR)};
        if (m.wouldPlaceAt(al, minWord) < m.wouldPlaceAt(ta, minWord))
          return aluCompare(ne ? mu::ALU_NE : mu::ALU_EQ, a, b, loc);
      }
      BoolVal eq = ternaryEq(a, b, nullptr, loc);
      return ne ? notOf(eq) : eq;
    }
    Word probe;
    unsigned simd = mu::DefaultSimd, lanes = mu::DefaultLanes;
    // Values that are in the ternary file anyway (item words) can compare
    // there or in the ALU: take the unit free earlier.
    bool aluOk = b.isConst && immediate(b.c, a.lsb, a.width, probe) &&
                 (fieldLanes(a.lsb, a.width, simd, lanes) ||
                  (a.lsb == 0 && a.width == 64)) &&
                 a.r >= 0;
    bool ternOk =
        b.isConst && a.t >= 0 && fieldLanes(a.lsb, a.width, simd, lanes);
    if (aluOk && ternOk) {
      int block = std::max(a.block, (int)Machine::Header);
      int minWord = block == Machine::Header ? 3 : 0;
      MOp ta = op(UTern, block), al = op(UAlu, block);
      ta.reads = {stable(a.t, block, FT)};
      al.reads = {stable(a.r, block, FR)};
      aluOk = m.wouldPlaceAt(al, minWord) <= m.wouldPlaceAt(ta, minWord);
    }
    if (aluOk)
      return aluCompare(ne ? mu::ALU_NE : mu::ALU_EQ, a, b, loc);
    b.lsb = a.lsb;
    BoolVal eq = ternaryEq(a, b, nullptr, loc);
    return ne ? notOf(eq) : eq;
  }
  IntVal a = intVal(lhs), b = intVal(rhs);
  unsigned op = pred == P::ult   ? mu::ALU_LTU
                : pred == P::ule ? mu::ALU_LEU
                : pred == P::ugt ? mu::ALU_GTU
                : pred == P::uge ? mu::ALU_GEU
                : pred == P::slt ? mu::ALU_LTS
                                 : mu::ALU_GES; // sge
  if (pred == P::sle || pred == P::sgt) {
    // a <= b is !(a > b) = !(b < a): swap operands of lts.
    if (a.isConst) {
      // c <= b is !(b < c); c > b is b < c.
      BoolVal lt = aluCompare(mu::ALU_LTS, b, a, loc);
      return pred == P::sle ? notOf(lt) : lt;
    }
    BoolVal lt = aluCompare(mu::ALU_LTS, b, a, loc);
    return pred == P::sle ? notOf(lt) : lt;
  }
  return aluCompare(op, a, b, loc);
}

BoolVal Backend::boolVal(Value v) {
  auto it = bools.find(v);
  if (it != bools.end())
    return it->second;
  BoolVal out;
  Operation *def = v.getDefiningOp();
  Location loc = def ? def->getLoc() : program.getLoc();
  AtSource source(*this, loc);
  if (auto c = dyn_cast_or_null<arith::ConstantOp>(def)) {
    out.isConst = true;
    out.c = cast<IntegerAttr>(c.getValue()).getValue().getBoolValue();
  } else if (isa_and_nonnull<match::FieldOp, arith::TruncIOp, match::PopcountOp,
                             match::ClzOp, match::CtzOp>(def)) {
    // A bool field, a number cast to u1, or a count of one bit: its bit is
    // set.
    IntVal x = intVal(v);
    IntVal zero = constant(0, x.lsb, 1), bit = constant(1, x.lsb, 1);
    out = notOf(ternaryEq(x, zero, &bit, loc));
    if (out.block == Machine::Header && !out.isConst)
      out = logic(0xc, out, out, Machine::Header);
  } else if (auto cmp = dyn_cast_or_null<arith::CmpIOp>(def)) {
    out = compare(cmp);
    // A header condition lives through the item loop: keep it in the
    // predicate unit's file, where the eight compare targets are not
    // needed per item.
    if (out.block == Machine::Header && !out.isConst)
      out = logic(0xc, out, out, Machine::Header);
  } else if (isa_and_nonnull<arith::XOrIOp, arith::AddIOp, arith::SubIOp>(
                 def)) {
    // On u1, + and - are arithmetic modulo 2: exclusive or.
    BoolVal a = boolVal(def->getOperand(0)), b = boolVal(def->getOperand(1));
    if (b.isConst)
      out = b.c ? notOf(a) : a;
    else if (a.isConst)
      out = a.c ? notOf(b) : b;
    else
      out = logic(0x6, a, b, Machine::Header);
  } else if (isa_and_nonnull<arith::AndIOp, arith::OrIOp, arith::MulIOp>(def)) {
    // On u1, * is and.
    bool isAnd = !isa<arith::OrIOp>(def);
    // A constant operand that decides the result spares the other one.
    BoolVal a = boolVal(def->getOperand(0));
    if (a.isConst && a.c != isAnd)
      return rememberBool(v, a);
    BoolVal b = boolVal(def->getOperand(1));
    if (a.isConst)
      std::swap(a, b);
    if (b.isConst)
      out = isAnd ? (b.c ? a : b) : (b.c ? b : a);
    else
      out = logic(isAnd ? 0x8 : 0xe, a, b, Machine::Header);
  } else if (auto sel = dyn_cast_or_null<arith::SelectOp>(def)) {
    BoolVal c = boolVal(sel.getCondition());
    BoolVal t = boolVal(sel.getTrueValue()), f = boolVal(sel.getFalseValue());
    BoolVal ct = logic(0x8, c, t, Machine::Header);
    BoolVal cf = logic(0x8, notOf(c), f, Machine::Header);
    out = logic(0xe, ct, cf, Machine::Header);
  } else {
    error(loc, "unsupported condition");
    out.isConst = true;
  }
  (void)loc;
  return rememberBool(v, out);
}
