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

/// Operation codes, SLOT_NAME: ALU_ADD, IN_BOTH, BR_IF0, ...
#define MU_OP(SLOT, NAME, CODE, MNEMONIC, DOC) SLOT##_##NAME = CODE,
enum Op : unsigned {
#include "runtime/isa/MatchUnit.def"
};
/// Small encodings, GROUP_NAME: IMM_LO, ACC_OR, TAG_LENGTH, ...
#define MU_ENUM(GROUP, NAME, CODE, MNEMONIC, DOC) GROUP##_##NAME = CODE,
enum Enc : unsigned {
#include "runtime/isa/MatchUnit.def"
};

/// One wide word, one member per field, named SLOT_FIELD exactly as in
/// MatchUnit.def (IN_OP, ALU_IMM, PRED_FN1, ...): the preprocessor cannot
/// change case, and the names then match the document's tables.
/// Every member holds a value that fits its field's width.
struct Word {
#define MU_FIELD(SLOT, NAME, LSB, WIDTH, DOC) uint32_t SLOT##_##NAME = 0;
#include "runtime/isa/MatchUnit.def"
  bool operator==(const Word &Other) const;
  bool operator!=(const Word &Other) const { return !(*this == Other); }
};

/// The raw encoding: bits 0-63, 64-127, 128-177.
using Bits = std::array<uint64_t, WORD_U64S>;

Bits encode(const Word &W);
/// Fails (returns false) if bits above WORD_BITS are set.
bool decode(const Bits &B, Word &W);

/// Assembly text of one word in the syntax of docs/match-unit-isa.md, without
/// a label or indentation. `(*Labels)[Addr]` names branch target Addr; a
/// missing or empty entry (or no table) prints the number. A word the slot
/// syntax cannot express exactly prints as `.word HI, MID, LO`.
std::string printWord(const Word &W,
                      const std::vector<std::string> *Labels = nullptr);

/// A diagnostic of the assembler or the image reader.
struct Diag {
  std::string File;
  unsigned Line = 0, Col = 0; // 0 for image errors
  std::string Message;
  /// "file:line:col: error: message", or "file: error: message" if Line is 0.
  std::string str() const;
};

/// Assembles `Text`; on failure returns false with every error in `Diags`.
bool assemble(const std::string &File, const std::string &Text,
              std::vector<Word> &Program, std::vector<Diag> &Diags);

/// Parses the slots of one word (no label, comment or `.equ` constant), as
/// the `ucode` dialect writes a bundle. A branch to a label leaves BR_TARGET 0
/// and the name in `TargetLabel` (empty for a numeric target). On failure
/// returns false with the first error as "column N: message" in `Error`.
bool parseWordText(const std::string &Text, Word &W, std::string &TargetLabel,
                   std::string &Error);

/// Disassembles a program, one line per word, labelling branch targets
/// L<addr>.
std::string disassemble(const std::vector<Word> &Program);

/// The listing of a program: per word the 4-digit address, bits 128-177,
/// 64-127 and 0-63 in hex, and the canonical text, branch targets labelled
/// L<addr> (what `muasm --listing` and `npcc --target=ucode` write).
std::string listing(const std::vector<Word> &Program);

/// Image files (see docs/match-unit-isa.md, "Image").
std::vector<uint8_t> writeImage(const std::vector<Word> &Program);
bool readImage(const std::string &File, const std::vector<uint8_t> &Bytes,
               std::vector<Word> &Program, Diag &D);

} // namespace npcc::mu

#endif // NPCC_RUNTIME_ISA_ISA_H
