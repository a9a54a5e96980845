//===- MachineStep.h - execute one pre-decoded wide word --------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The semantics of one wide word, written once and generic over the value
// domain: `executeWord<D>` computes every slot from the state the previous
// word left, then applies the writes in the documented order: input unit,
// copy unit, ALU, ternary unit, predicate unit; compare predicates combine
// ALU, then ternary, then the input unit's END flag. `advanceControl` is the
// PC and delay-slot rule. musim instantiates them with `ConcreteDomain`
// (uint64_t words, 0/1 predicates) in its hot loop (Issue.h), one copy per
// set of slots a word can use; the translation validator
// (targets/ucode/Validate) with Z3 bit-vector terms and every slot decided
// at run time, so the solver reasons about exactly the code musim runs.
//
// A domain D provides the types W (a 64-bit word) and B (a predicate) and
// the operations used below: constants c()/b(), wrapping add/sub, bitwise
// band/bor/bxor/bnot, shifts by a constant, isZero, ult/ule, land/lor/lnot,
// guard(p, neg) (p, inverted when neg), table4(f, a, b) (bit a*2+b of the
// 4-bit table f), selW/selB (if-then-else) and assignIf(c, dst, v)
// (dst = v when c holds).
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_RUNTIME_MUSIM_MACHINESTEP_H
#define NPCC_RUNTIME_MUSIM_MACHINESTEP_H

#include "runtime/musim/Program.h"

#include <type_traits>

// The hot loop relies on one word's execution being inlined into it.
#if defined(__GNUC__)
#define NPCC_MUSIM_ALWAYS_INLINE __attribute__((always_inline))
#else
#define NPCC_MUSIM_ALWAYS_INLINE
#endif

namespace npcc::musim {

/// musim's domain: plain machine integers.
struct ConcreteDomain {
  using W = uint64_t;
  using B = uint8_t;
  static W c(uint64_t v) { return v; }
  static B b(bool v) { return v; }
  static W add(W a, W b) { return a + b; }
  static W sub(W a, W b) { return a - b; }
  static W band(W a, W b) { return a & b; }
  static W bor(W a, W b) { return a | b; }
  static W bxor(W a, W b) { return a ^ b; }
  static W bnot(W a) { return ~a; }
  static W lshr(W a, unsigned k) { return a >> k; }
  static W shl(W a, unsigned k) { return a << k; }
  static B isZero(W a) { return a == 0; }
  static B ult(W a, W b) { return a < b; }
  static B ule(W a, W b) { return a <= b; }
  static B land(B a, B b) { return a & b; }
  static B lor(B a, B b) { return a | b; }
  static B lnot(B a) { return !a; }
  static B guard(B p, bool neg) { return p ^ neg; }
  static B table4(unsigned f, B a, B b) { return f >> (a * 2 + b) & 1; }
  static void assignIf(B c, W &dst, W v) {
    if (c)
      dst = v;
  }
  static W selW(B c, W a, W b) { return c ? a : b; }
  static B selB(B c, B a, B b) { return c ? a : b; }
};

/// What one word computed, besides its writes to the register files.
template <class D> struct WordEffect {
  explicit WordEffect(D &d)
      : cpDo(d.b(false)), cpVal(d.c(0)), aluWrite(d.b(false)), aluVal(d.c(0)),
        aluCmp(d.b(false)), ternCmp(d.b(false)), pred0(d.b(false)),
        pred1(d.b(false)), taken(d.b(false)) {}
  typename D::B cpDo;  // the copy unit's guard held
  typename D::W cpVal; // the register it copies
  typename D::B aluWrite;
  typename D::W aluVal;
  typename D::B aluCmp, ternCmp; // after accumulation
  typename D::B pred0, pred1;
  typename D::B taken; // the branch condition (br/brn only)
};

namespace detail {

constexpr uint64_t kTopBit = 1ull << 63;

template <class D>
inline typename D::B accumulate(D &d, typename D::B old, typename D::B r,
                                uint8_t acc) {
  return acc == mu::ACC_SET   ? r
         : acc == mu::ACC_AND ? d.land(old, r)
                              : d.lor(old, r);
}

/// The AND over the selected segments of one ALU compare; `Class` as in
/// MicroOp::aluClass, or 0 to read the operation.
template <class D, unsigned Class = 0>
NPCC_MUSIM_ALWAYS_INLINE inline typename D::B
compare(D &d, const MicroOp &o, typename D::W a, typename D::W b) {
  if (Class == ALU_CLASS_EQ || (Class == 0 && o.aluOp == mu::ALU_EQ))
    return d.isZero(d.band(d.bxor(a, b), d.c(o.cmpMask)));
  typename D::B all = d.b(true);
  for (unsigned i = 0; i < o.aluSegs; ++i) {
    const Segment &s = o.aluSeg[i];
    typename D::W x = d.band(d.lshr(a, s.shift), d.c(s.mask));
    typename D::W y = d.band(d.lshr(b, s.shift), d.c(s.mask));
    auto segment = [&]() -> typename D::B {
      switch (o.aluOp) {
      case mu::ALU_NE:
        return d.lnot(d.isZero(d.bxor(x, y)));
      case mu::ALU_LTU:
        return d.ult(x, y);
      case mu::ALU_LEU:
        return d.ule(x, y);
      case mu::ALU_GTU:
        return d.ult(y, x);
      case mu::ALU_GEU:
        return d.ule(y, x);
      case mu::ALU_LTS:
        return d.ult(d.bxor(x, d.c(s.sign)), d.bxor(y, d.c(s.sign)));
      default: // ALU_GES
        return d.ule(d.bxor(y, d.c(s.sign)), d.bxor(x, d.c(s.sign)));
      }
    };
    typename D::B r = segment();
    all = d.land(all, r);
  }
  return all;
}

template <class D>
inline typename D::W permute(D &d, const MicroOp &o, typename D::W a,
                             typename D::W b) {
  typename D::W res = d.c(0);
  for (unsigned j = 0; j < 8; ++j) {
    unsigned sel = o.permSel >> (4 * j) & 15;
    typename D::W byte = d.band(
        sel < 8 ? d.lshr(a, 8 * sel) : d.lshr(b, 8 * (sel - 8)), d.c(0xff));
    res = d.bor(res, d.shl(byte, 8 * j));
  }
  return d.band(res, d.c(~o.permZero));
}

template <class D>
inline typename D::W tpermute(D &d, const MicroOp &o, typename D::W v) {
  if (o.tpermIdentity)
    return v;
  typename D::W res = d.c(0);
  for (unsigned j = 0; j < 4; ++j)
    res = d.bor(res,
                d.shl(d.band(d.lshr(v, 16 * o.tperm[j]), d.c(0xffff)), 16 * j));
  return res;
}

inline uint64_t tpermute(const MicroOp &o, uint64_t v) {
  ConcreteDomain d;
  return tpermute(d, o, v);
}

} // namespace detail

/// What is known at compile time of the slots a word uses: bits
/// NUM_SLOTS + k say whether slot k's use is known, bits k whether it is
/// used, and the bits from ALU_CLASS_SHIFT the ALU's class
/// (MicroOp::aluClass; 0: read the operation). ANY_SLOTS knows nothing:
/// every slot is read from the word.
constexpr unsigned ALU_CLASS_SHIFT = 2 * NUM_SLOTS;
constexpr unsigned knownSlots(unsigned known, unsigned used,
                              unsigned aluClass = 0) {
  return aluClass << ALU_CLASS_SHIFT | known << NUM_SLOTS | (used & known);
}
constexpr unsigned ANY_SLOTS = 0;
/// Every slot.
constexpr unsigned ALL_SLOTS = (1u << NUM_SLOTS) - 1;

/// Whether slot `k` of `o` is in use: known at compile time when `Slots`
/// says (musim dispatches each word to a copy made for its slots, so the
/// idle slots' code disappears), else read from the word.
template <unsigned Slots>
NPCC_MUSIM_ALWAYS_INLINE inline bool uses(const MicroOp &o, SlotKind k) {
  return (Slots >> (NUM_SLOTS + k) & 1) ? (Slots >> k & 1) : (o.slots >> k & 1);
}

/// Executes the data path of word `o` on the register files `r`, `t` and
/// predicates `p` (17 entries each, index SINK absorbing dropped writes),
/// given the popped input word (`inVal`, `inEnd`; ignored when the word
/// does not pop). Fills `e`; the caller handles the FIFO, the output word
/// (`e.cpDo` with `o.cpOp == CP_OUT`) and the control (advanceControl).
/// `Slots` must agree with `o.slots` where it knows: an idle slot's writes
/// all go to SINK (Program.cpp), so skipping them changes nothing that can
/// be read.
template <class D, unsigned Slots = ANY_SLOTS>
NPCC_MUSIM_ALWAYS_INLINE inline void
executeWord(D &d, const MicroOp &o, typename D::W *r, typename D::W *t,
            typename D::B *p, typename D::W inVal, typename D::B inEnd,
            WordEffect<D> &e) {
  using W = typename D::W;
  using B = typename D::B;
  // Reads (the state the previous word left).
  if (uses<Slots>(o, SLOT_CP)) {
    e.cpDo = d.guard(p[o.cpPred], o.cpPneg);
    e.cpVal = r[o.cpSrc];
  }

  // The ALU's class (MicroOp::aluClass) when the copy knows it, else 0.
  constexpr unsigned aluClass = Slots >> ALU_CLASS_SHIFT & 3;
  bool aluWrites =
      aluClass ? aluClass == ALU_CLASS_WRITE : o.aluOp < mu::ALU_EQ;
  if (uses<Slots>(o, SLOT_ALU)) {
    W a = r[o.aluRa];
    W b = d.bor(d.band(r[o.aluRb], d.c(o.immKeep)), d.c(o.immBits));
    W h = d.c(o.carryTop), nh = d.c(~o.carryTop);
    // A copy that knows the word compares goes straight to `default`.
    switch (aluClass > ALU_CLASS_WRITE ? unsigned(mu::ALU_EQ) : o.aluOp) {
    // One 64-bit segment is the plain operation; with several, the top
    // bit of each segment is computed apart so no carry crosses it.
    case mu::ALU_ADD:
      e.aluVal = o.carryTop == detail::kTopBit
                     ? d.add(a, b)
                     : d.bxor(d.add(d.band(a, nh), d.band(b, nh)),
                              d.band(d.bxor(a, b), h));
      break;
    case mu::ALU_SUB:
      e.aluVal = o.carryTop == detail::kTopBit
                     ? d.sub(a, b)
                     : d.bxor(d.sub(d.bor(a, h), d.band(b, nh)),
                              d.band(d.bxor(a, d.bnot(b)), h));
      break;
    case mu::ALU_AND:
      e.aluVal = d.band(a, b);
      break;
    case mu::ALU_OR:
      e.aluVal = d.bor(a, b);
      break;
    case mu::ALU_XOR:
      e.aluVal = d.bxor(a, b);
      break;
    case mu::ALU_ANDN:
      e.aluVal = d.band(a, d.bnot(b));
      break;
    case mu::ALU_PERM:
      e.aluVal = detail::permute(d, o, a, r[o.aluRb]);
      break;
    default:
      if (aluClass == ALU_CLASS_WRITE)
        break; // not reached
      e.aluCmp = detail::accumulate(
          d, p[o.aluP], detail::compare<D, aluClass>(d, o, a, b), o.aluAcc);
      break;
    }
    if (aluWrites)
      e.aluWrite = d.guard(p[o.aluPred], o.aluPneg);
  }

  B ternCmp = d.b(false);
  if (uses<Slots>(o, SLOT_TERN)) {
    W diff = d.bxor(t[o.ternA], t[o.ternB]);
    W m = [&]() -> W {
      if constexpr (std::is_same_v<D, ConcreteDomain>)
        return t[o.ternM] ^ o.ternInv; // one load, no test
      else
        return o.ternOp == mu::TERN_EQ ? t[o.ternM] : d.bnot(t[o.ternM]);
    }();
    ternCmp = d.isZero(d.band(d.band(diff, m), d.c(o.ternMask)));
  }

  // A word that writes one predicate has d1 SINK: musim's copies made for
  // known slots (never observed, so e.pred1 is not shown) skip it.
  constexpr bool skipPred1 = std::is_same_v<D, ConcreteDomain> &&
                             (Slots >> (NUM_SLOTS + SLOT_PRED) & 1);
  bool pred1 = !skipPred1 || o.d1 != SINK;
  if (uses<Slots>(o, SLOT_PRED)) {
    e.pred0 = d.table4(o.f0, p[o.a0], p[o.b0]);
    if (pred1)
      e.pred1 = d.table4(o.f1, p[o.a1], p[o.b1]);
  }
  if (uses<Slots>(o, SLOT_BR)) // meaningless for halt, which ignores it
    e.taken = d.guard(p[o.brPred], o.brOp == mu::BR_IF0);

  // Writes, in order; later ones win.
  if (uses<Slots>(o, SLOT_IN)) {
    // A copy that knows the word pops writes both files without looking:
    // the one the word does not write has index SINK.
    constexpr bool known = Slots >> (NUM_SLOTS + SLOT_IN) & 1;
    if (known || (o.inOp & 1))
      r[o.inRd] = inVal;
    if (known || (o.inOp & 2))
      t[o.inTd] = detail::tpermute(d, o, inVal);
  }
  if (uses<Slots>(o, SLOT_CP) && o.cpOp == mu::CP_TERN)
    d.assignIf(e.cpDo, t[o.cpTd], e.cpVal);
  if (uses<Slots>(o, SLOT_ALU)) {
    if (aluWrites)
      d.assignIf(e.aluWrite, r[o.aluRd], e.aluVal);
    p[o.aluP] = e.aluCmp; // SINK unless a compare
  }
  if (uses<Slots>(o, SLOT_TERN)) {
    e.ternCmp = detail::accumulate(d, p[o.ternP], ternCmp, o.ternAcc);
    p[o.ternP] = e.ternCmp; // after the ALU
  }
  if (uses<Slots>(o, SLOT_IN))
    p[o.inEndp] = inEnd; // SINK when the word has no END flag
  if (uses<Slots>(o, SLOT_PRED)) {
    p[o.d0] = e.pred0; // SINK when the unit writes one predicate only
    if (pred1)
      p[o.d1] = e.pred1;
  }
}

/// What the branch slot of `o` does when `delayLeft` delay slots remain.
enum class BranchAction { None, Cancelled, Halt, Conditional };
inline BranchAction branchAction(const MicroOp &o, unsigned delayLeft) {
  if (o.brOp == mu::BR_NONE)
    return BranchAction::None;
  if (delayLeft)
    return BranchAction::Cancelled;
  return o.brOp == mu::BR_HALT ? BranchAction::Halt : BranchAction::Conditional;
}

/// Next PC: the delay slots of a taken branch, then its target.
inline void advanceControl(const MicroOp &o, bool taken, unsigned &pc,
                           unsigned &delayLeft, unsigned &pendingTarget) {
  if (delayLeft)
    pc = --delayLeft ? pc + 1 : pendingTarget;
  else
    pc = pc + 1;
  if (taken) {
    delayLeft = mu::DELAY_SLOTS;
    pendingTarget = o.target;
  }
}

} // namespace npcc::musim

#endif // NPCC_RUNTIME_MUSIM_MACHINESTEP_H
