//===- Assembler.cpp - match-unit assembly to words -----------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The program level of docs/match-unit-isa.md ("Assembly"): one word per
// line, labels, `.equ`, comments, the 1024-word limit and label fixups.
// Slot syntax is SlotParser.cpp. Every error is reported; parsing resumes
// at the next slot or line, so no input can stop it early.
//
//===----------------------------------------------------------------------===//

#include "runtime/isa/ISA.h"
#include "runtime/isa/Lexer.h"
#include "runtime/isa/SlotParser.h"

#include <algorithm>
#include <map>

using namespace npcc::mu;

namespace {
struct Fixup {
  size_t Addr;
  LabelUse Use;
  unsigned Line;
};

class Assembler : public SlotContext {
public:
  Assembler(const std::string &File, std::vector<Diag> &Diags)
      : SlotContext(ConstTable), File(File), Diags(Diags) {}
  void error(unsigned Col, const std::string &Message) override {
    errorAt(LineNo, Col, Message);
  }
  void line(const std::string &Text, unsigned No);
  void finish(std::vector<Word> &Program);

private:
  void errorAt(unsigned Line, unsigned Col, const std::string &Message) {
    Diags.push_back(Diag{File, Line, Col, Message});
  }
  bool defineName(const Token &T, bool Const);
  void equ(const std::vector<Token> &Toks, size_t Pos);

  std::map<std::string, Value> ConstTable;
  std::string File;
  std::vector<Diag> &Diags;
  std::map<std::string, size_t> Labels;
  std::vector<std::string> PendingLabels; // alone on their line
  std::vector<Fixup> Fixups;
  std::vector<Word> Words;
  size_t NumWords = 0; // may exceed Words.size() past the limit
  unsigned LineNo = 0;
};
} // namespace

/// Checks that a label (or, with \p Const, a constant) name is new.
bool Assembler::defineName(const Token &T, bool Const) {
  const char *Kind = Const ? "constant" : "label";
  bool IsLabel = Labels.count(T.Text), IsConst = ConstTable.count(T.Text);
  if (IsLabel || IsConst) {
    if (IsConst == Const)
      error(T.Col, std::string("duplicate ") + Kind + " '" + T.Text + "'");
    else
      error(T.Col, "'" + T.Text + "' is already a " +
                       (IsConst ? "constant" : "label"));
    return false;
  }
  return true;
}

/// `.equ NAME value` (Toks[Pos] is `.equ`).
void Assembler::equ(const std::vector<Token> &Toks, size_t Pos) {
  const Token &Name = Toks[Pos + 1];
  if (Name.Kind != Token::Ident) {
    error(Name.Col, "expected a name after '.equ', found " + Name.describe());
    return;
  }
  Pos += 2;
  Value V;
  if (!parseValue(Toks, Pos, *this, V))
    return;
  if (Toks[Pos].Kind != Token::End) {
    error(Toks[Pos].Col, "unexpected " + Toks[Pos].describe());
    return;
  }
  if (defineName(Name, /*Const=*/true))
    ConstTable[Name.Text] = V;
}

void Assembler::line(const std::string &Raw, unsigned No) {
  LineNo = No;
  std::string Text = Raw.substr(0, Raw.find(';'));
  std::vector<Token> Toks;
  unsigned ErrCol = 0;
  std::string Err;
  bool Lexed = lexLine(Text, Toks, ErrCol, Err);

  // Leading labels: `name:`.
  size_t Pos = 0;
  std::vector<const Token *> LineLabels;
  while (Pos + 1 < Toks.size() && Toks[Pos].Kind == Token::Ident &&
         Toks[Pos + 1].is(':')) {
    LineLabels.push_back(&Toks[Pos]);
    Pos += 2;
  }
  bool IsEqu = Pos < Toks.size() && Toks[Pos].Kind == Token::Ident &&
               Toks[Pos].Text == ".equ";
  if (!Lexed) {
    error(ErrCol, Err);
    if (IsEqu)
      return;
  } else if (IsEqu) {
    if (!LineLabels.empty())
      error(LineLabels.front()->Col, "a label cannot precede '.equ'");
    else
      equ(Toks, Pos);
    return;
  } else if (Toks.size() == 1) {
    return; // blank or comment only
  }

  // A label alone on its line names the next word, as in other assemblers.
  if (Lexed && Pos + 1 == Toks.size()) {
    for (const Token *L : LineLabels)
      if (defineName(*L, /*Const=*/false))
        PendingLabels.push_back(L->Text);
    return;
  }

  // Everything else is one word.
  size_t Addr = NumWords++;
  if (Addr == MAX_WORDS)
    error(1, "program is longer than " + std::to_string(MAX_WORDS) + " words");
  for (const std::string &Name : PendingLabels)
    Labels[Name] = Addr;
  PendingLabels.clear();
  for (const Token *L : LineLabels)
    if (defineName(*L, /*Const=*/false))
      Labels[L->Text] = Addr;
  Word W;
  LabelUse Use;
  if (Lexed && Pos + 1 < Toks.size()) {
    std::vector<Token> Rest(Toks.begin() + Pos, Toks.end());
    parseWord(Rest, *this, W, Use);
  }
  if (!Use.Label.empty())
    Fixups.push_back(Fixup{Addr, Use, LineNo});
  if (Addr < MAX_WORDS)
    Words.push_back(W);
}

void Assembler::finish(std::vector<Word> &Program) {
  // Labels after the last word name the address past the end.
  for (const std::string &Name : PendingLabels)
    Labels[Name] = NumWords;
  for (const Fixup &F : Fixups) {
    auto It = Labels.find(F.Use.Label);
    if (It == Labels.end()) {
      errorAt(F.Line, F.Use.Col, "undefined label '" + F.Use.Label + "'");
      continue;
    }
    if (It->second >= MAX_WORDS) {
      errorAt(F.Line, F.Use.Col,
              "branch target '" + F.Use.Label + "' (" +
                  std::to_string(It->second) + ") out of range (0.." +
                  std::to_string(MAX_WORDS - 1) + ")");
      continue;
    }
    if (F.Addr < Words.size())
      Words[F.Addr].BR_TARGET = static_cast<uint32_t>(It->second);
  }
  Program = std::move(Words);
}

bool npcc::mu::assemble(const std::string &File, const std::string &Text,
                        std::vector<Word> &Program, std::vector<Diag> &Diags) {
  size_t Before = Diags.size();
  Assembler A(File, Diags);
  unsigned No = 0;
  for (size_t Begin = 0; Begin < Text.size();) {
    size_t End = Text.find('\n', Begin);
    if (End == std::string::npos)
      End = Text.size();
    A.line(Text.substr(Begin, End - Begin), ++No);
    Begin = End + 1;
  }
  std::vector<Word> Words;
  A.finish(Words);
  if (Diags.size() != Before) {
    // Fixup errors come last; report in file order.
    std::stable_sort(
        Diags.begin() + Before, Diags.end(), [](const Diag &L, const Diag &R) {
          return L.Line != R.Line ? L.Line < R.Line : L.Col < R.Col;
        });
    return false;
  }
  Program = std::move(Words);
  return true;
}

namespace {
/// Keeps the first error of a single word.
struct FirstError : SlotContext {
  std::string Message;
  FirstError() : SlotContext(NoConsts) {}
  void error(unsigned Col, const std::string &M) override {
    if (Message.empty())
      Message = "column " + std::to_string(Col) + ": " + M;
  }
  std::map<std::string, Value> NoConsts;
};
} // namespace

bool npcc::mu::parseWordText(const std::string &Text, Word &W,
                             std::string &TargetLabel, std::string &Error) {
  W = Word();
  TargetLabel.clear();
  std::vector<Token> Toks;
  unsigned ErrCol = 0;
  FirstError Ctx;
  if (!lexLine(Text, Toks, ErrCol, Error)) {
    Error = "column " + std::to_string(ErrCol) + ": " + Error;
    return false;
  }
  LabelUse Use;
  if (!parseWord(Toks, Ctx, W, Use)) {
    Error = Ctx.Message.empty() ? "invalid word" : Ctx.Message;
    return false;
  }
  TargetLabel = Use.Label;
  return true;
}
