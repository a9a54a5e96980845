//===- Mnemonics.h - match-unit names for printer and parser ----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Private to NPCCMatchISA. Slot and field tables and the spelling of every
// operation, small encoding and predicate function, all expanded from
// MatchUnit.def (the predicate-function names come from the document).
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_RUNTIME_ISA_MNEMONICS_H
#define NPCC_RUNTIME_ISA_MNEMONICS_H

#include "runtime/isa/ISA.h"

#include <string>

namespace npcc::mu {

/// The six slots in word order: SLOT_IN, SLOT_CP, ...
enum Slot : unsigned {
#define MU_SLOT(NAME, LSB, WIDTH, DOC) SLOT_##NAME,
#include "runtime/isa/MatchUnit.def"
  NUM_SLOTS
};

/// Lower-case slot name for diagnostics: "in", "cp", "alu", ...
std::string slotName(Slot S);

/// Mnemonic of operation \p Code of slot \p S as MatchUnit.def spells it
/// ("" for the no-op, "add" for ALU_ADD), or nullptr if the code is unused.
const char *opMnemonic(Slot S, unsigned Code);
/// Finds the operation of slot \p S spelled \p Mnemonic (never the no-op).
bool findOp(Slot S, const std::string &Mnemonic, unsigned &Code);

/// Mnemonic of \p Code in the MU_ENUM group \p Group ("IMM", "ACC", "TAG"),
/// or nullptr if the code is unused.
const char *enumMnemonic(const char *Group, unsigned Code);
bool findEnum(const char *Group, const std::string &Mnemonic, unsigned &Code);

/// Name of a predicate-unit truth table ("and", "a&!b", ...), or nullptr.
const char *predFnName(unsigned Fn);
bool findPredFn(const std::string &Name, unsigned &Fn);

/// ALU compares write a predicate instead of rD and ignore the guard.
inline bool isAluCompare(unsigned Op) { return Op >= ALU_EQ; }

/// Defaults of the assembly options (docs/match-unit-isa.md, "Assembly").
constexpr unsigned DefaultSimd = (1u << (LANES - 1)) - 1; // one 64-bit segment
constexpr unsigned DefaultLanes = (1u << LANES) - 1;      // every lane
constexpr unsigned IdentityPerm = 0xe4;                   // lane j <- lane j

} // namespace npcc::mu

#endif // NPCC_RUNTIME_ISA_MNEMONICS_H
