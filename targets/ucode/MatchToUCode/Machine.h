//===- Machine.h - slot operations, blocks and scheduling -------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The back end's machine model: slot operations on virtual registers,
// placed into the words of a block as soon as their operands are visible
// and their slot is free (the unit's rules: results are visible to the
// next word, writes within a word happen in slot order, two predicate
// logic units per word), then given physical registers.
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_TARGETS_UCODE_MATCHTOUCODE_MACHINE_H
#define NPCC_TARGETS_UCODE_MATCHTOUCODE_MACHINE_H

#include "runtime/isa/ISA.h"

#include <string>
#include <vector>

namespace npcc::mub {

/// Register files of virtual registers: ALU, ternary, compare predicates
/// (p8..p15), predicate-unit predicates (p1..p7).
enum File : unsigned char { FR, FT, FC, FP };

enum Unit : unsigned char { UIn, UCp, UAlu, UTern, UPred, UBr };

/// A field of a word that names a register, and the virtual register.
struct RegField {
  uint32_t mu::Word::*field;
  int vreg;
};

struct MOp {
  Unit unit;
  int block;
  mu::Word w;                 // the non-register fields of the slot
  std::vector<RegField> regs; // register fields, filled at allocation
  std::vector<int> reads, writes;
  bool accumulates = false; // compare with acc=and/or into its writes
  int word = -1;            // placement in the block
  unsigned predUnit = 0;    // logic unit 0 or 1 of a PRED op
  std::string target;       // branch target label
  bool answer = false;      // cp.out of an answer: may take a kept slot
  int origin = -1;          // the source construct (Backend::origins)
};

struct VReg {
  File file;
  int phys = -1; // preassigned physical register, else allocated
};

/// All operations and registers of one program, and the per-block
/// occupancy used while placing.
class Machine {
public:
  enum Block { Init, Header, Item, General, NumBlocks };

  Machine();

  int newReg(File f, int phys = -1);
  int r0() const { return R0; }
  int t0() const { return T0; }
  int p0() const { return P0; }

  /// Places `op` at the earliest word >= minWord of its block where its
  /// dependences on earlier operations hold and its slot is free; returns
  /// its index. A fixed word (input reads, branches) must be free.
  int place(MOp op, int minWord = 0, int fixedWord = -1);

  /// Keeps the copy slot of `word` in `block` for answers (MOp::answer).
  void reserveCopySlot(int block, int word) {
    reservedCp.push_back({block, word});
  }

  /// The word `place` would choose, without placing.
  int wouldPlaceAt(const MOp &op, int minWord = 0) const;

  /// The first word at which a value written by the last writer of `vreg`
  /// in `block` is visible (0 if none).
  int visibleAt(int block, int vreg) const;
  int blockLength(int block) const { return (int)occupancy[block].size(); }
  /// Rebuilds a machine from placed operations and their registers (the
  /// ucode.machine form).
  void restore(std::vector<VReg> regs, std::vector<MOp> ops);
  const std::vector<MOp> &ops() const { return all; }
  std::vector<MOp> &ops() { return all; }
  const std::vector<VReg> &regs() const { return vregs; }

private:
  struct Occ {
    bool in = false, cp = false, alu = false, tern = false, br = false;
    unsigned pred = 0;
  };
  bool slotFree(const Occ &o, Unit u) const;
  bool fits(const MOp &op, int word) const;
  std::vector<std::pair<int, int>> reservedCp;
  void take(Occ &o, MOp &op);
  int earliest(const MOp &op) const;

  std::vector<MOp> all;
  std::vector<VReg> vregs;
  std::vector<Occ> occupancy[NumBlocks];
  int R0, T0, P0;
};

/// Unit order within a word: later units' writes win.
inline int unitOrder(Unit u) { return (int)u; }

} // namespace npcc::mub

#endif // NPCC_TARGETS_UCODE_MATCHTOUCODE_MACHINE_H
