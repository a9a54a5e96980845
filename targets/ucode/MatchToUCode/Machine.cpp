//===- Machine.cpp - placing slot operations into words -------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Operations are placed in creation order, each as early as possible: a
// list schedule whose priority is the program order of the match function
// (its checks are written most-common-failure first).
//
//===----------------------------------------------------------------------===//

#include "targets/ucode/MatchToUCode/Machine.h"

#include <algorithm>

using namespace npcc::mub;

Machine::Machine() {
  R0 = newReg(FR, 0);
  T0 = newReg(FT, 0);
  P0 = newReg(FP, 0);
}

int Machine::newReg(File f, int phys) {
  vregs.push_back({f, phys});
  return (int)vregs.size() - 1;
}

bool Machine::slotFree(const Occ &o, Unit u) const {
  switch (u) {
  case UIn:
    return !o.in;
  case UCp:
    return !o.cp;
  case UAlu:
    return !o.alu;
  case UTern:
    return !o.tern;
  case UPred:
    return o.pred < 2;
  case UBr:
    return !o.br;
  }
  return false;
}

void Machine::take(Occ &o, MOp &op) {
  switch (op.unit) {
  case UIn:
    o.in = true;
    break;
  case UCp:
    o.cp = true;
    break;
  case UAlu:
    o.alu = true;
    break;
  case UTern:
    o.tern = true;
    break;
  case UPred:
    op.predUnit = o.pred++;
    break;
  case UBr:
    o.br = true;
    break;
  }
}

bool Machine::fits(const MOp &op, int word) const {
  const std::vector<Occ> &occ = occupancy[op.block];
  if (word < (int)occ.size() && !slotFree(occ[word], op.unit))
    return false;
  if (op.unit != UCp || op.answer)
    return true;
  return std::find(reservedCp.begin(), reservedCp.end(),
                   std::make_pair(op.block, word)) == reservedCp.end();
}

static bool contains(const std::vector<int> &v, int x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

int Machine::earliest(const MOp &op) const {
  int at = 0;
  for (const MOp &prev : all) {
    if (prev.block != op.block)
      continue;
    for (int r : op.reads) {
      if (!contains(prev.writes, r) || vregs[r].phys == 0)
        continue;
      // Read after write: visible in the next word. An accumulating compare
      // reads its predicate when it writes, after earlier slots' writes.
      bool rmw = op.accumulates && contains(op.writes, r);
      int d = rmw && unitOrder(prev.unit) < unitOrder(op.unit) ? 0 : 1;
      at = std::max(at, prev.word + d);
    }
    for (int w : op.writes) {
      if (vregs[w].phys == 0)
        continue;
      // Write after read: reads happen before writes in a word.
      if (contains(prev.reads, w))
        at = std::max(at, prev.word);
      // Write after write: the later write must land later.
      if (contains(prev.writes, w))
        at = std::max(at,
                      prev.word +
                          (unitOrder(prev.unit) < unitOrder(op.unit) ? 0 : 1));
    }
  }
  return at;
}

int Machine::place(MOp op, int minWord, int fixedWord) {
  std::vector<Occ> &occ = occupancy[op.block];
  int w = fixedWord >= 0 ? fixedWord : std::max(minWord, earliest(op));
  for (;; ++w) {
    if ((int)occ.size() <= w)
      occ.resize(w + 1);
    if (fits(op, w))
      break;
    if (fixedWord >= 0)
      return -1; // the caller reserved this word; a bug if it is taken
  }
  op.word = w;
  take(occ[w], op);
  all.push_back(std::move(op));
  return (int)all.size() - 1;
}

int Machine::wouldPlaceAt(const MOp &op, int minWord) const {
  for (int w = std::max(minWord, earliest(op));; ++w)
    if (fits(op, w))
      return w;
}

int Machine::visibleAt(int block, int vreg) const {
  int at = 0;
  for (const MOp &op : all)
    if (op.block == block && contains(op.writes, vreg))
      at = std::max(at, op.word + 1);
  return at;
}

void Machine::restore(std::vector<VReg> regs, std::vector<MOp> ops) {
  vregs = std::move(regs);
  all.clear();
  for (auto &occ : occupancy)
    occ.clear();
  for (MOp &op : ops) {
    std::vector<Occ> &occ = occupancy[op.block];
    if ((int)occ.size() <= op.word)
      occ.resize(op.word + 1);
    unsigned predUnit = op.predUnit;
    take(occ[op.word], op);
    op.predUnit = predUnit;
    all.push_back(std::move(op));
  }
}
