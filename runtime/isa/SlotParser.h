//===- SlotParser.h - parse the slots of one assembly word ------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Private to NPCCMatchISA. The slot syntax of docs/match-unit-isa.md
// ("Assembly"): one `|`-separated slot at a time, into a Word. The
// program-level parts (labels, `.equ`, word count, fixups) are Assembler.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_RUNTIME_ISA_SLOTPARSER_H
#define NPCC_RUNTIME_ISA_SLOTPARSER_H

#include "runtime/isa/ISA.h"
#include "runtime/isa/Lexer.h"

#include <map>
#include <string>
#include <vector>

namespace npcc::mu {

/// A number as written: magnitude and sign.
struct Value {
  uint64_t Mag = 0;
  bool Neg = false;
};

/// A branch target naming a label, resolved when the file is done.
struct LabelUse {
  std::string Label;
  unsigned Col = 0;
};

/// What the slot parser needs from the assembler.
struct SlotContext {
  const std::map<std::string, Value> &Consts;
  /// Reports an error at a column of the current line.
  virtual void error(unsigned Col, const std::string &Message) = 0;
  explicit SlotContext(const std::map<std::string, Value> &Consts)
      : Consts(Consts) {}
  virtual ~SlotContext() = default;
};

/// Parses the slots of one word from \p Tokens (one line, End-terminated,
/// labels removed) into \p W. Reports every error through \p Ctx and
/// returns false if there was one. A branch to a label is left in \p Use.
bool parseWord(const std::vector<Token> &Tokens, SlotContext &Ctx, Word &W,
               LabelUse &Use);

/// Value of a number or `.equ` constant at \p Tokens[Pos] (with an optional
/// leading '-'); advances \p Pos.
bool parseValue(const std::vector<Token> &Tokens, size_t &Pos, SlotContext &Ctx,
                Value &V);

} // namespace npcc::mu

#endif // NPCC_RUNTIME_ISA_SLOTPARSER_H
