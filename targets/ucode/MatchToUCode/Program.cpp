//===- Program.cpp - the item protocol, speculation, answers --------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The program the back end builds has the shape of the hand-written one
// (examples/portals-match/portals.mua):
//
//   init    constants the checks need (ternary masks, wide constants)
//   hdr     read the 8 header words; compute what depends only on them
//   item    read the 8 item words, one per word, while the checks run; a
//           branch at word 5 leaves for the next item as soon as the checks
//           ready by then fail (8 cycles per failing item), a second one
//           when all checks are known; then the answers
//   matched drain the extra item the list manager sent, read END, and go
//   flush   back to the header
//
// The first three reads of an item and of a header go to the same
// registers (r1-r3, t1-t3), so that when an item read finds the END mark,
// the reads in the delay slots of the branch to the header are already
// header words. Values are kept where the fields lie in the 64-bit words:
// a compare of two fields at the same position needs no shifting, and
// SIMD lanes select the field.
//
//===----------------------------------------------------------------------===//

#include "targets/ucode/MatchToUCode/BackendImpl.h"

#include "dialects/Match/Transforms/Passes.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace npcc;
using namespace npcc::mub;
using mu::Word;

//===----------------------------------------------------------------------===//
// The program
//===----------------------------------------------------------------------===//

void Backend::input(int block, int word, int r, int t, int endp) {
  MOp o = op(UIn, block);
  o.w.IN_OP = mu::IN_BOTH;
  o.w.IN_TPERM = 0xe4;
  o.regs = {{&Word::IN_RD, r}, {&Word::IN_TD, t}};
  o.writes = {r, t};
  if (endp >= 0) {
    o.regs.push_back({&Word::IN_ENDP, endp});
    o.writes.push_back(endp);
  }
  place(o, 0, word);
}

void Backend::readWords() {
  // Shared registers of the END trick: item words 1-3 = header words 0-2.
  for (unsigned k = 0; k < 3; ++k) {
    // Distinct virtual registers on one physical register: the header
    // values are copied before the item loop reuses it.
    hdrR[k] = m.newReg(FR, 1 + k);
    hdrT[k] = m.newReg(FT, 1 + k);
    itemR[k + 1] = m.newReg(FR, 1 + k);
    itemT[k + 1] = m.newReg(FT, 1 + k);
  }
  for (unsigned k = 3; k < kWords; ++k) {
    hdrR[k] = m.newReg(FR);
    hdrT[k] = m.newReg(FT);
  }
  itemR[0] = m.newReg(FR);
  itemT[0] = m.newReg(FT);
  for (unsigned k = 4; k < kWords; ++k) {
    itemR[k] = m.newReg(FR);
    itemT[k] = m.newReg(FT);
  }
  pEnd = m.newReg(FC, 15);
  for (unsigned k = 0; k < kWords; ++k) {
    input(Machine::Header, k, hdrR[k], hdrT[k], -1);
    input(Machine::Item, k, itemR[k], itemT[k], k == 0 ? pEnd : -1);
  }
  // An END read at item word 0 leaves for the header (no match).
  MOp br = op(UBr, Machine::Item);
  br.w.BR_OP = mu::BR_IF1;
  br.regs = {{&Word::BR_PRED, pEnd}};
  br.reads = {pEnd};
  br.target = "hdr4";
  place(br, 0, 1);
}

static bool dependsOnItem(Value v) {
  llvm::SmallPtrSet<Operation *, 16> seen;
  match::addCone(v, seen);
  return llvm::any_of(seen,
                      [](Operation *op) { return isa<match::ItemWordOp>(op); });
}

/// `(x & K) == 0` as a failure condition, for an item field x and a
/// constant K of one bit: a bit that must be set for the item to match.
/// With several bits in K the check passes when any of them is set, which
/// is not `(x & K) == K`, so it does not fold.
static bool isBitsClear(Value v, Value &field, uint64_t &bits) {
  return match::isItemFlagTest(v, field, bits) && llvm::isPowerOf2_64(bits) &&
         v.getDefiningOp<arith::CmpIOp>().getPredicate() ==
             arith::CmpIPredicate::eq;
}

/// Option-bit checks of one item field, each unconditional or under a
/// header condition (Figure 1's valid bit and PUT/GET permissions), become
/// one check: the header ORs the required bits into a mask M, and the item
/// passes if `(x & M) == M`, one ternary compare.
std::vector<Backend::Check>
Backend::foldMaskChecks(const std::vector<Value> &conds) {
  std::vector<Check> out;
  std::map<Operation *, int> byField; // field op -> mask index
  for (size_t i = 0; i < conds.size(); ++i) {
    Value c = conds[i], field, hdr;
    uint64_t bits = 0;
    bool foldable = false;
    if (i > 0 && isBitsClear(c, field, bits)) {
      foldable = true;
    } else if (auto a = c.getDefiningOp<arith::AndIOp>(); a && i > 0) {
      for (int side = 0; side < 2 && !foldable; ++side) {
        Value x = side ? a.getLhs() : a.getRhs();
        Value h = side ? a.getRhs() : a.getLhs();
        if (isBitsClear(x, field, bits) && !dependsOnItem(h)) {
          hdr = h;
          foldable = true;
        }
      }
    }
    if (!foldable) {
      out.push_back({c, -1});
      continue;
    }
    auto it = byField.find(field.getDefiningOp());
    if (it == byField.end()) {
      masks.push_back({field, {}, -1});
      it = byField.emplace(field.getDefiningOp(), (int)masks.size() - 1).first;
      out.push_back({Value(), it->second});
    }
    masks[it->second].parts.push_back({hdr, bits});
  }
  // A single unconditional part gains nothing from a mask register.
  for (Check &c : out)
    if (c.mask >= 0 && masks[c.mask].parts.size() == 1 &&
        !masks[c.mask].parts[0].first) {
      // Rebuild the plain condition: keep it folded, the compare is the
      // same one ternary operation either way.
    }
  return out;
}

void Backend::coneOf(const Check &c, llvm::SmallPtrSetImpl<Operation *> &seen) {
  if (c.mask < 0) {
    match::addCone(c.v, seen);
    return;
  }
  match::addCone(masks[c.mask].field, seen);
  for (auto &part : masks[c.mask].parts)
    if (part.first)
      match::addCone(part.first, seen);
}

BoolVal Backend::maskOk(MaskCheck &mc) {
  IntVal x = intVal(mc.field);
  Location loc = mc.field.getLoc();
  if (mc.tern < 0) {
    // M in the header: the unconditional bits, then each guarded part.
    uint64_t always = 0;
    for (auto &part : mc.parts)
      if (!part.first)
        always |= part.second;
    int r = m.newReg(FR);
    MOp base = op(UAlu, Machine::Header);
    base.w.ALU_OP = mu::ALU_OR;
    // Bits that straddle the two halves of the immediate come from a
    // constant register instead.
    int rbase = m.r0();
    if (!immediate(always, x.lsb, x.width, base.w))
      rbase = constR(always << x.lsb);
    base.regs = {{&Word::ALU_RD, r},
                 {&Word::ALU_RA, m.r0()},
                 {&Word::ALU_RB, rbase},
                 {&Word::ALU_PRED, m.p0()}};
    base.reads = {rbase};
    base.writes = {r};
    place(base, 3);
    for (auto &part : mc.parts) {
      if (!part.first)
        continue;
      BoolVal h = boolVal(part.first);
      if (h.isConst && !h.c)
        continue;
      MOp o = op(UAlu, Machine::Header);
      o.w.ALU_OP = mu::ALU_OR;
      o.w.ALU_PNEG = !h.isConst && h.neg;
      int rb = m.r0();
      if (!immediate(part.second, x.lsb, x.width, o.w))
        rb = constR(part.second << x.lsb);
      int p = predOf(h, Machine::Header);
      o.regs = {{&Word::ALU_RD, r},
                {&Word::ALU_RA, r},
                {&Word::ALU_RB, rb},
                {&Word::ALU_PRED, p}};
      o.reads = {r, rb, p};
      o.writes = {r};
      place(o, 3);
    }
    mc.tern = m.newReg(FT);
    MOp cp = op(UCp, Machine::Header);
    cp.w.CP_OP = mu::CP_TERN;
    cp.regs = {
        {&Word::CP_SRC, r}, {&Word::CP_TD, mc.tern}, {&Word::CP_PRED, m.p0()}};
    cp.reads = {r};
    cp.writes = {mc.tern};
    place(cp, 3);
  }
  // (x ^ M) & M == 0: every required bit is set.
  BoolVal out;
  out.block = Machine::Item;
  MOp o = op(UTern, Machine::Item);
  o.w.TERN_OP = mu::TERN_EQ;
  int tx = tOf(x, Machine::Item, loc);
  out.p = m.newReg(FC);
  o.regs = {{&Word::TERN_TA, tx},
            {&Word::TERN_TB, mc.tern},
            {&Word::TERN_TM, mc.tern},
            {&Word::TERN_CMPD, out.p}};
  o.reads = {tx, mc.tern};
  o.writes = {out.p};
  return defer(std::move(o), 0, out.p, Machine::Item);
}

LogicalResult Backend::run() {
  readWords();
  // A program that ends in match.speculate (match-speculate-option-flags)
  // has an item path, `assumed`, for items whose speculated option flags
  // are clear, and a general path, `otherwise`, for the others.
  Block &body = program.getBody().front();
  auto specOp = dyn_cast<match::SpeculateOp>(body.back());
  auto acceptOf = [](mlir::Region &r) {
    return cast<match::AcceptOp>(r.front().back());
  };
  match::AcceptOp accept = specOp ? acceptOf(specOp.getAssumed())
                                  : cast<match::AcceptOp>(body.back());
  match::AcceptOp generalAccept =
      specOp ? acceptOf(specOp.getOtherwise()) : accept;

  // Checks in source order; each contributes an "ok" predicate. Creation
  // order is the scheduling priority: the first checks (the most common
  // failures) go first for the early branch, then the answers, which are
  // the longest chain, then the remaining checks.
  // A failure that is an `or` is several failures (checked in order).
  // Checks every item runs come first; those of a path after them.
  std::vector<Check> conds = foldMaskChecks(match::failureTerms(body));
  size_t common = conds.size();
  std::vector<Check> generalConds = conds;
  if (specOp) {
    for (Value v : match::failureTerms(specOp.getAssumed().front()))
      conds.push_back({v, -1});
    for (Value v : match::failureTerms(specOp.getOtherwise().front()))
      generalConds.push_back({v, -1});
  }
  auto andAll = [&](BoolVal acc, const BoolVal &next) {
    if (acc.isConst)
      return acc.c ? next : acc;
    // logic() attributes the join to the check it adds (next).
    BoolVal joined = logic(0x8, acc, next, Machine::Item);
    joined.source = next.source;
    return joined;
  };
  auto okOf = [&](const Check &c) {
    Location loc = c.mask < 0 ? c.v.getLoc() : masks[c.mask].field.getLoc();
    AtSource source(*this, loc);
    BoolVal ok = c.mask < 0 ? notOf(boolVal(c.v)) : maskOk(masks[c.mask]);
    ok.source = originOf(loc);
    return ok;
  };
  auto visibleInt = [&](const IntVal &v) {
    if (v.isConst || v.block != Machine::Item)
      return 0;
    return m.visibleAt(itemBlock, v.r);
  };
  auto visible = [&](const BoolVal &b) {
    if (b.isConst)
      return 0;
    if (pending(b)) // an estimate: where it would go now
      return m.wouldPlaceAt(lazies[b.lazy].op, lazies[b.lazy].minWord) + 1;
    return m.visibleAt(b.block == Machine::Item ? itemBlock : b.block, b.p);
  };
  BoolVal okFast;
  okFast.isConst = true;
  okFast.c = true;
  // The early branch at word 5 tests the checks visible by then.
  size_t firstLate = 0;
  for (; firstLate < common; ++firstLate) {
    // After a check that always fails, nothing decides more: the checks
    // after it are dead code, and selecting them would only take slots
    // from the failure answer.
    if (okFast.isConst && !okFast.c)
      break;
    BoolVal ok = okOf(conds[firstLate]);
    BoolVal next = andAll(okFast, ok);
    if (visible(next) > 5 && firstLate > 0)
      break; // this check (computed already) joins the late ones
    okFast = next;
  }
  if (hasError)
    return reportError();

  // Speculation: the item path assumes that the option flags of the
  // match.speculate assumption are clear, and needs none of the arithmetic
  // they guard; one ternary test of all of them sends items with a flag set
  // to the general path.
  // Late checks that need no arithmetic (in Figure 1: PID, threshold and
  // operation): under speculation they can fail an item before its answers
  // are known.
  std::vector<size_t> plainLate;
  for (size_t k = firstLate; k < conds.size(); ++k) {
    llvm::SmallPtrSet<Operation *, 32> c;
    coneOf(conds[k], c);
    if (!llvm::any_of(c, match::isArithmetic))
      plainLate.push_back(k);
  }
  Value flagField;
  uint64_t flagBits = 0;
  bool speculate = specOp && match::isItemFlagTest(specOp.getAssumption(),
                                                   flagField, flagBits);
  if (specOp && !speculate) {
    error(specOp.getLoc(), "the assumption of 'match.speculate' must test "
                           "option bits of an item field: (x & K) == 0");
    return reportError();
  }

  // The failure answer of the branch at `word`: it must be in that word or
  // one of its delay slots, or a failing item would never be answered.
  auto failOut = [&](int word, const BoolVal &ok) {
    materialize(ok);
    MOp o = op(UCp, Machine::Item);
    o.w.CP_OP = mu::CP_OUT;
    o.w.CP_TAG = mu::TAG_FAIL;
    o.w.CP_PNEG = !ok.neg;
    o.answer = true;
    int p = predOf(ok, Machine::Item);
    o.regs = {{&Word::CP_SRC, m.r0()}, {&Word::CP_PRED, p}};
    o.reads = {p};
    int at = place(o, word);
    if (m.ops()[at].word > word + 2)
      copySlotMissing({options.slotsWhereKnown
                           ? std::max(word, m.visibleAt(itemBlock, p))
                           : word});
    return at;
  };
  auto branch = [&](const BoolVal &p, bool ifTrue, const char *target,
                    int minWord, int fixed = -1) {
    materialize(p);
    MOp o = op(UBr, Machine::Item);
    o.w.BR_OP = (ifTrue != p.neg) ? mu::BR_IF1 : mu::BR_IF0;
    o.regs = {{&Word::BR_PRED, predOf(p, Machine::Item)}};
    o.reads = {o.regs[0].vreg};
    o.target = target;
    return m.ops()[place(o, minWord, fixed)].word;
  };
  auto answer = [&](const IntVal &v, unsigned tag, int minWord,
                    const BoolVal &ok) {
    MOp o = op(UCp, Machine::Item);
    o.w.CP_OP = mu::CP_OUT;
    o.w.CP_TAG = tag;
    int r = rOf(lowered(v, accept.getLoc()), Machine::Item, accept.getLoc());
    int guard = predOf(ok, Machine::Item);
    o.w.CP_PNEG = !ok.isConst && ok.neg;
    o.answer = true;
    o.regs = {{&Word::CP_SRC, r}, {&Word::CP_PRED, guard}};
    o.reads = {r, guard};
    return m.ops()[place(o, minWord)].word;
  };
  // A program that fails every item (an unconditional `fail;`) still
  // answers every item: the check is "p0 is clear".
  auto never = [&]() {
    BoolVal f;
    f.p = m.p0();
    f.neg = true;
    f.block = Machine::Item;
    return f;
  };
  // The conjunction of `terms` as a tree: the two known first are joined
  // first, so the last one known adds one step.
  auto joinAll = [&](std::vector<BoolVal> terms) {
    while (terms.size() > 1) {
      std::stable_sort(terms.begin(), terms.end(),
                       [&](const BoolVal &a, const BoolVal &b) {
                         return visible(a) < visible(b);
                       });
      BoolVal joined = andAll(terms[0], terms[1]);
      terms.erase(terms.begin(), terms.begin() + 2);
      terms.push_back(joined);
    }
    return terms.front();
  };
  // Answers and checks after the early branch: the offset, the remaining
  // checks combined as a tree (the two known first are joined first, so
  // the last adds one step), the length.
  // `covered`: late checks already part of `start`.
  auto late = [&](BoolVal start, IntVal &off, IntVal &len,
                  llvm::ArrayRef<size_t> covered,
                  const std::vector<Check> &conds, match::AcceptOp accept) {
    // A check that fails every item makes the other checks and the
    // answers dead; selecting them would only take slots from the failure
    // answer.
    for (size_t k = firstLate; k < conds.size(); ++k) {
      auto c = conds[k].mask < 0
                   ? conds[k].v.getDefiningOp<arith::ConstantIntOp>()
                   : arith::ConstantIntOp();
      if (c && c.value() != 0) {
        off.isConst = len.isConst = true;
        off.c = len.c = 0;
        return never();
      }
    }
    off = intVal(accept.getOffset());
    std::vector<BoolVal> terms = {start};
    for (size_t k = firstLate; k < conds.size(); ++k)
      if (!llvm::is_contained(covered, k))
        terms.push_back(okOf(conds[k]));
    terms = {joinAll(terms)};
    len = intVal(accept.getLength());
    // Answers are whole 64-bit numbers at bit 0.
    off = lowered(off, accept.getLoc());
    len = lowered(len, accept.getLoc());
    // A check that always fails still needs a predicate to guard with.
    if (terms.front().isConst && !terms.front().c)
      return never();
    return terms.front();
  };

  BoolVal okTrue;
  okTrue.isConst = true;
  okTrue.c = true;
  int lastBranch = -1;
  bool fastBranch = !okFast.isConst && visible(okFast) <= 5;
  if (!fastBranch) {
    // No check is known by word 5: all of them are late ones.
    firstLate = 0;
    okFast = okTrue;
  }
  if (fastBranch) {
    lastBranch = branch(okFast, false, "item", 5);
    failOut(lastBranch, okFast);
  }
  if (okFast.isConst && !okFast.c) {
    okFast = never();
    lastBranch = branch(okFast, false, "item", 5);
    failOut(lastBranch, okFast);
    fastBranch = true;
  }

  if (speculate) {
    // simple = every speculated flag is clear.
    IntVal x = intVal(flagField), zero, mask;
    zero.isConst = mask.isConst = true;
    zero.c = 0;
    mask.c = flagBits;
    zero.lsb = mask.lsb = x.lsb;
    BoolVal simple = ternaryEq(x, zero, &mask, accept.getLoc());
    int gb = branch(simple, false, "general",
                    std::max({6, lastBranch + 1, visible(simple)}));
    // The plain late checks, joined first so that the middle exit below
    // can test them alone.
    std::vector<BoolVal> plainTerms = {okTrue};
    for (size_t k : plainLate)
      plainTerms.push_back(okOf(conds[k]));
    BoolVal okMid = joinAll(plainTerms);
    IntVal off, len;
    BoolVal ok = late(okMid, off, len, plainLate, conds, accept);
    if (hasError)
      return reportError();
    // Success jumps to the drain; a failure answers, falls into a jump back
    // (cancelled on success) and spends one word more.
    // The answers sit in the delay slots of that branch: their values
    // must be ready by then.
    int d = std::max(
        {visible(ok), gb + 3, visibleInt(off) - 1, visibleInt(len) - 2});
    // The middle exit: an item failing the plain checks leaves as soon as
    // they are known (in Figure 1: PID, threshold and operation at word 8,
    // as in the hand-written program) instead of after its answers. The
    // failure answer at `d` serves it when `d` is one of this branch's
    // delay slots; otherwise it gets its own, which in the general
    // branch's delay slots must spare items taken to the general path.
    if (!okMid.isConst) {
      // Not in the early branch's delay slots: an item that failed there
      // runs them, and must not be answered a second time.
      int wm = std::max({gb + 1, lastBranch + 3, visible(okMid)});
      // In the general branch's delay slots, an item sent to the general
      // path must not get this failure answer: it is guarded by `simple`,
      // and the branch waits until that guard is known by its last delay
      // slot.
      BoolVal guard = okMid;
      if (wm < d && wm <= gb + 2 && d > wm + 2) {
        guard = notOf(logic(0x4, simple, okMid, Machine::Item));
        wm = std::max(wm, visible(guard) - 2);
      }
      if (wm < d) {
        int mid = branch(okMid, false, "item", wm);
        if (d > mid + 2)
          failOut(mid, guard);
      }
    }
    d = branch(ok, true, "matched", d);
    if (!ok.isConst)
      failOut(d, ok);
    branch(okTrue, true, "item", 0, d + 1);
    int offWord = answer(off, mu::TAG_OFFSET, d + 1, ok);
    int lenWord = answer(len, mu::TAG_LENGTH, offWord + 1, ok);
    // A match leaves through the branch at `d`: both answers must be in its
    // delay slots, or the matched item would never get them.
    // The failure answer, the offset and the length need the copy slots of
    // the words d, d+1 and d+2.
    if (lenWord > d + 2)
      copySlotMissing({d, d + 1, d + 2});
    reserveItemWords = d + 4; // word d+3: the failing path's last slot

    // The general path: everything after the early branch, exactly.
    itemBlock = Machine::General;
    for (auto key : itemCopies)
      stableCopies.erase(key);
    auto keepCommon = [&](auto &memo) {
      for (auto it = memo.begin(); it != memo.end();) {
        auto cur = it++;
        if (cur->second.block == Machine::Item)
          memo.erase(cur);
      }
    };
    keepCommon(ints);
    keepCommon(bools);
    IntVal goff, glen;
    BoolVal gok = late(okTrue, goff, glen, {}, generalConds, generalAccept);
    if (hasError)
      return reportError();
    int gd =
        std::max({0, visible(gok), visibleInt(goff) - 1, visibleInt(glen) - 2});
    if (!gok.isConst) {
      gd = branch(gok, false, "item", gd);
      failOut(gd, gok);
    }
    int gOffWord = answer(goff, mu::TAG_OFFSET, gd + 1, gok);
    answer(glen, mu::TAG_LENGTH, gOffWord + 1, gok);
    general = true;
  } else {
    IntVal off, len;
    BoolVal okAll = late(okFast, off, len, {}, conds, accept);
    if (hasError)
      return reportError();
    if (okAll.isConst && !okAll.c)
      okAll = never();
    bool slow = !okAll.isConst &&
                (!fastBranch || okAll.p != okFast.p || okAll.neg != okFast.neg);
    if (slow) {
      int at = std::max(lastBranch + 1, std::max(5, visible(okAll)));
      BoolVal failSlow = notOf(okAll);
      // In the delay slots of the early branch, an item it already
      // answered must not be answered twice.
      if (fastBranch && at <= lastBranch + 2) {
        failSlow = logic(0x8, okFast, notOf(okAll), Machine::Item);
        at = std::max(at, visible(failSlow));
      }
      lastBranch = branch(okAll, false, "item", at);
      failOut(lastBranch, notOf(failSlow));
    }
    lastBranch = std::max(lastBranch, 5);
    int offWord = answer(off, mu::TAG_OFFSET, lastBranch + 1, okAll);
    answer(len, mu::TAG_LENGTH, offWord + 1, okAll);
  }
  if (hasError)
    return reportError();
  return allocate();
}
