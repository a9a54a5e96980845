//===- Lexer.h - tokens of one line of match-unit assembly ------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Private to NPCCMatchISA. Splits one line (comment already removed) into
// identifiers (mnemonics such as `alu.add` are one identifier), numbers and
// one-character punctuation. Columns are 1-based byte columns.
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_RUNTIME_ISA_LEXER_H
#define NPCC_RUNTIME_ISA_LEXER_H

#include <cstdint>
#include <string>
#include <vector>

namespace npcc::mu {

struct Token {
  enum KindTy { Ident, Number, Punct, End } Kind = End;
  std::string Text;
  unsigned Col = 0;

  bool is(char C) const { return Kind == Punct && Text[0] == C; }
  /// For diagnostics: 'text' or "end of line".
  std::string describe() const;
};

/// Tokenizes \p Line and appends an End token. On a character that starts
/// no token, returns false with its column and a message.
bool lexLine(const std::string &Line, std::vector<Token> &Tokens,
             unsigned &ErrorCol, std::string &Error);

/// Value of a number token: decimal, 0x hex or 0b binary, at most 64 bits.
bool parseNumber(const std::string &Text, uint64_t &Value, std::string &Error);

} // namespace npcc::mu

#endif // NPCC_RUNTIME_ISA_LEXER_H
