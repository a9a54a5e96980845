//===- Backend.h - match programs to match-unit words -----------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The match-unit back end: instruction selection of a `match.program` into
// slot operations on virtual registers, list scheduling into wide words
// within the list-manager protocol (header, item loop with an early-out
// branch, answers, flush of the extra item), if-conversion by predication,
// and register allocation over the ALU, ternary and predicate files.
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_TARGETS_UCODE_MATCHTOUCODE_BACKEND_H
#define NPCC_TARGETS_UCODE_MATCHTOUCODE_BACKEND_H

#include "dialects/Match/IR/MatchOps.h"
#include "runtime/isa/ISA.h"
#include "targets/ucode/MatchToUCode/Machine.h"

#include <optional>
#include <string>
#include <vector>

namespace npcc::mub {

struct CompiledProgram {
  std::vector<mu::Word> words;
  /// Label per address ("" for none); branch targets print with them.
  std::vector<std::string> labels;
};

/// A program scheduled on virtual registers (the ucode.machine form): what
/// selection produces and register allocation consumes.
struct Scheduled {
  Machine machine;
  int reserveItemWords = 0; // words the item block spans at least
  bool general = false;     // a general path follows the item block
};

/// Selects and schedules `program`, trying the attempts of
/// compileMatchProgram's ladder until the register files hold the result;
/// reports what the unit cannot run (division, multiplication, shifts, too
/// many live values) at its source location and fails.
mlir::LogicalResult selectMatchProgram(match::ProgramOp program,
                                       Scheduled &out);

/// A register file that overflowed.
struct AllocFailure {
  File file;
  bool acrossItems; // a value the item loop needs from the header
  int vreg;         // the virtual register that found no register
  std::string message() const;
  /// What the file holds, for a note.
  std::string capacity() const;
};

/// Physical registers for the virtual registers of `m`, by live interval
/// within a block; values used in several blocks hold theirs throughout.
std::optional<AllocFailure> allocateRegisters(const Machine &m,
                                              std::vector<int> &phys);

/// The words of the program: the blocks at their addresses with physical
/// registers, then the drain and flush loops of the list-manager protocol.
void layoutWords(const Scheduled &program, const std::vector<int> &phys,
                 CompiledProgram &out);

} // namespace npcc::mub

#endif // NPCC_TARGETS_UCODE_MATCHTOUCODE_BACKEND_H
