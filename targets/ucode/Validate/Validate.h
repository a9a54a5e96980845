//===- Validate.h - translation validation of the match back end -*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Proves, for one compiled match program, that the microcode gives the same
// decision as the `match.program` it was compiled from (fail, or accept
// with offset and length) for every header and every list, by symbolic
// execution of the words with Z3 bit-vectors. The word semantics is musim's
// own (runtime/musim/MachineStep.h, instantiated over Z3 terms). See
// docs/match-unit-compiler.md, "Translation validation".
//
// Z3 reports errors by C++ exceptions: they are caught inside the library,
// which is compiled with -fexceptions; this header includes no Z3 header.
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_TARGETS_UCODE_VALIDATE_VALIDATE_H
#define NPCC_TARGETS_UCODE_VALIDATE_VALIDATE_H

#include "dialects/Match/IR/MatchOps.h"
#include "runtime/isa/ISA.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace npcc::validate {

enum class Verdict {
  Proved,    // same decision on every header and list
  Refuted,   // a counterexample that musim reproduces
  Undecided, // solver timeout, or a program shape the method cannot prove
};

struct Options {
  unsigned timeoutMs = 60000; // per solver query
};

struct Result {
  Verdict verdict = Verdict::Undecided;
  /// One line: what was proved, what differs, or why it is undecided.
  std::string message;
  /// Refuted: a header and a one-item list, and both answers as musim
  /// prints them ("match 0 offset 16 length 32", "no match").
  std::array<uint64_t, 8> header{}, item{};
  std::string microcodeAnswer, programAnswer;
  unsigned paths = 0, queries = 0;
  double seconds = 0; // processor time
};

/// Validates `words` (the image compiled from `program`). `program` is not
/// changed.
Result validateMatchProgram(match::ProgramOp program,
                            const std::vector<mu::Word> &words,
                            const Options &options = Options());

/// One line of a musim list or header file for `words`.
std::string itemLine(const std::array<uint64_t, 8> &words);

/// Validates and reports on llvm::errs(): a line "validated @Name: proved"
/// with the time, a warning when undecided, an error at the program's
/// location with the counterexample when refuted (also written to
/// PREFIX.headers and PREFIX.list, musim's input files, when `cexPrefix` is
/// not empty). Returns false only when refuted.
bool validateAndReport(match::ProgramOp program,
                       const std::vector<mu::Word> &words,
                       const Options &options, const std::string &cexPrefix);

} // namespace npcc::validate

#endif // NPCC_TARGETS_UCODE_VALIDATE_VALIDATE_H
