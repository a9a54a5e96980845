//===- RegAlloc.cpp - registers for virtual registers --------------------===//
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
// Register allocation
//===----------------------------------------------------------------------===//

static const char *fileName(File f) {
  switch (f) {
  case FR:
    return "ALU registers";
  case FT:
    return "ternary registers";
  case FC:
    return "compare predicates";
  case FP:
    return "predicate-unit predicates";
  }
  return "registers";
}

std::string npcc::mub::AllocFailure::message() const {
  return (llvm::Twine(acrossItems ? "too many values live across the list "
                                    "items for the match unit's "
                                  : "too many live values for the match "
                                    "unit's ") +
          fileName(file))
      .str();
}

std::string npcc::mub::AllocFailure::capacity() const {
  switch (file) {
  case FR:
    return "the unit has 15 ALU registers (r1-r15; r0 reads 0)";
  case FT:
    return "the unit has 15 ternary registers (t1-t15; t0 reads all ones)";
  case FC:
    return "the unit has 7 compare predicates for results (p8-p14; p15 is "
           "the END flag)";
  case FP:
    return "the unit has 7 predicate-unit predicates (p1-p7)";
  }
  return "";
}

LogicalResult Backend::allocate() {
  std::vector<int> phys;
  if (auto failure = allocateRegisters(m, phys)) {
    // The construct whose value found no register: the source of the
    // operation that first writes it.
    Location loc = program.getLoc();
    for (const MOp &op : m.ops())
      if (op.origin >= 0 && llvm::is_contained(op.writes, failure->vreg)) {
        loc = origins[op.origin];
        break;
      }
    error(loc, failure->message());
    errNote = failure->capacity() +
              (failure->acrossItems
                   ? ", and values the item loop reads from the header hold "
                     "theirs for the whole program"
                   : "") +
              "; selecting again with header values recomputed in every "
              "item did not free enough";
    retry = RetryPressure;
    return mlir::failure();
  }
  return success();
}

std::optional<AllocFailure>
npcc::mub::allocateRegisters(const Machine &m, std::vector<int> &phys) {
  const std::vector<VReg> &regs = m.regs();
  struct Range {
    int first = -1, last = -1;
    int lastWrite = -1;
    bool read = false;
    int block = -1;
    unsigned blocks = 0; // bit per block that touches it
  };
  std::vector<Range> ranges(regs.size());
  for (const MOp &o : m.ops()) {
    for (int w : o.writes) {
      Range &r = ranges[w];
      if (r.first < 0 || o.word < r.first)
        r.first = o.word;
      r.last = std::max(r.last, o.word);
      r.lastWrite = std::max(r.lastWrite, o.word);
      r.block = o.block;
      r.blocks |= 1u << o.block;
    }
    for (int rd : o.reads) {
      Range &r = ranges[rd];
      r.read = true;
      r.blocks |= 1u << o.block;
      r.last = std::max(r.last, o.word);
    }
  }
  phys.assign(regs.size(), -1);
  // Pools: ALU r1-r15, ternary t1-t15, compares p8-p14, logic p1-p7.
  auto poolOf = [](File f, int &lo, int &hi) {
    switch (f) {
    case FR:
    case FT:
      lo = 1, hi = 15;
      break;
    case FC:
      lo = 8, hi = 14;
      break;
    case FP:
      lo = 1, hi = 7;
      break;
    }
  };
  // Physical registers held for the whole program, per file.
  std::vector<bool> held[4];
  for (auto &h : held)
    h.assign(16, false);
  for (size_t v = 0; v < regs.size(); ++v)
    if (regs[v].phys >= 0) {
      phys[v] = regs[v].phys;
      held[regs[v].file][regs[v].phys] = true;
    }
  // Values used in more than one block (constants, header values read by
  // the item loop) live throughout.
  for (size_t v = 0; v < regs.size(); ++v) {
    unsigned b = ranges[v].blocks;
    if (phys[v] >= 0 || !ranges[v].read || (b & (b - 1)) == 0)
      continue;
    int lo = 1, hi = 0;
    poolOf(regs[v].file, lo, hi);
    for (int p = lo; p <= hi && phys[v] < 0; ++p)
      if (!held[regs[v].file][p]) {
        held[regs[v].file][p] = true;
        phys[v] = p;
      }
    if (phys[v] < 0)
      return AllocFailure{regs[v].file, /*acrossItems=*/true, (int)v};
  }
  // The rest by interval [first write, last access] within their block. Two
  // values may share a register when one's interval ends in the word where
  // the other's begins, but only if the ending value is merely read there:
  // a (predicated) write in that word would clobber the new value, since
  // every write of a word lands together.
  struct Busy {
    int file, reg, block, first, last, lastWrite;
  };
  std::vector<Busy> busy;
  auto conflicts = [](const Busy &b, const Range &r) {
    if (b.block != r.block || b.last < r.first || r.last < b.first)
      return false;
    bool handOverToR = r.first == b.last && b.lastWrite < b.last;
    bool handOverToB = b.first == r.last && r.lastWrite < r.last;
    return !handOverToR && !handOverToB;
  };
  // Intervals in order of their first word: first fit in that order needs
  // no more registers than values live in one word (an interval graph),
  // where creation order can need more.
  std::vector<size_t> order(regs.size());
  for (size_t v = 0; v < regs.size(); ++v)
    order[v] = v;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return std::make_pair(ranges[a].block, ranges[a].first) <
           std::make_pair(ranges[b].block, ranges[b].first);
  });
  for (size_t v : order) {
    if (phys[v] >= 0)
      continue;
    const Range &r = ranges[v];
    if (r.first < 0)
      continue; // never written (unused)
    if (!r.read && (regs[v].file == FR || regs[v].file == FT)) {
      phys[v] = 0; // a dead write goes to r0 / t0
      continue;
    }
    int lo = 1, hi = 0;
    poolOf(regs[v].file, lo, hi);
    for (int p = lo; p <= hi && phys[v] < 0; ++p) {
      if (held[regs[v].file][p])
        continue;
      bool free = true;
      for (const Busy &b : busy)
        if (b.file == regs[v].file && b.reg == p && conflicts(b, r))
          free = false;
      if (free) {
        phys[v] = p;
        busy.push_back(
            {regs[v].file, p, r.block, r.first, r.last, r.lastWrite});
      }
    }
    if (phys[v] < 0)
      return AllocFailure{regs[v].file, /*acrossItems=*/false, (int)v};
  }
  return std::nullopt;
}
