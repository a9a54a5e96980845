//===- ClickParser.cpp - Click configuration text to syntax tree ----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// A recursive-descent parser for the part of Click's language npcc
// compiles: declarations, connections and chains with ports, elementclass
// with formal parameters, define and require. Click's groups `(...)`,
// anonymous compounds `{...}`, overloading (`||`, `...`), port lists and
// many-to-many `=>` connections are reported as unsupported at their place.
//
//===----------------------------------------------------------------------===//

#include "compiler/click/ClickParser.h"
#include "compiler/click/ClickLexer.h"
#include "compiler/frontend/Limits.h"
#include "compiler/frontend/Sema.h"

#include "mlir/IR/Diagnostics.h"

using namespace npcc;
using namespace npcc::click;

bool npcc::click::parseClickInteger(llvm::StringRef s, bool allowNegative,
                                    uint64_t &value, bool &negative) {
  negative = false;
  if (s.consume_front("-")) {
    if (!allowNegative)
      return false;
    negative = true;
  } else {
    s.consume_front("+");
  }
  unsigned base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s = s.drop_front(2);
  } else if (s.size() > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
    base = 2;
    s = s.drop_front(2);
  } else if (s.size() > 1 && s[0] == '0') {
    base = 8;
  }
  if (s.empty() || s.front() == '_' || s.back() == '_')
    return false;
  uint64_t v = 0;
  char prev = 0;
  for (char c : s) {
    if (c == '_') {
      if (prev == '_')
        return false;
      prev = c;
      continue;
    }
    prev = c;
    unsigned d;
    if (c >= '0' && c <= '9')
      d = c - '0';
    else if (c >= 'a' && c <= 'z')
      d = c - 'a' + 10;
    else if (c >= 'A' && c <= 'Z')
      d = c - 'A' + 10;
    else
      return false;
    if (d >= base)
      return false;
    if (v > (UINT64_MAX - d) / base)
      return false;
    v = v * base + d;
  }
  value = v;
  return true;
}

namespace {

class Parser {
public:
  Parser(mlir::MLIRContext *ctx, Program &program)
      : ctx(ctx), program(program), lex(ctx, program) {}

  bool parseFile() {
    while (ok) {
      const Token &t = lex.peek();
      if (t.kind == Token::Eof)
        break;
      if (auto s = parseStatement(0))
        program.statements.push_back(std::move(s));
    }
    return ok && !lex.failed();
  }

private:
  mlir::InFlightDiagnostic error(const Loc &l) {
    ok = false;
    return mlir::emitError(toLoc(ctx, l));
  }
  /// Reports `t` as unexpected unless the lexer already did.
  void unexpected(const Token &t, llvm::StringRef expected) {
    if (t.kind == Token::Error) {
      ok = false;
      return;
    }
    error(t.loc) << "expected " << expected << ", found " << t.describe();
  }

  std::unique_ptr<Statement> parseStatement(unsigned depth);
  std::unique_ptr<Statement> parseElementClass(const Token &kw, unsigned depth);
  bool parseConfigStatement(Statement &s);
  bool parseSet(std::vector<ElementRef> &set);
  bool parseElement(ElementRef &e);
  bool parsePort(int &port, Loc &loc);

  mlir::MLIRContext *ctx;
  Program &program;
  Lexer lex;
  bool ok = true;
};

} // namespace

std::unique_ptr<Statement> Parser::parseStatement(unsigned depth) {
  const Token &t = lex.peek();
  if (t.is(';')) {
    lex.next();
    return nullptr;
  }
  auto s = std::make_unique<Statement>();
  s->loc = t.loc;
  switch (t.kind) {
  case Token::ElementClass: {
    Token kw = lex.next();
    return parseElementClass(kw, depth);
  }
  case Token::Require:
  case Token::Define:
    s->kind = t.kind == Token::Require ? Statement::Require : Statement::Define;
    lex.next();
    if (!parseConfigStatement(*s))
      return nullptr;
    return s;
  case Token::Ident:
    break;
  default:
    if (t.is('[')) // an input port before the first element
      break;
    if (t.is('(') || t.is('{')) {
      error(t.loc) << (t.is('(') ? "element groups '( ... )'"
                                 : "anonymous compound elements '{ ... }'")
                   << " are not supported; declare an elementclass";
      return nullptr;
    }
    unexpected(lex.next(), "a declaration or connection");
    return nullptr;
  }
  s->kind = Statement::Connection;
  s->sets.emplace_back();
  if (!parseSet(s->sets.back()))
    return nullptr;
  while (lex.peek().kind == Token::Arrow ||
         lex.peek().kind == Token::DoubleArrow) {
    Token arrow = lex.next();
    if (arrow.kind == Token::DoubleArrow) {
      error(arrow.loc) << "many-to-many connections '=>' are not supported; "
                          "connect each port with '->'";
      return nullptr;
    }
    s->arrowLocs.push_back(arrow.loc);
    s->sets.emplace_back();
    if (!parseSet(s->sets.back()))
      return nullptr;
  }
  if (lex.peek().is(';'))
    lex.next();
  return s;
}

bool Parser::parseConfigStatement(Statement &s) {
  Token open = lex.next();
  if (!open.is('(')) {
    unexpected(open, "'('");
    return false;
  }
  s.config.loc = open.loc;
  if (!lex.readConfig(s.config)) {
    ok = false;
    return false;
  }
  if (lex.peek().is(';'))
    lex.next();
  return true;
}

std::unique_ptr<Statement> Parser::parseElementClass(const Token &kw,
                                                     unsigned depth) {
  auto s = std::make_unique<Statement>();
  s->kind = Statement::ElementClass;
  s->loc = kw.loc;
  Token name = lex.next();
  if (name.kind != Token::Ident) {
    unexpected(name, "an element class name after 'elementclass'");
    return nullptr;
  }
  s->name = name.text;
  s->loc = name.loc;
  Token t = lex.next();
  if (t.kind == Token::Ident) { // a synonym: elementclass A B
    s->synonymOf = t.text;
    s->synonymLoc = t.loc;
    if (lex.peek().is(';'))
      lex.next();
    return s;
  }
  if (!t.is('{')) {
    unexpected(t, "'{' or a class name");
    return nullptr;
  }
  if (depth + 1 >= limits::kMaxGraphDepth) {
    error(t.loc) << "elementclasses nested too deeply: more than "
                 << limits::kMaxGraphDepth << " levels";
    return nullptr;
  }
  // Formal parameters: `$a, $b |` or an empty list `|`.
  if (lex.peek().kind == Token::Variable) {
    while (true) {
      Token v = lex.next();
      if (v.kind != Token::Variable) {
        unexpected(v, "a formal parameter '$name'");
        return nullptr;
      }
      s->formals.push_back({v.loc, v.text});
      Token sep = lex.next();
      if (sep.is('|'))
        break;
      if (!sep.is(',')) {
        unexpected(sep, "',' or '|' after a formal parameter");
        return nullptr;
      }
    }
  } else if (lex.peek().is('|')) {
    lex.next();
  }
  while (ok) {
    const Token &b = lex.peek();
    if (b.is('}')) {
      lex.next();
      break;
    }
    if (b.kind == Token::DoubleBar || b.kind == Token::Ellipsis) {
      error(b.loc) << "overloaded elementclasses ('||', '...') are not "
                      "supported";
      return nullptr;
    }
    if (b.kind == Token::Eof) {
      error(b.loc) << "expected '}' to end elementclass '" << s->name << "'";
      return nullptr;
    }
    if (auto inner = parseStatement(depth + 1))
      s->body.push_back(std::move(inner));
  }
  if (!ok)
    return nullptr;
  if (lex.peek().is(';'))
    lex.next();
  return s;
}

bool Parser::parseSet(std::vector<ElementRef> &set) {
  while (true) {
    set.emplace_back();
    if (!parseElement(set.back()))
      return false;
    if (!lex.peek().is(','))
      return true;
    lex.next();
  }
}

bool Parser::parsePort(int &port, Loc &loc) {
  Token open = lex.next(); // '['
  Token n = lex.next();
  loc = n.loc;
  uint64_t v;
  bool neg;
  if (n.kind != Token::Ident || !parseClickInteger(n.text, false, v, neg) ||
      v > limits::kMaxPortArraySize) {
    if (n.is(']'))
      error(n.loc) << "expected a port number in '[]'";
    else if (n.kind == Token::Ident)
      error(n.loc) << "port number '" << n.text
                   << "' is not a non-negative integer";
    else
      unexpected(n, "a port number");
    return false;
  }
  port = (int)v;
  Token close = lex.next();
  if (close.is(',')) {
    error(close.loc) << "port lists '[a, b]' are not supported; connect each "
                        "port separately";
    return false;
  }
  if (!close.is(']')) {
    unexpected(close, "']' after the port number");
    return false;
  }
  (void)open;
  return true;
}

bool Parser::parseElement(ElementRef &e) {
  if (lex.peek().is('[') && !parsePort(e.inPort, e.inPortLoc))
    return false;
  Token t = lex.next();
  if (t.kind != Token::Ident) {
    if (t.is('(') || t.is('{'))
      error(t.loc) << (t.is('(') ? "element groups '( ... )'"
                                 : "anonymous compound elements '{ ... }'")
                   << " are not supported; declare an elementclass";
    else
      unexpected(t, "an element name or class");
    return false;
  }
  e.ident = t.text;
  e.loc = t.loc;
  if (lex.peek().kind == Token::DoubleColon) {
    lex.next();
    Token c = lex.next();
    if (c.kind != Token::Ident) {
      if (c.is('{'))
        error(c.loc) << "anonymous compound elements '{ ... }' are not "
                        "supported; declare an elementclass";
      else
        unexpected(c, "an element class after '::'");
      return false;
    }
    e.declares = true;
    e.className = c.text;
    e.classLoc = c.loc;
  }
  if (lex.peek().is('(')) {
    Token open = lex.next();
    e.config.loc = open.loc;
    if (!lex.readConfig(e.config)) {
      ok = false;
      return false;
    }
  }
  if (lex.peek().is('[') && !parsePort(e.outPort, e.outPortLoc))
    return false;
  return true;
}

bool npcc::click::parseClick(mlir::MLIRContext *ctx, Program &program) {
  program.lineStarts.assign(1, 0);
  for (size_t i = 0; i < program.text.size(); ++i)
    if (program.text[i] == '\n')
      program.lineStarts.push_back(i + 1);
  return Parser(ctx, program).parseFile();
}
