//===- Select.cpp - instruction selection of integer values --------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Constants, the copies that keep header values alive across the item
// loop, and integer values (`intVal`). Legalization of values off the
// lanes is in SelectLegalize.cpp, conditions in SelectBool.cpp, bit
// counts and byte swaps in SelectBits.cpp.
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
// Integer values
//===----------------------------------------------------------------------===//

IntVal Backend::newIntVal(Value v, Operation *def, Location loc) {
  IntVal out;
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
