//===- MatchISATest.cpp - NPCCMatchISA units ------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Random words through encode/decode and through printWord/assemble: the
// printer's text always assembles back to the same word, whatever the bits.
//
//===----------------------------------------------------------------------===//

#include "runtime/isa/ISA.h"

#include <gtest/gtest.h>

#include <random>

using namespace npcc::mu;

namespace {

/// A word with random field values, most of them not canonical.
Word randomWord(std::mt19937_64 &Rng) {
  Word W;
#define MU_FIELD(SLOT, NAME, LSB, WIDTH, DOC)                                  \
  W.SLOT##_##NAME = static_cast<uint32_t>(Rng() & ((uint64_t(1) << WIDTH) - 1));
#include "runtime/isa/MatchUnit.def"
  return W;
}

Bits randomBits(std::mt19937_64 &Rng) {
  Bits B{};
  for (unsigned I = 0; I < WORD_U64S; ++I) {
    unsigned Valid = WORD_BITS - 64 * I < 64 ? WORD_BITS - 64 * I : 64;
    B[I] = Rng() & (Valid == 64 ? ~uint64_t(0) : (uint64_t(1) << Valid) - 1);
  }
  return B;
}

TEST(MatchISA, EncodeDecodeRoundTrip) {
  std::mt19937_64 Rng(1);
  for (int I = 0; I < 20000; ++I) {
    Word W = randomWord(Rng);
    Word D;
    ASSERT_TRUE(decode(encode(W), D));
    EXPECT_EQ(W, D);
    Bits B = randomBits(Rng);
    ASSERT_TRUE(decode(B, D));
    EXPECT_EQ(encode(D), B);
  }
}

TEST(MatchISA, DecodeRejectsHighBits) {
  Bits B{};
  B[WORD_U64S - 1] = uint64_t(1) << (WORD_BITS % 64);
  Word W;
  EXPECT_FALSE(decode(B, W));
}

/// Prints \p W, assembles the text and expects the same word back.
void expectTextRoundTrip(const Word &W) {
  std::string Text = printWord(W);
  std::vector<Word> Program;
  std::vector<Diag> Diags;
  bool Ok = assemble("t.mua", Text + "\n", Program, Diags);
  ASSERT_TRUE(Ok) << Text << "\n" << (Diags.empty() ? "" : Diags[0].str());
  ASSERT_EQ(Program.size(), 1u) << Text;
  EXPECT_EQ(Program[0], W) << Text;
}

TEST(MatchISA, PrintAssembleRandomWords) {
  std::mt19937_64 Rng(2);
  for (int I = 0; I < 20000; ++I)
    expectTextRoundTrip(randomWord(Rng));
}

/// Canonical words: each slot alone with random operands, so that the slot
/// syntax (not the .word fallback) is what round-trips.
TEST(MatchISA, PrintAssembleCanonicalSlots) {
  std::mt19937_64 Rng(3);
  unsigned Raw = 0;
  for (int I = 0; I < 20000; ++I) {
    Word R = randomWord(Rng), W;
    switch (I % 6) {
    case 0:
      if ((W.IN_OP = R.IN_OP) == IN_NONE)
        break;
      W.IN_RD = W.IN_OP != IN_TERN ? R.IN_RD : 0;
      W.IN_TD = W.IN_OP != IN_ALU ? R.IN_TD : 0;
      W.IN_TPERM = W.IN_OP != IN_ALU ? R.IN_TPERM : 0;
      W.IN_ENDP = R.IN_ENDP & 8 ? R.IN_ENDP : 0;
      break;
    case 1:
      if ((W.CP_OP = R.CP_OP % 3) == CP_NONE)
        break;
      W.CP_SRC = R.CP_SRC, W.CP_PRED = R.CP_PRED, W.CP_PNEG = R.CP_PNEG;
      W.CP_TD = W.CP_OP == CP_TERN ? R.CP_TD : 0;
      W.CP_TAG = W.CP_OP == CP_OUT ? R.CP_TAG : 0;
      break;
    case 2:
      if ((W.ALU_OP = R.ALU_OP) == ALU_NOP)
        break;
      W.ALU_RA = R.ALU_RA, W.ALU_RB = R.ALU_RB, W.ALU_SIMD = R.ALU_SIMD;
      if (W.ALU_OP == ALU_PERM) {
        W.ALU_IMM = R.ALU_IMM, W.ALU_CMPD = R.ALU_CMPD, W.ALU_ACC = R.ALU_ACC;
      } else if (R.ALU_IMMSEL % 3) {
        W.ALU_IMMSEL = R.ALU_IMMSEL % 3, W.ALU_IMM = R.ALU_IMM;
      }
      if (W.ALU_OP < ALU_EQ) {
        W.ALU_RD = R.ALU_RD, W.ALU_PRED = R.ALU_PRED, W.ALU_PNEG = R.ALU_PNEG;
      } else {
        W.ALU_CMPD = R.ALU_CMPD, W.ALU_LANES = R.ALU_LANES | 1;
        W.ALU_ACC = R.ALU_ACC % 3;
      }
      break;
    case 3:
      W.PRED_DST0 = R.PRED_DST0 | 1, W.PRED_FN0 = R.PRED_FN0;
      W.PRED_A0 = R.PRED_A0, W.PRED_B0 = R.PRED_B0;
      if (R.PRED_DST1)
        W.PRED_DST1 = R.PRED_DST1, W.PRED_FN1 = R.PRED_FN1,
        W.PRED_A1 = R.PRED_A1, W.PRED_B1 = R.PRED_B1;
      break;
    case 4:
      W.BR_OP = R.BR_OP;
      if (W.BR_OP == BR_IF1 || W.BR_OP == BR_IF0)
        W.BR_PRED = R.BR_PRED, W.BR_TARGET = R.BR_TARGET;
      break;
    default:
      if ((W.TERN_OP = R.TERN_OP % 3) == 0)
        break;
      W.TERN_TA = R.TERN_TA, W.TERN_TB = R.TERN_TB, W.TERN_TM = R.TERN_TM;
      W.TERN_SIMD = R.TERN_SIMD, W.TERN_LANES = R.TERN_LANES | 8;
      W.TERN_CMPD = R.TERN_CMPD, W.TERN_ACC = R.TERN_ACC % 3;
      break;
    }
    bool IsRaw = printWord(W).rfind(".word", 0) == 0;
    EXPECT_FALSE(IsRaw) << printWord(W);
    Raw += IsRaw;
    expectTextRoundTrip(W);
  }
  EXPECT_EQ(Raw, 0u);
}

TEST(MatchISA, ImageRoundTrip) {
  std::mt19937_64 Rng(4);
  std::vector<Word> Program;
  for (int I = 0; I < 1024; ++I)
    Program.push_back(randomWord(Rng));
  std::vector<Word> Back;
  Diag D;
  ASSERT_TRUE(readImage("x.mu", writeImage(Program), Back, D)) << D.str();
  EXPECT_EQ(Back, Program);
}

TEST(MatchISA, AssemblerSurvivesNoise) {
  std::mt19937_64 Rng(5);
  const std::string Alphabet =
      "rtp0123456789,=()?!&:|-;.xb \n\tabcdefhilmnoqsu";
  for (int I = 0; I < 2000; ++I) {
    std::string Text;
    for (int J = static_cast<int>(Rng() % 200); J > 0; --J)
      Text += Alphabet[Rng() % Alphabet.size()];
    std::vector<Word> Program;
    std::vector<Diag> Diags;
    if (!assemble("n.mua", Text, Program, Diags)) {
      EXPECT_FALSE(Diags.empty());
    }
  }
}

} // namespace
