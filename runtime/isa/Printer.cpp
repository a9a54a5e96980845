//===- Printer.cpp - match-unit words as canonical assembly ---------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Prints the syntax of docs/match-unit-isa.md ("Assembly"): slots in word
// order joined by " | ", options only when they differ from their default.
// While printing, every field the text conveys is copied into `Shown`, the
// word the assembler will build from the text; if it differs from the input
// (a field the syntax cannot express is set), the word prints as `.word`.
//
//===----------------------------------------------------------------------===//

#include "runtime/isa/ISA.h"
#include "runtime/isa/Mnemonics.h"

#include <cinttypes>
#include <cstdio>

using namespace npcc::mu;

namespace {
class WordPrinter {
public:
  WordPrinter(const Word &W, const std::vector<std::string> *Labels)
      : W(W), Labels(Labels) {}
  std::string print();

private:
  void printIn();
  void printCp();
  void printAlu();
  void printTern();
  void compareOptions(uint32_t Lanes, uint32_t Acc, uint32_t &ShownLanes,
                      uint32_t &ShownAcc);
  void printPred();
  void printBr();
  void guard(unsigned Pred, unsigned Neg, uint32_t &ShownPred,
             uint32_t &ShownNeg);
  std::string target(unsigned Addr);

  const Word &W;
  const std::vector<std::string> *Labels;
  Word Shown;
  std::string Slot; // the slot being printed
  std::vector<std::string> Slots;
};
} // namespace

static std::string hex(uint64_t V) {
  char Buf[24];
  std::snprintf(Buf, sizeof(Buf), "0x%" PRIx64, V);
  return Buf;
}

static std::string hexDigits(uint64_t V, unsigned Digits) {
  char Buf[24];
  std::snprintf(Buf, sizeof(Buf), "0x%0*" PRIx64, static_cast<int>(Digits), V);
  return Buf;
}

static std::string bin(uint64_t V, unsigned Digits) {
  std::string S = "0b";
  for (unsigned I = Digits; I-- > 0;)
    S += (V >> I) & 1 ? '1' : '0';
  return S;
}

static std::string reg(char File, unsigned N) {
  return File + std::to_string(N);
}

void WordPrinter::guard(unsigned Pred, unsigned Neg, uint32_t &ShownPred,
                        uint32_t &ShownNeg) {
  if (Pred == 0 && Neg == 0)
    return;
  Slot += Neg ? " ? !" : " ? ";
  Slot += reg('p', Pred);
  ShownPred = Pred;
  ShownNeg = Neg;
}

std::string WordPrinter::target(unsigned Addr) {
  if (Labels && Addr < Labels->size() && !(*Labels)[Addr].empty())
    return (*Labels)[Addr];
  return std::to_string(Addr);
}

void WordPrinter::printIn() {
  const char *M = opMnemonic(SLOT_IN, W.IN_OP);
  if (!M || !*M)
    return;
  Shown.IN_OP = W.IN_OP;
  Slot = M;
  bool R = W.IN_OP == IN_ALU || W.IN_OP == IN_BOTH;
  bool T = W.IN_OP == IN_TERN || W.IN_OP == IN_BOTH;
  const char *Sep = " ";
  if (R) {
    Slot += Sep + reg('r', W.IN_RD);
    Shown.IN_RD = W.IN_RD;
    Sep = ", ";
  }
  if (T) {
    Slot += Sep + reg('t', W.IN_TD);
    Shown.IN_TD = W.IN_TD;
    Shown.IN_TPERM = IdentityPerm;
    if (W.IN_TPERM != IdentityPerm) {
      Slot += ", perm=" + hexDigits(W.IN_TPERM, 2);
      Shown.IN_TPERM = W.IN_TPERM;
    }
  }
  if (W.IN_ENDP >= PRED_CMP_FIRST) {
    Slot += ", end=" + reg('p', W.IN_ENDP);
    Shown.IN_ENDP = W.IN_ENDP;
  }
  Slots.push_back(Slot);
}

void WordPrinter::printCp() {
  const char *M = opMnemonic(SLOT_CP, W.CP_OP);
  if (!M || !*M)
    return;
  Shown.CP_OP = W.CP_OP;
  Slot = M;
  if (W.CP_OP == CP_TERN) {
    Slot += " " + reg('t', W.CP_TD) + ", " + reg('r', W.CP_SRC);
    Shown.CP_TD = W.CP_TD;
    Shown.CP_SRC = W.CP_SRC;
  } else {
    Slot += " " + reg('r', W.CP_SRC) + ", " + enumMnemonic("TAG", W.CP_TAG);
    Shown.CP_SRC = W.CP_SRC;
    Shown.CP_TAG = W.CP_TAG;
  }
  guard(W.CP_PRED, W.CP_PNEG, Shown.CP_PRED, Shown.CP_PNEG);
  Slots.push_back(Slot);
}

void WordPrinter::printAlu() {
  if (W.ALU_OP == ALU_NOP)
    return;
  Shown.ALU_OP = W.ALU_OP;
  Slot = std::string("alu.") + opMnemonic(SLOT_ALU, W.ALU_OP);
  bool Compare = isAluCompare(W.ALU_OP);
  Slot += " ";
  if (Compare) {
    Slot += reg('p', PRED_CMP_FIRST + W.ALU_CMPD);
    Shown.ALU_CMPD = W.ALU_CMPD;
  } else {
    Slot += reg('r', W.ALU_RD);
    Shown.ALU_RD = W.ALU_RD;
  }
  Slot += ", " + reg('r', W.ALU_RA) + ", " + reg('r', W.ALU_RB);
  Shown.ALU_RA = W.ALU_RA;
  Shown.ALU_RB = W.ALU_RB;

  if (W.ALU_OP == ALU_PERM) {
    Slot += ", sel=" + hexDigits(W.ALU_IMM, 8);
    Shown.ALU_IMM = W.ALU_IMM;
    // zero= spreads over cmpd (bits 0-2), acc (bits 3-4), simd (bits 5-7).
    unsigned Zero = W.ALU_CMPD | W.ALU_ACC << 3 | W.ALU_SIMD << 5;
    if (Zero)
      Slot += ", zero=" + bin(Zero, 8);
    Shown.ALU_CMPD = W.ALU_CMPD;
    Shown.ALU_ACC = W.ALU_ACC;
    Shown.ALU_SIMD = W.ALU_SIMD;
  } else {
    if (const char *Sel = enumMnemonic("IMM", W.ALU_IMMSEL); Sel && *Sel) {
      Slot += std::string(", ") + Sel + "=" + hex(W.ALU_IMM);
      Shown.ALU_IMMSEL = W.ALU_IMMSEL;
      Shown.ALU_IMM = W.ALU_IMM;
    }
    Shown.ALU_SIMD = W.ALU_SIMD;
    if (W.ALU_SIMD != DefaultSimd)
      Slot += ", simd=" + bin(W.ALU_SIMD, LANES - 1);
  }

  if (!Compare) {
    guard(W.ALU_PRED, W.ALU_PNEG, Shown.ALU_PRED, Shown.ALU_PNEG);
  } else {
    compareOptions(W.ALU_LANES, W.ALU_ACC, Shown.ALU_LANES, Shown.ALU_ACC);
  }
  Slots.push_back(Slot);
}

/// The lanes and accumulation options of a compare, when not default.
void WordPrinter::compareOptions(uint32_t Lanes, uint32_t Acc,
                                 uint32_t &ShownLanes, uint32_t &ShownAcc) {
  ShownLanes = DefaultLanes;
  if (Lanes != DefaultLanes && Lanes != 0) {
    Slot += ", lanes=" + bin(Lanes, LANES);
    ShownLanes = Lanes;
  }
  const char *Name = enumMnemonic("ACC", Acc);
  if (Name && Acc != ACC_SET) {
    Slot += std::string(", acc=") + Name;
    ShownAcc = Acc;
  }
}

void WordPrinter::printTern() {
  const char *M = opMnemonic(SLOT_TERN, W.TERN_OP);
  if (!M || !*M)
    return;
  Shown.TERN_OP = W.TERN_OP;
  Slot = std::string(M) + " " + reg('p', PRED_CMP_FIRST + W.TERN_CMPD) + ", " +
         reg('t', W.TERN_TA) + ", " + reg('t', W.TERN_TB) + ", " +
         reg('t', W.TERN_TM);
  Shown.TERN_CMPD = W.TERN_CMPD;
  Shown.TERN_TA = W.TERN_TA;
  Shown.TERN_TB = W.TERN_TB;
  Shown.TERN_TM = W.TERN_TM;
  Shown.TERN_SIMD = W.TERN_SIMD;
  if (W.TERN_SIMD != DefaultSimd)
    Slot += ", simd=" + bin(W.TERN_SIMD, LANES - 1);
  compareOptions(W.TERN_LANES, W.TERN_ACC, Shown.TERN_LANES, Shown.TERN_ACC);
  Slots.push_back(Slot);
}

static std::string logicUnit(unsigned Dst, unsigned A, unsigned B,
                             unsigned Fn) {
  const char *Name = predFnName(Fn);
  return reg('p', Dst) + " = " + (Name ? Name : hex(Fn)) + "(" + reg('p', A) +
         ", " + reg('p', B) + ")";
}

void WordPrinter::printPred() {
  // Unit 1 alone has no syntax: `pred` fills unit 0 first.
  if (W.PRED_DST0 == 0)
    return;
  Slot = "pred " + logicUnit(W.PRED_DST0, W.PRED_A0, W.PRED_B0, W.PRED_FN0);
  Shown.PRED_DST0 = W.PRED_DST0;
  Shown.PRED_A0 = W.PRED_A0;
  Shown.PRED_B0 = W.PRED_B0;
  Shown.PRED_FN0 = W.PRED_FN0;
  if (W.PRED_DST1 != 0) {
    Slot += ", " + logicUnit(W.PRED_DST1, W.PRED_A1, W.PRED_B1, W.PRED_FN1);
    Shown.PRED_DST1 = W.PRED_DST1;
    Shown.PRED_A1 = W.PRED_A1;
    Shown.PRED_B1 = W.PRED_B1;
    Shown.PRED_FN1 = W.PRED_FN1;
  }
  Slots.push_back(Slot);
}

void WordPrinter::printBr() {
  const char *M = opMnemonic(SLOT_BR, W.BR_OP);
  if (!M || !*M)
    return;
  Shown.BR_OP = W.BR_OP;
  if (W.BR_OP == BR_HALT) {
    Slots.push_back(M);
    return;
  }
  Shown.BR_PRED = W.BR_PRED;
  Shown.BR_TARGET = W.BR_TARGET;
  if (W.BR_OP == BR_IF1 && W.BR_PRED == 0)
    Slots.push_back("jmp " + target(W.BR_TARGET));
  else
    Slots.push_back(std::string(M) + " " + reg('p', W.BR_PRED) + ", " +
                    target(W.BR_TARGET));
}

std::string WordPrinter::print() {
  printIn();
  printCp();
  printAlu();
  printTern();
  printPred();
  printBr();
  if (Shown != W) {
    Bits B = encode(W);
    return ".word " + hexDigits(B[2], 16) + ", " + hexDigits(B[1], 16) + ", " +
           hexDigits(B[0], 16);
  }
  if (Slots.empty())
    return "nop";
  std::string Text;
  for (const std::string &S : Slots)
    Text += (Text.empty() ? "" : " | ") + S;
  return Text;
}

std::string npcc::mu::printWord(const Word &W,
                                const std::vector<std::string> *Labels) {
  return WordPrinter(W, Labels).print();
}

std::string npcc::mu::disassemble(const std::vector<Word> &Program) {
  std::vector<std::string> Labels(Program.size());
  for (const Word &W : Program)
    if ((W.BR_OP == BR_IF1 || W.BR_OP == BR_IF0) &&
        W.BR_TARGET < Program.size())
      Labels[W.BR_TARGET] = "L" + std::to_string(W.BR_TARGET);
  std::string Out;
  for (size_t Addr = 0; Addr < Program.size(); ++Addr) {
    std::string Prefix = Labels[Addr].empty() ? "" : Labels[Addr] + ":";
    Prefix.resize(Prefix.size() < 8 ? 8 : Prefix.size() + 1, ' ');
    Out += Prefix + printWord(Program[Addr], &Labels) + "\n";
  }
  return Out;
}

std::string npcc::mu::listing(const std::vector<Word> &Program) {
  std::vector<std::string> Labels(Program.size());
  for (const Word &W : Program)
    if ((W.BR_OP == BR_IF1 || W.BR_OP == BR_IF0) &&
        W.BR_TARGET < Program.size())
      Labels[W.BR_TARGET] = "L" + std::to_string(W.BR_TARGET);
  std::string Out;
  for (size_t Addr = 0; Addr < Program.size(); ++Addr) {
    Bits B = encode(Program[Addr]);
    char Buf[80];
    std::snprintf(Buf, sizeof(Buf),
                  "%04zu  %016" PRIx64 " %016" PRIx64 " %016" PRIx64 "  ", Addr,
                  B[2], B[1], B[0]);
    std::string Label = Labels[Addr].empty() ? "" : Labels[Addr] + ": ";
    Out += Buf + Label + printWord(Program[Addr], &Labels) + "\n";
  }
  return Out;
}
