//===- Image.cpp - match-unit image files ---------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// docs/match-unit-isa.md, "Image": a 16-byte little-endian header (magic
// NPMU, version, word bits, word count, FNV-1a 32 of the payload) and then
// WORD_U64S little-endian u64 per word. Each way a file can be wrong has its
// own message.
//
//===----------------------------------------------------------------------===//

#include "runtime/isa/ISA.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

using namespace npcc::mu;

static constexpr uint8_t Magic[4] = {'N', 'P', 'M', 'U'};
static constexpr unsigned ImageVersion = 1;
static constexpr size_t HeaderBytes = 16;
static constexpr size_t WordBytes = 8 * WORD_U64S;

static uint32_t fnv1a(const uint8_t *Data, size_t Size) {
  uint32_t Hash = 2166136261u;
  for (size_t I = 0; I < Size; ++I) {
    Hash ^= Data[I];
    Hash *= 16777619u;
  }
  return Hash;
}

static void putLE(std::vector<uint8_t> &Out, uint64_t V, unsigned Bytes) {
  for (unsigned I = 0; I < Bytes; ++I)
    Out.push_back(static_cast<uint8_t>(V >> (8 * I)));
}

static uint64_t getLE(const uint8_t *P, unsigned Bytes) {
  uint64_t V = 0;
  for (unsigned I = 0; I < Bytes; ++I)
    V |= uint64_t(P[I]) << (8 * I);
  return V;
}

std::vector<uint8_t> npcc::mu::writeImage(const std::vector<Word> &Program) {
  std::vector<uint8_t> Payload;
  for (const Word &W : Program)
    for (uint64_t Part : encode(W))
      putLE(Payload, Part, 8);
  std::vector<uint8_t> Out(Magic, Magic + 4);
  putLE(Out, ImageVersion, 2);
  putLE(Out, WORD_BITS, 2);
  putLE(Out, Program.size(), 4);
  putLE(Out, fnv1a(Payload.data(), Payload.size()), 4);
  Out.insert(Out.end(), Payload.begin(), Payload.end());
  return Out;
}

bool npcc::mu::readImage(const std::string &File,
                         const std::vector<uint8_t> &Bytes,
                         std::vector<Word> &Program, Diag &D) {
  auto Fail = [&](const std::string &Message) {
    D = Diag{File, 0, 0, Message};
    return false;
  };
  size_t Size = Bytes.size();
  if (Size == 0)
    return Fail("empty file, not a match-unit image");
  if (Size < 4 || !std::equal(Magic, Magic + 4, Bytes.begin()))
    return Fail("bad magic: not a match-unit image (expected 'NPMU')");
  if (Size < HeaderBytes)
    return Fail("truncated header: " + std::to_string(Size) + " of " +
                std::to_string(HeaderBytes) + " bytes");
  const uint8_t *P = Bytes.data();
  uint64_t Version = getLE(P + 4, 2), NumBits = getLE(P + 6, 2);
  uint64_t Count = getLE(P + 8, 4), Sum = getLE(P + 12, 4);
  if (Version != ImageVersion)
    return Fail("unsupported image version " + std::to_string(Version) +
                " (expected " + std::to_string(ImageVersion) + ")");
  if (NumBits != WORD_BITS)
    return Fail("word size " + std::to_string(NumBits) + " bits (expected " +
                std::to_string(WORD_BITS) + ")");
  if (Count > MAX_WORDS)
    return Fail("word count " + std::to_string(Count) + " exceeds " +
                std::to_string(MAX_WORDS));
  size_t Need = HeaderBytes + Count * WordBytes;
  if (Size < Need)
    return Fail("truncated payload: " + std::to_string(Size - HeaderBytes) +
                " of " + std::to_string(Count * WordBytes) + " bytes");
  if (Size > Need)
    return Fail(std::to_string(Size - Need) +
                " bytes of trailing data after the payload");
  uint32_t Actual = fnv1a(P + HeaderBytes, Count * WordBytes);
  if (Actual != Sum) {
    char Buf[96];
    std::snprintf(Buf, sizeof(Buf),
                  "checksum mismatch: header 0x%08" PRIx64
                  ", payload 0x%08" PRIx32,
                  Sum, Actual);
    return Fail(Buf);
  }
  std::vector<Word> Words(Count);
  for (size_t I = 0; I < Count; ++I) {
    Bits B;
    for (unsigned J = 0; J < WORD_U64S; ++J)
      B[J] = getLE(P + HeaderBytes + I * WordBytes + 8 * J, 8);
    if (!decode(B, Words[I]))
      return Fail("word " + std::to_string(I) + " has bits set above bit " +
                  std::to_string(WORD_BITS - 1));
  }
  Program = std::move(Words);
  return true;
}
