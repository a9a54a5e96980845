//===- ChecksumTest.cpp - nprt_pkt_csum against RFC 1071 ------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// nprt_pkt_csum and nprt_pkt_csum_inline sum eight bytes at a time in the
// host's byte order; the definition sums big-endian 16-bit words one by
// one. They must agree on
// every range (clipped to the frame, an odd last byte the high byte of its
// word), every start alignment and every accumulator, including whether a
// zero sum comes out as 0 or 0xffff.
//
//===----------------------------------------------------------------------===//
#include "nprt/nprt.h"

#include <gtest/gtest.h>

#include <cstring>

namespace {

uint32_t refCsum(const uint8_t *d, uint32_t frameLen, uint32_t off,
                 uint32_t len, uint32_t acc) {
  uint64_t sum = acc;
  uint64_t end = (uint64_t)off + len;
  for (uint64_t i = off; i < end; i += 2) {
    uint32_t hi = i < frameLen ? d[i] : 0;
    uint32_t lo = i + 1 < end && i + 1 < frameLen ? d[i + 1] : 0;
    sum += hi << 8 | lo;
  }
  while (sum >> 16)
    sum = (sum & 0xffff) + (sum >> 16);
  return (uint32_t)sum;
}

uint64_t xorshift(uint64_t &x) {
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return x;
}

nprt_pkt frame(uint8_t *data, uint32_t len) {
  nprt_pkt p;
  memset(&p, 0, sizeof(p));
  p.data = data;
  p.len = len;
  return p;
}

// Random bytes (and runs of 0x00 and 0xff, where carries pile up) at every
// alignment, random ranges in, across and past the frame, random
// accumulators.
TEST(Checksum, RandomRangesAndAlignmentsAgainstTheDefinition) {
  static uint8_t buf[2048 + 8];
  uint64_t seed = 0x2545f4914f6cdd1dull;
  for (int it = 0; it < 100000; ++it) {
    uint32_t align = it % 8;
    uint32_t frameLen = (uint32_t)(xorshift(seed) % (it % 10 ? 100 : 2048));
    uint8_t *d = buf + align;
    uint32_t kind = it % 5;
    for (uint32_t i = 0; i < frameLen; ++i)
      d[i] = kind == 0 ? 0 : kind == 1 ? 0xff : (uint8_t)xorshift(seed);
    uint32_t off = (uint32_t)(xorshift(seed) % (frameLen + 8));
    uint32_t len = (uint32_t)(xorshift(seed) % (frameLen + 16));
    uint32_t acc = it % 3 == 0   ? 0
                   : it % 3 == 1 ? (uint32_t)(xorshift(seed) & 0xffff)
                                 : (uint32_t)xorshift(seed);
    nprt_pkt p = frame(d, frameLen);
    uint32_t want = refCsum(d, frameLen, off, len, acc);
    ASSERT_EQ(nprt_pkt_csum(&p, off, len, acc), want)
        << "frame " << frameLen << " align " << align << " off " << off
        << " len " << len << " acc " << acc << " kind " << kind;
    ASSERT_EQ(nprt_pkt_csum_inline(&p, off, len, acc), want)
        << "inline: frame " << frameLen << " align " << align << " off " << off
        << " len " << len << " acc " << acc << " kind " << kind;
  }
}

// Every range of a 70-byte frame, at every alignment: the tails of 0..7
// bytes after the 8-byte words, and the 32-byte rounds.
TEST(Checksum, EveryRangeOfASmallFrame) {
  uint8_t buf[80 + 8];
  uint64_t seed = 99;
  for (uint32_t align = 0; align < 8; ++align) {
    uint8_t *d = buf + align;
    for (uint32_t i = 0; i < 80; ++i)
      d[i] = (uint8_t)xorshift(seed);
    nprt_pkt p = frame(d, 70);
    for (uint32_t off = 0; off <= 72; ++off)
      for (uint32_t len = 0; len <= 80; ++len)
        ASSERT_EQ(nprt_pkt_csum(&p, off, len, 0), refCsum(d, 70, off, len, 0))
            << "align " << align << " off " << off << " len " << len;
    // The inline path as a header check calls it: offset 0, no
    // accumulator (constants the C compiler folds in).
    for (uint32_t len = 0; len <= 80; ++len)
      ASSERT_EQ(nprt_pkt_csum_inline(&p, 0, len, 0), refCsum(d, 70, 0, len, 0))
          << "inline: align " << align << " len " << len;
    for (uint32_t off = 0; off <= 72; ++off)
      for (uint32_t len = 0; len <= 80; ++len)
        ASSERT_EQ(nprt_pkt_csum_inline(&p, off, len, 0xfffe),
                  refCsum(d, 70, off, len, 0xfffe))
            << "inline: align " << align << " off " << off << " len " << len;
  }
}

// Zero and all-ones: 0 stays 0, a sum of 0xffff words stays 0xffff, and
// the largest accumulator folds; an IPv4 header with its checksum sums to
// 0xffff.
TEST(Checksum, ZeroOnesAndAKnownHeader) {
  uint8_t zeros[64] = {0}, ones[64];
  memset(ones, 0xff, sizeof(ones));
  nprt_pkt z = frame(zeros, 64), o = frame(ones, 64);
  EXPECT_EQ(nprt_pkt_csum(&z, 0, 64, 0), 0u);
  EXPECT_EQ(nprt_pkt_csum(&z, 0, 64, 0xffff), 0xffffu);
  EXPECT_EQ(nprt_pkt_csum(&z, 0, 64, 0x10000), 1u);
  EXPECT_EQ(nprt_pkt_csum(&o, 0, 64, 0), 0xffffu);
  EXPECT_EQ(nprt_pkt_csum(&o, 0, 63, 0), 0xff00u); // the odd byte is high
  EXPECT_EQ(nprt_pkt_csum(&o, 0, 64, 0xffffffffu),
            refCsum(ones, 64, 0, 64, 0xffffffffu));
  uint8_t ip[20] = {0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11,
                    0xb8, 0x61, 0xc0, 0xa8, 0x00, 0x01, 0xc0, 0xa8, 0x00, 0xc7};
  nprt_pkt h = frame(ip, 20);
  EXPECT_EQ(nprt_pkt_csum(&h, 0, 20, 0), 0xffffu);
  ip[10] = ip[11] = 0;
  EXPECT_EQ(nprt_pkt_csum(&h, 0, 20, 0) ^ 0xffffu, 0xb861u);
}

} // namespace
