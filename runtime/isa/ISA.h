//===- ISA.h - match-unit words, encoding and images ------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// A decoded wide word with one plain field per MatchUnit.def field, and the
// conversions every tool shares: bits <-> Word, Word <-> assembly text,
// program <-> image file. Everything here is generated from or checked
// against MatchUnit.def; nothing restates a bit position.
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_RUNTIME_ISA_ISA_H
#define NPCC_RUNTIME_ISA_ISA_H

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace npcc::mu {

#define MU_PARAM(NAME, VALUE, DOC) constexpr unsigned NAME = VALUE;
#include "runtime/isa/MatchUnit.def"

/// Operation codes, e.g. AluOp::ADD, InOp::BOTH, BrOp::IF0.
#define MU_OP(SLOT, NAME, CODE, MNEMONIC, DOC) SLOT##_##NAME = CODE,
enum Op : unsigned {
#include "runtime/isa/MatchUnit.def"
};
/// Small encodings, e.g. IMM_LO, ACC_OR, TAG_LENGTH.
#define MU_ENUM(GROUP, NAME, CODE, MNEMONIC, DOC) GROUP##_##NAME = CODE,
enum Enc : unsigned {
#include "runtime/isa/MatchUnit.def"
};

/// One wide word, one member per field (named SLOT_FIELD in lower case:
/// in_op, alu_imm, pred_fn1, ...).
struct Word {
#define MU_FIELD(SLOT, NAME, LSB, WIDTH, DOC) uint32_t SLOT##_##NAME = 0;
#include "runtime/isa/MatchUnit.def"
  bool operator==(const Word &o) const;
  bool operator!=(const Word &o) const { return !(*this == o); }
};

/// The raw encoding: bits 0-63, 64-127, 128-177.
using Bits = std::array<uint64_t, WORD_U64S>;

Bits encode(const Word &w);
/// Fails (returns false) if bits above WORD_BITS are set.
bool decode(const Bits &bits, Word &w);

/// Assembly text of one word in the syntax of docs/match-unit-isa.md;
/// `labelFor` names branch targets (empty: print the number).
std::string printWord(const Word &w,
                      const std::vector<std::string> *labels = nullptr);

/// A diagnostic of the assembler or the image reader.
struct Diag {
  std::string file;
  unsigned line = 0, col = 0; // 0 for image errors
  std::string message;
  std::string str() const; // "file:line:col: error: message"
};

/// Assembles `text`; on failure returns false with every error in `diags`.
bool assemble(const std::string &file, const std::string &text,
              std::vector<Word> &program, std::vector<Diag> &diags);

/// Disassembles a program, labelling branch targets L<addr>.
std::string disassemble(const std::vector<Word> &program);

/// Image files (see docs/match-unit-isa.md, "Image").
std::vector<uint8_t> writeImage(const std::vector<Word> &program);
bool readImage(const std::string &file, const std::vector<uint8_t> &bytes,
               std::vector<Word> &program, Diag &diag);

} // namespace npcc::mu

#endif // NPCC_RUNTIME_ISA_ISA_H
