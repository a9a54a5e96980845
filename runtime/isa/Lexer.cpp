//===- Lexer.cpp - tokens of one line of match-unit assembly --------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "runtime/isa/Lexer.h"

#include <cstdio>
#include <cstring>

using namespace npcc::mu;

static bool isIdentStart(char C) {
  return (C >= 'a' && C <= 'z') || (C >= 'A' && C <= 'Z') || C == '_' ||
         C == '.';
}
static bool isDigit(char C) { return C >= '0' && C <= '9'; }
static bool isIdentChar(char C) { return isIdentStart(C) || isDigit(C); }

std::string Token::describe() const {
  if (Kind == End)
    return "end of line";
  return "'" + Text + "'";
}

bool npcc::mu::lexLine(const std::string &Line, std::vector<Token> &Tokens,
                       unsigned &ErrorCol, std::string &Error) {
  size_t I = 0, N = Line.size();
  while (I < N) {
    char C = Line[I];
    if (C == ' ' || C == '\t' || C == '\r' || C == '\v' || C == '\f') {
      ++I;
      continue;
    }
    Token T;
    T.Col = static_cast<unsigned>(I + 1);
    size_t Begin = I;
    if (isIdentStart(C) || isDigit(C)) {
      T.Kind = isDigit(C) ? Token::Number : Token::Ident;
      while (I < N && isIdentChar(Line[I]))
        ++I;
    } else if (std::strchr(",=()?!&:|-", C) && C != '\0') {
      T.Kind = Token::Punct;
      ++I;
    } else {
      ErrorCol = T.Col;
      unsigned char U = static_cast<unsigned char>(C);
      char Buf[48];
      if (U >= 0x20 && U < 0x7f)
        std::snprintf(Buf, sizeof(Buf), "unexpected character '%c'", C);
      else
        std::snprintf(Buf, sizeof(Buf), "unexpected byte 0x%02x", U);
      Error = Buf;
      return false;
    }
    T.Text = Line.substr(Begin, I - Begin);
    Tokens.push_back(std::move(T));
  }
  Token EndTok;
  EndTok.Col = static_cast<unsigned>(N + 1);
  Tokens.push_back(EndTok);
  return true;
}

bool npcc::mu::parseNumber(const std::string &Text, uint64_t &Value,
                           std::string &Error) {
  unsigned Base = 10;
  size_t I = 0;
  if (Text.size() > 2 && Text[0] == '0' && (Text[1] == 'x' || Text[1] == 'X'))
    Base = 16, I = 2;
  else if (Text.size() > 2 && Text[0] == '0' &&
           (Text[1] == 'b' || Text[1] == 'B'))
    Base = 2, I = 2;
  Value = 0;
  for (; I < Text.size(); ++I) {
    char C = Text[I];
    unsigned D = 99;
    if (isDigit(C))
      D = C - '0';
    else if (C >= 'a' && C <= 'f')
      D = C - 'a' + 10;
    else if (C >= 'A' && C <= 'F')
      D = C - 'A' + 10;
    if (D >= Base) {
      Error = "invalid number '" + Text + "'";
      return false;
    }
    if (Value > (UINT64_MAX - D) / Base) {
      Error = "number '" + Text + "' does not fit in 64 bits";
      return false;
    }
    Value = Value * Base + D;
  }
  return true;
}
