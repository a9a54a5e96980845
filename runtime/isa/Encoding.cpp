//===- Encoding.cpp - match-unit words to bits and back -------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Every bit position comes from the MU_FIELD lines of MatchUnit.def; the
// static_assert below proves that the fields tile the word, each inside its
// slot, so an edit of the .def that breaks the layout fails to compile.
//
//===----------------------------------------------------------------------===//

#include "runtime/isa/ISA.h"
#include "runtime/isa/Mnemonics.h"

using namespace npcc::mu;

namespace {
struct Range {
  unsigned Slot, Lsb, Width;
};
} // namespace

static constexpr Range SlotRanges[] = {
#define MU_SLOT(NAME, LSB, WIDTH, DOC) {SLOT_##NAME, LSB, WIDTH},
#include "runtime/isa/MatchUnit.def"
};

static constexpr Range FieldRanges[] = {
#define MU_FIELD(SLOT, NAME, LSB, WIDTH, DOC) {SLOT_##SLOT, LSB, WIDTH},
#include "runtime/isa/MatchUnit.def"
};

/// Each bit of the word belongs to exactly one field, which lies in its slot;
/// slots follow each other in word order; fields fit a uint32_t.
static constexpr bool layoutIsSound() {
  unsigned Next = 0;
  for (const Range &S : SlotRanges) {
    if (S.Lsb != Next)
      return false;
    Next += S.Width;
  }
  if (Next != WORD_BITS || WORD_BITS > 64 * WORD_U64S)
    return false;
  for (unsigned Bit = 0; Bit < WORD_BITS; ++Bit) {
    unsigned Owners = 0;
    for (const Range &F : FieldRanges) {
      if (F.Width == 0 || F.Width > 32)
        return false;
      const Range &S = SlotRanges[F.Slot];
      if (F.Lsb < S.Lsb || F.Lsb + F.Width > S.Lsb + S.Width)
        return false;
      if (Bit >= F.Lsb && Bit < F.Lsb + F.Width)
        ++Owners;
    }
    if (Owners != 1)
      return false;
  }
  return true;
}
static_assert(layoutIsSound(), "MatchUnit.def fields must tile the word");

static uint64_t lowMask(unsigned Width) {
  return Width >= 64 ? ~uint64_t(0) : (uint64_t(1) << Width) - 1;
}

/// Writes \p Value into bits [Lsb, Lsb+Width) of \p B, across u64s if needed.
static void putField(Bits &B, unsigned Lsb, unsigned Width, uint64_t Value) {
  Value &= lowMask(Width);
  for (unsigned Done = 0; Done < Width;) {
    unsigned Bit = Lsb + Done, Off = Bit % 64;
    unsigned Chunk = Width - Done < 64 - Off ? Width - Done : 64 - Off;
    B[Bit / 64] |= ((Value >> Done) & lowMask(Chunk)) << Off;
    Done += Chunk;
  }
}

static uint32_t getField(const Bits &B, unsigned Lsb, unsigned Width) {
  uint64_t Value = 0;
  for (unsigned Done = 0; Done < Width;) {
    unsigned Bit = Lsb + Done, Off = Bit % 64;
    unsigned Chunk = Width - Done < 64 - Off ? Width - Done : 64 - Off;
    Value |= ((B[Bit / 64] >> Off) & lowMask(Chunk)) << Done;
    Done += Chunk;
  }
  return static_cast<uint32_t>(Value);
}

bool Word::operator==(const Word &Other) const {
  bool Same = true;
#define MU_FIELD(SLOT, NAME, LSB, WIDTH, DOC)                                  \
  Same = Same && SLOT##_##NAME == Other.SLOT##_##NAME;
#include "runtime/isa/MatchUnit.def"
  return Same;
}

Bits npcc::mu::encode(const Word &W) {
  Bits B{};
#define MU_FIELD(SLOT, NAME, LSB, WIDTH, DOC)                                  \
  putField(B, LSB, WIDTH, W.SLOT##_##NAME);
#include "runtime/isa/MatchUnit.def"
  return B;
}

bool npcc::mu::decode(const Bits &B, Word &W) {
  for (unsigned I = 0; I < WORD_U64S; ++I) {
    unsigned Valid = WORD_BITS > 64 * I ? WORD_BITS - 64 * I : 0;
    if (B[I] & ~lowMask(Valid))
      return false;
  }
#define MU_FIELD(SLOT, NAME, LSB, WIDTH, DOC)                                  \
  W.SLOT##_##NAME = getField(B, LSB, WIDTH);
#include "runtime/isa/MatchUnit.def"
  return true;
}
