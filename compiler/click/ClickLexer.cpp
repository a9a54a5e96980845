//===- ClickLexer.cpp - tokens of Click's configuration language ----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/click/ClickLexer.h"
#include "compiler/frontend/Sema.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <cctype>

using namespace npcc;
using namespace npcc::click;

Loc Program::locAt(size_t offset) const {
  auto it = std::upper_bound(lineStarts.begin(), lineStarts.end(), offset);
  size_t line = it - lineStarts.begin(); // 1-based: lineStarts[0] == 0
  Loc l;
  l.file = file;
  l.line = (unsigned)line;
  l.col = (unsigned)(offset - lineStarts[line - 1] + 1);
  return l;
}

std::string Token::describe() const {
  switch (kind) {
  case Eof:
    return "end of file";
  case Ident:
    return "identifier '" + text + "'";
  case Variable:
    return "variable '$" + text + "'";
  case ElementClass:
  case Require:
  case Define:
    return "'" + text + "'";
  default:
    return "'" + text + "'";
  }
}

static bool isWordChar(char c) {
  return std::isalnum((unsigned char)c) || c == '_' || c == '@';
}

void Lexer::skipSpaceAndComments() {
  while (pos < text.size()) {
    char c = text[pos];
    if (std::isspace((unsigned char)c)) {
      ++pos;
    } else if (c == '/' && pos + 1 < text.size() && text[pos + 1] == '/') {
      while (pos < text.size() && text[pos] != '\n')
        ++pos;
    } else if (c == '/' && pos + 1 < text.size() && text[pos + 1] == '*') {
      size_t end = text.find("*/", pos + 2);
      if (end == std::string::npos) {
        error(program.locAt(pos)) << "unterminated '/*' comment";
        pos = text.size();
        return;
      }
      pos = end + 2;
    } else {
      return;
    }
  }
}

mlir::InFlightDiagnostic Lexer::error(const Loc &l) {
  hadError = true;
  return mlir::emitError(toLoc(ctx, l));
}

const Token &Lexer::peek() {
  if (!hasPeeked) {
    peeked = lex();
    hasPeeked = true;
  }
  return peeked;
}

Token Lexer::next() {
  if (hasPeeked) {
    hasPeeked = false;
    return std::move(peeked);
  }
  return lex();
}

Token Lexer::lex() {
  skipSpaceAndComments();
  Token t;
  t.offset = pos;
  t.loc = program.locAt(pos);
  if (pos >= text.size()) {
    t.kind = Token::Eof;
    return t;
  }
  size_t start = pos;
  char c = text[pos];
  if (isWordChar(c)) {
    // A '/' continues an identifier when a word character follows it.
    while (pos < text.size() && (isWordChar(text[pos]) ||
                                 (text[pos] == '/' && pos + 1 < text.size() &&
                                  isWordChar(text[pos + 1]))))
      ++pos;
    t.text = text.substr(start, pos - start);
    t.kind = t.text == "elementclass" ? Token::ElementClass
             : t.text == "require"    ? Token::Require
             : t.text == "define"     ? Token::Define
                                      : Token::Ident;
    return t;
  }
  if (c == '$') {
    ++pos;
    while (pos < text.size() &&
           (std::isalnum((unsigned char)text[pos]) || text[pos] == '_'))
      ++pos;
    t.kind = Token::Variable;
    t.text = text.substr(start + 1, pos - start - 1);
    if (t.text.empty()) {
      error(t.loc) << "expected a variable name after '$'";
      t.kind = Token::Error;
    }
    return t;
  }
  auto two = [&](const char *s, Token::Kind k) {
    if (text.compare(pos, 2, s) != 0)
      return false;
    pos += 2;
    t.kind = k;
    t.text = s;
    return true;
  };
  if (two("->", Token::Arrow) || two("=>", Token::DoubleArrow) ||
      two("::", Token::DoubleColon) || two("||", Token::DoubleBar))
    return t;
  if (text.compare(pos, 3, "...") == 0) {
    pos += 3;
    t.kind = Token::Ellipsis;
    t.text = "...";
    return t;
  }
  if (llvm::StringRef("[](){},;|").contains(c)) {
    ++pos;
    t.kind = Token::Punct;
    t.text = std::string(1, c);
    return t;
  }
  ++pos;
  t.kind = Token::Error;
  auto d = error(t.loc);
  if (std::isprint((unsigned char)c))
    d << "unexpected character '" << c << "'";
  else
    d << "unexpected byte 0x" << llvm::utohexstr((unsigned char)c, true);
  return t;
}

bool Lexer::readConfig(Config &out) {
  assert(!hasPeeked && "a configuration is read right after '('");
  out.present = true;
  out.offset = pos;
  unsigned depth = 1;
  for (size_t s = pos; s < text.size(); ++s) {
    char c = text[s];
    if (c == '(') {
      ++depth;
    } else if (c == ')') {
      if (--depth == 0) {
        out.text = text.substr(pos, s - pos);
        pos = s + 1;
        return true;
      }
    } else if (c == '/' && s + 1 < text.size() && text[s + 1] == '/') {
      while (s + 1 < text.size() && text[s + 1] != '\n')
        ++s;
    } else if (c == '/' && s + 1 < text.size() && text[s + 1] == '*') {
      size_t end = text.find("*/", s + 2);
      if (end == std::string::npos)
        break;
      s = end + 1;
    } else if (c == '"' || c == '\'') {
      size_t q = s + 1;
      while (q < text.size() && text[q] != c) {
        if (c == '"' && text[q] == '\\')
          ++q;
        ++q;
      }
      if (q >= text.size()) {
        error(program.locAt(s))
            << "unterminated " << (c == '"' ? "double" : "single")
            << "-quoted string";
        pos = text.size();
        return false;
      }
      s = q;
    }
  }
  error(out.loc)
      << "unterminated configuration: expected ')' to match this '('";
  pos = text.size();
  return false;
}
