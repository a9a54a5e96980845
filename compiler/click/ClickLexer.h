//===- ClickLexer.h - tokens of Click's configuration language --*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Click's lexical rules: identifiers of letters, digits, '_' and '@' with
// single '/' between them (`rt/lookup`), `$variables`, the connectors `->`
// and `=>`, `::`, `||`, `...`, `//` and `/* */` comments. A configuration
// string (the text between an element's parentheses) is not tokenized: it
// is read raw up to the matching ')' across quotes and comments.
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_CLICK_CLICKLEXER_H
#define NPCC_CLICK_CLICKLEXER_H

#include "compiler/click/ClickAST.h"
#include "mlir/IR/Diagnostics.h"

namespace npcc::click {

struct Token {
  enum Kind {
    Eof,
    Ident,
    Variable, // text without '$'
    Arrow,    // ->
    DoubleArrow,
    DoubleColon,
    DoubleBar,
    Ellipsis,
    Punct, // one character: [ ] ( ) { } , ; |
    ElementClass,
    Require,
    Define,
    Error, // already reported
  } kind = Eof;
  std::string text;
  size_t offset = 0;
  Loc loc;

  bool is(char c) const {
    return kind == Punct && text.size() == 1 && text[0] == c;
  }
  /// How a diagnostic names the token: `'->'`, `identifier 'x'`, ...
  std::string describe() const;
};

class Lexer {
public:
  Lexer(mlir::MLIRContext *ctx, const Program &program)
      : ctx(ctx), program(program), text(program.text) {}

  Token next();
  const Token &peek();

  /// After an opening parenthesis: reads the configuration up to the
  /// matching ')', which is consumed. Reports an unterminated one.
  bool readConfig(Config &out);

  /// Whether the lexer reported an error.
  bool failed() const { return hadError; }

private:
  Token lex();
  void skipSpaceAndComments();
  mlir::InFlightDiagnostic error(const Loc &l);

  mlir::MLIRContext *ctx;
  const Program &program;
  const std::string &text;
  size_t pos = 0;
  bool hasPeeked = false;
  bool hadError = false;
  Token peeked;
};

} // namespace npcc::click

#endif // NPCC_CLICK_CLICKLEXER_H
