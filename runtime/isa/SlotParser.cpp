//===- SlotParser.cpp - parse the slots of one assembly word --------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "runtime/isa/SlotParser.h"
#include "runtime/isa/Mnemonics.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <initializer_list>

using namespace npcc::mu;

namespace {
/// `key=value` after the operands of a slot.
struct Option {
  std::string Key;
  unsigned Col = 0;
  std::vector<Token> Val; // End-terminated, for parseValue
  bool Used = false;
};

class SlotParser {
public:
  SlotParser(const std::vector<Token> &Toks, SlotContext &Ctx, Word &W,
             LabelUse &Use)
      : Toks(Toks), Ctx(Ctx), W(W), Use(Use) {}
  bool parse(Slot S, const std::string &Mnemonic);

private:
  const Token &peek() const { return Toks[Pos]; }
  bool fail(const Token &T, const std::string &Message) {
    Ctx.error(T.Col, Message);
    return false;
  }
  bool expect(char C);
  bool reg(char File, unsigned &N);
  bool predIn(unsigned Min, unsigned Max, const char *Rule, unsigned &N);
  bool options(std::initializer_list<const char *> Allowed);
  Option *option(const char *Key);
  bool optField(const char *Key, uint64_t Min, uint64_t Max, uint32_t &Out);
  bool optImm(uint32_t &Sel, uint32_t &Imm);
  bool optAcc(uint32_t &Acc);
  bool guard(uint32_t &Pred, uint32_t &Neg);
  bool finish();

  bool parseIn(unsigned Op);
  bool parseCp(unsigned Op);
  bool parseAlu(unsigned Op);
  bool parseTern(unsigned Op);
  bool parsePred();
  bool parseLogicUnit(uint32_t &Dst, uint32_t &A, uint32_t &B, uint32_t &Fn);
  bool parseBr(const std::string &Mnemonic);

  const std::vector<Token> &Toks;
  size_t Pos = 1; // Toks[0] is the mnemonic
  SlotContext &Ctx;
  Word &W;
  LabelUse &Use;
  std::string Mnemonic;
  std::vector<Option> Opts;
};
} // namespace

bool npcc::mu::parseValue(const std::vector<Token> &Tokens, size_t &Pos,
                          SlotContext &Ctx, Value &V) {
  const Token &First = Tokens[Pos];
  V = Value();
  if (First.is('-')) {
    V.Neg = true;
    ++Pos;
  }
  const Token &T = Tokens[Pos];
  if (T.Kind == Token::Number) {
    std::string Error;
    if (!parseNumber(T.Text, V.Mag, Error)) {
      Ctx.error(T.Col, Error);
      return false;
    }
  } else if (T.Kind == Token::Ident) {
    auto It = Ctx.Consts.find(T.Text);
    if (It == Ctx.Consts.end()) {
      Ctx.error(T.Col, "undefined constant '" + T.Text + "'");
      return false;
    }
    bool Neg = V.Neg;
    V = It->second;
    if (Neg)
      V.Neg = !V.Neg;
  } else {
    Ctx.error(T.Col, "expected a number, found " + T.describe());
    return false;
  }
  if (V.Mag == 0)
    V.Neg = false;
  ++Pos;
  return true;
}

bool SlotParser::expect(char C) {
  if (peek().is(C)) {
    ++Pos;
    return true;
  }
  return fail(peek(),
              std::string("expected '") + C + "', found " + peek().describe());
}

/// r0..r15, t0..t15 or p0..p15.
bool SlotParser::reg(char File, unsigned &N) {
  unsigned Count = File == 'r' ? ALU_REGS : File == 't' ? TERN_REGS : PRED_REGS;
  const char *What = File == 'r'   ? "an ALU register"
                     : File == 't' ? "a ternary register"
                                   : "a predicate";
  std::string Range =
      std::string(1, File) + "0.." + File + std::to_string(Count - 1);
  const Token &T = peek();
  bool Shape = T.Kind == Token::Ident && T.Text.size() > 1 &&
               T.Text[0] == File &&
               T.Text.find_first_not_of("0123456789", 1) == std::string::npos;
  if (!Shape)
    return fail(T, std::string("expected ") + What + " (" + Range +
                       "), found " + T.describe());
  if (T.Text.size() > 4 || std::stoul(T.Text.substr(1)) >= Count)
    return fail(T, "register '" + T.Text + "' out of range (" + Range + ")");
  N = static_cast<unsigned>(std::stoul(T.Text.substr(1)));
  ++Pos;
  return true;
}

bool SlotParser::predIn(unsigned Min, unsigned Max, const char *Rule,
                        unsigned &N) {
  const Token &T = peek();
  if (!reg('p', N))
    return false;
  if (N < Min || N > Max)
    return fail(T, std::string(Rule) + ", not '" + T.Text + "'");
  return true;
}

static const char *const KnownOptions[] = {"perm",  "end", "lo",  "hi",  "simd",
                                           "lanes", "acc", "sel", "zero"};

bool SlotParser::options(std::initializer_list<const char *> Allowed) {
  bool Ok = true;
  while (peek().is(',')) {
    ++Pos;
    Option O;
    const Token &Key = peek();
    if (Key.Kind != Token::Ident)
      return fail(Key, "expected an option, found " + Key.describe());
    O.Key = Key.Text;
    O.Col = Key.Col;
    ++Pos;
    if (!expect('='))
      return false;
    if (peek().is('-'))
      O.Val.push_back(Toks[Pos++]);
    if (peek().Kind != Token::Ident && peek().Kind != Token::Number)
      return fail(peek(), "expected a value for '" + O.Key + "', found " +
                              peek().describe());
    O.Val.push_back(Toks[Pos++]);
    Token EndTok;
    EndTok.Col = peek().Col;
    O.Val.push_back(EndTok);

    bool Known = false, Valid = false;
    for (const char *K : KnownOptions)
      Known |= O.Key == K;
    for (const char *K : Allowed)
      Valid |= O.Key == K;
    if (!Known)
      Ok = fail(Key, "unknown option '" + O.Key + "'");
    else if (!Valid)
      Ok = fail(Key,
                "option '" + O.Key + "' is not valid for '" + Mnemonic + "'");
    else if (option(O.Key.c_str()))
      Ok = fail(Key, "duplicate option '" + O.Key + "'");
    else
      Opts.push_back(std::move(O));
  }
  return Ok;
}

Option *SlotParser::option(const char *Key) {
  for (Option &O : Opts)
    if (O.Key == Key)
      return &O;
  return nullptr;
}

/// An unsigned option value in [Min, Max]; leaves \p Out alone if absent.
bool SlotParser::optField(const char *Key, uint64_t Min, uint64_t Max,
                          uint32_t &Out) {
  Option *O = option(Key);
  if (!O)
    return true;
  size_t P = 0;
  Value V;
  if (!parseValue(O->Val, P, Ctx, V))
    return false;
  if (V.Neg || V.Mag < Min || V.Mag > Max) {
    char Buf[96];
    std::snprintf(Buf, sizeof(Buf),
                  "'%s' value %s%" PRIu64 " out of range (%" PRIu64 "..%" PRIu64
                  ")",
                  Key, V.Neg ? "-" : "", V.Mag, Min, Max);
    if (Min == 1 && V.Mag == 0)
      std::snprintf(Buf, sizeof(Buf), "'%s' must be nonzero", Key);
    Ctx.error(O->Val.front().Col, Buf);
    return false;
  }
  Out = static_cast<uint32_t>(V.Mag);
  return true;
}

/// lo=X or hi=X: a 32-bit immediate, signed or unsigned.
bool SlotParser::optImm(uint32_t &Sel, uint32_t &Imm) {
  Option *Lo = option("lo"), *Hi = option("hi");
  if (Lo && Hi) {
    Ctx.error(std::max(Lo->Col, Hi->Col), "'lo' and 'hi' cannot be combined");
    return false;
  }
  Option *O = Lo ? Lo : Hi;
  if (!O)
    return true;
  size_t P = 0;
  Value V;
  if (!parseValue(O->Val, P, Ctx, V))
    return false;
  if (V.Neg ? V.Mag > (uint64_t(1) << 31) : V.Mag > UINT32_MAX)
    return fail(O->Val.front(),
                "'" + O->Key + "' value does not fit in 32 bits");
  Imm = static_cast<uint32_t>(V.Neg ? 0 - V.Mag : V.Mag);
  findEnum("IMM", O->Key, Sel);
  return true;
}

bool SlotParser::optAcc(uint32_t &Acc) {
  Option *O = option("acc");
  if (!O)
    return true;
  const Token &T = O->Val.front();
  unsigned Code;
  if (O->Val.size() != 2 || !findEnum("ACC", T.Text, Code))
    return fail(T, "expected 'set', 'and' or 'or' for 'acc', found " +
                       T.describe());
  Acc = Code;
  return true;
}

bool SlotParser::guard(uint32_t &Pred, uint32_t &Neg) {
  if (!peek().is('?'))
    return true;
  ++Pos;
  if (peek().is('!')) {
    Neg = 1;
    ++Pos;
  }
  unsigned P;
  if (!reg('p', P))
    return false;
  Pred = P;
  return true;
}

bool SlotParser::finish() {
  if (peek().is('?'))
    return fail(peek(), "a guard is not allowed on '" + Mnemonic + "'");
  if (peek().Kind != Token::End)
    return fail(peek(), "unexpected " + peek().describe());
  return true;
}

bool SlotParser::parseIn(unsigned Op) {
  W.IN_OP = Op;
  unsigned N;
  if (Op != IN_TERN) {
    if (!reg('r', N))
      return false;
    W.IN_RD = N;
  }
  if (Op != IN_ALU) {
    if (Op == IN_BOTH && !expect(','))
      return false;
    if (!reg('t', N))
      return false;
    W.IN_TD = N;
    W.IN_TPERM = IdentityPerm;
  }
  if (Op == IN_ALU ? !options({"end"}) : !options({"perm", "end"}))
    return false;
  if (!optField("perm", 0, 255, W.IN_TPERM))
    return false;
  if (Option *O = option("end")) {
    SlotParser Sub(O->Val, Ctx, W, Use);
    Sub.Pos = 0;
    if (!Sub.predIn(PRED_CMP_FIRST, PRED_REGS - 1, "'end=' takes p8..p15", N) ||
        !Sub.finish())
      return false;
    W.IN_ENDP = N;
  }
  return finish();
}

bool SlotParser::parseCp(unsigned Op) {
  W.CP_OP = Op;
  unsigned N;
  if (Op == CP_TERN) {
    if (!reg('t', N))
      return false;
    W.CP_TD = N;
    if (!expect(',') || !reg('r', N))
      return false;
    W.CP_SRC = N;
  } else {
    if (!reg('r', N))
      return false;
    W.CP_SRC = N;
    if (!expect(','))
      return false;
    unsigned Tag;
    if (!findEnum("TAG", peek().Text, Tag) || peek().Kind != Token::Ident)
      return fail(peek(), "expected an output tag (fail, off, len, data), "
                          "found " +
                              peek().describe());
    ++Pos;
    W.CP_TAG = Tag;
  }
  if (!options({}) || !guard(W.CP_PRED, W.CP_PNEG))
    return false;
  return finish();
}

bool SlotParser::parseAlu(unsigned Op) {
  W.ALU_OP = Op;
  bool Compare = isAluCompare(Op);
  unsigned N;
  if (Compare) {
    if (!predIn(PRED_CMP_FIRST, PRED_REGS - 1, "compares write p8..p15", N))
      return false;
    W.ALU_CMPD = N - PRED_CMP_FIRST;
  } else {
    if (!reg('r', N))
      return false;
    W.ALU_RD = N;
  }
  if (!expect(',') || !reg('r', N))
    return false;
  W.ALU_RA = N;
  if (!expect(',') || !reg('r', N))
    return false;
  W.ALU_RB = N;

  if (Op == ALU_PERM) {
    if (!options({"sel", "zero"}))
      return false;
    if (!option("sel"))
      return fail(peek(), "'alu.perm' needs 'sel='");
    uint32_t Zero = 0;
    if (!optField("sel", 0, UINT32_MAX, W.ALU_IMM) ||
        !optField("zero", 0, 255, Zero))
      return false;
    W.ALU_CMPD = Zero & 7;
    W.ALU_ACC = (Zero >> 3) & 3;
    W.ALU_SIMD = Zero >> 5;
  } else {
    W.ALU_SIMD = DefaultSimd;
    if (Compare) {
      W.ALU_LANES = DefaultLanes;
      if (!options({"lo", "hi", "simd", "lanes", "acc"}) ||
          !optField("lanes", 1, DefaultLanes, W.ALU_LANES) ||
          !optAcc(W.ALU_ACC))
        return false;
    } else if (!options({"lo", "hi", "simd"})) {
      return false;
    }
    if (!optField("simd", 0, DefaultSimd, W.ALU_SIMD) ||
        !optImm(W.ALU_IMMSEL, W.ALU_IMM))
      return false;
  }
  if (!Compare && !guard(W.ALU_PRED, W.ALU_PNEG))
    return false;
  return finish();
}

bool SlotParser::parseTern(unsigned Op) {
  W.TERN_OP = Op;
  unsigned N;
  if (!predIn(PRED_CMP_FIRST, PRED_REGS - 1, "compares write p8..p15", N))
    return false;
  W.TERN_CMPD = N - PRED_CMP_FIRST;
  uint32_t *Regs[] = {&W.TERN_TA, &W.TERN_TB, &W.TERN_TM};
  for (uint32_t *R : Regs) {
    if (!expect(',') || !reg('t', N))
      return false;
    *R = N;
  }
  W.TERN_SIMD = DefaultSimd;
  W.TERN_LANES = DefaultLanes;
  if (!options({"simd", "lanes", "acc"}) ||
      !optField("simd", 0, DefaultSimd, W.TERN_SIMD) ||
      !optField("lanes", 1, DefaultLanes, W.TERN_LANES) || !optAcc(W.TERN_ACC))
    return false;
  return finish();
}

/// pD = FN(pA, pB), FN a name or a 4-bit number.
bool SlotParser::parseLogicUnit(uint32_t &Dst, uint32_t &A, uint32_t &B,
                                uint32_t &Fn) {
  unsigned N;
  if (!predIn(PRED_UNIT_FIRST, PRED_UNIT_LAST,
              "the predicate unit writes p1..p7", N))
    return false;
  Dst = N;
  if (!expect('='))
    return false;
  const Token &First = peek();
  std::string Name;
  size_t Start = Pos;
  // A name is adjacent identifiers, '!' and '&': `a&!b`.
  while ((peek().Kind == Token::Ident || peek().is('!') || peek().is('&')) &&
         (Name.empty() || peek().Col == First.Col + Name.size()))
    Name += Toks[Pos++].Text;
  unsigned Code;
  if (!Name.empty() && findPredFn(Name, Code)) {
    Fn = Code;
  } else {
    Pos = Start;
    Value V;
    if (First.Kind == Token::Ident && !Ctx.Consts.count(First.Text))
      return fail(First, "unknown predicate function '" + Name + "'");
    if (First.Kind != Token::Ident && First.Kind != Token::Number)
      return fail(First,
                  "expected a predicate function, found " + First.describe());
    if (!parseValue(Toks, Pos, Ctx, V))
      return false;
    if (V.Neg || V.Mag > 15)
      return fail(First,
                  "predicate function " + First.Text + " out of range (0..15)");
    Fn = static_cast<uint32_t>(V.Mag);
  }
  if (!expect('(') || !reg('p', N))
    return false;
  A = N;
  if (!expect(',') || !reg('p', N))
    return false;
  B = N;
  return expect(')');
}

bool SlotParser::parsePred() {
  if (!parseLogicUnit(W.PRED_DST0, W.PRED_A0, W.PRED_B0, W.PRED_FN0))
    return false;
  if (peek().is(',')) {
    ++Pos;
    if (!parseLogicUnit(W.PRED_DST1, W.PRED_A1, W.PRED_B1, W.PRED_FN1))
      return false;
    if (peek().is(','))
      return fail(peek(), "the predicate unit has only two logic units");
  }
  return finish();
}

bool SlotParser::parseBr(const std::string &M) {
  if (M == "halt") {
    W.BR_OP = BR_HALT;
    return finish();
  }
  unsigned P = 0;
  W.BR_OP = BR_IF1;
  if (M == "brn")
    W.BR_OP = BR_IF0;
  if (M != "jmp") {
    if (!reg('p', P) || !expect(','))
      return false;
  }
  W.BR_PRED = P;
  const Token &T = peek();
  if (T.Kind == Token::Ident && !Ctx.Consts.count(T.Text)) {
    Use.Label = T.Text;
    Use.Col = T.Col;
    ++Pos;
    return finish();
  }
  Value V;
  if (!parseValue(Toks, Pos, Ctx, V))
    return false;
  if (V.Neg || V.Mag >= MAX_WORDS)
    return fail(T, std::string("branch target ") + (V.Neg ? "-" : "") +
                       std::to_string(V.Mag) + " out of range (0.." +
                       std::to_string(MAX_WORDS - 1) + ")");
  W.BR_TARGET = static_cast<uint32_t>(V.Mag);
  return finish();
}

bool SlotParser::parse(Slot S, const std::string &M) {
  Mnemonic = M;
  unsigned Code = 0;
  switch (S) {
  case SLOT_IN:
    findOp(SLOT_IN, M, Code);
    return parseIn(Code);
  case SLOT_CP:
    findOp(SLOT_CP, M, Code);
    return parseCp(Code);
  case SLOT_ALU:
    findOp(SLOT_ALU, M.substr(4), Code);
    return parseAlu(Code);
  case SLOT_TERN:
    findOp(SLOT_TERN, M, Code);
    return parseTern(Code);
  case SLOT_PRED:
    return parsePred();
  case SLOT_BR:
    return parseBr(M);
  default:
    return false;
  }
}

/// The slot a mnemonic belongs to, or NUM_SLOTS if it names none.
static Slot slotOf(const std::string &M) {
  unsigned Code;
  if (M.compare(0, 4, "alu.") == 0)
    return findOp(SLOT_ALU, M.substr(4), Code) ? SLOT_ALU : NUM_SLOTS;
  if (M == "pred")
    return SLOT_PRED;
  if (M == "jmp")
    return SLOT_BR;
  for (Slot S : {SLOT_IN, SLOT_CP, SLOT_TERN, SLOT_BR})
    if (findOp(S, M, Code))
      return S;
  return NUM_SLOTS;
}

/// `.word HI, MID, LO`: a raw encoding, alone on its line.
static bool parseRawWord(const std::vector<Token> &Toks, SlotContext &Ctx,
                         Word &W) {
  size_t Pos = 1;
  Bits B{};
  for (unsigned I = 0; I < WORD_U64S; ++I) {
    if (I) {
      if (!Toks[Pos].is(',')) {
        Ctx.error(Toks[Pos].Col, "expected ',', found " + Toks[Pos].describe());
        return false;
      }
      ++Pos;
    }
    const Token &T = Toks[Pos];
    Value V;
    if (!parseValue(Toks, Pos, Ctx, V))
      return false;
    if (V.Neg) {
      Ctx.error(T.Col, "'.word' takes unsigned values");
      return false;
    }
    B[WORD_U64S - 1 - I] = V.Mag;
  }
  if (Toks[Pos].Kind != Token::End) {
    Ctx.error(Toks[Pos].Col, "unexpected " + Toks[Pos].describe());
    return false;
  }
  if (!decode(B, W)) {
    Ctx.error(Toks[1].Col,
              "'.word' sets bits above bit " + std::to_string(WORD_BITS - 1));
    return false;
  }
  return true;
}

bool npcc::mu::parseWord(const std::vector<Token> &Tokens, SlotContext &Ctx,
                         Word &W, LabelUse &Use) {
  // Split at '|' into End-terminated segments.
  std::vector<std::vector<Token>> Segments(1);
  for (const Token &T : Tokens) {
    if (T.is('|') || T.Kind == Token::End) {
      Token EndTok;
      EndTok.Col = T.Col;
      Segments.back().push_back(EndTok);
      if (T.Kind != Token::End)
        Segments.emplace_back();
      continue;
    }
    Segments.back().push_back(T);
  }

  bool Ok = true;
  bool Used[NUM_SLOTS] = {};
  for (const std::vector<Token> &Seg : Segments) {
    const Token &M = Seg.front();
    if (M.Kind == Token::End) {
      Ctx.error(M.Col, "expected a slot");
      Ok = false;
      continue;
    }
    if (M.Kind != Token::Ident) {
      Ctx.error(M.Col, "expected a mnemonic, found " + M.describe());
      Ok = false;
      continue;
    }
    if (M.Text == "nop" || M.Text == ".word") {
      if (Segments.size() > 1) {
        Ctx.error(M.Col, "'" + M.Text + "' cannot be combined with slots");
        Ok = false;
      } else if (M.Text == ".word") {
        Ok &= parseRawWord(Seg, Ctx, W);
      } else if (Seg[1].Kind != Token::End) {
        Ctx.error(Seg[1].Col, "unexpected " + Seg[1].describe());
        Ok = false;
      }
      continue;
    }
    Slot S = slotOf(M.Text);
    if (S == NUM_SLOTS) {
      Ctx.error(M.Col, "unknown mnemonic '" + M.Text + "'");
      Ok = false;
      continue;
    }
    if (Used[S]) {
      Ctx.error(M.Col, "duplicate '" + slotName(S) + "' slot in one word");
      Ok = false;
      continue;
    }
    Used[S] = true;
    Ok &= SlotParser(Seg, Ctx, W, Use).parse(S, M.Text);
  }
  return Ok;
}
