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

#include <string>
#include <vector>

namespace npcc::mub {

struct CompiledProgram {
  std::vector<mu::Word> words;
  /// Label per address ("" for none); branch targets print with them.
  std::vector<std::string> labels;
};

/// Compiles `program`; reports unsupported operations (division,
/// multiplication, shifts the unit cannot do, too many live values) at
/// their source location and fails.
mlir::LogicalResult compileMatchProgram(match::ProgramOp program,
                                        CompiledProgram &out);

} // namespace npcc::mub

#endif // NPCC_TARGETS_UCODE_MATCHTOUCODE_BACKEND_H
