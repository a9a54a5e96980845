//===- SelectBool.cpp - selection of conditions ---------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Booleans live in predicate registers: compares (ALU and ternary), and/or
// folded into compare accumulation where it saves a word, and a header
// condition retested per item when predicates are scarce.
//
//===----------------------------------------------------------------------===//

#include "targets/ucode/MatchToUCode/BackendImpl.h"

using namespace mlir;
using namespace npcc;
using namespace npcc::mub;
using mu::Word;

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

BoolVal Backend::newBoolVal(Value v, Operation *def, Location loc) {
  BoolVal out;
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
