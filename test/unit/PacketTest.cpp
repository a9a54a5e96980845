//===- PacketTest.cpp - packet bit and metadata accessors -------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
#include "runtime/nprt/pool.h"

#include <gtest/gtest.h>

#include <cstring>

namespace {

class Packet : public ::testing::Test {
protected:
  void SetUp() override {
    nprt_pool_init(&pool);
    p = nprt_pool_alloc(&pool, 8);
    const uint8_t bytes[8] = {0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0};
    for (int i = 0; i < 8; ++i)
      p->data[i] = bytes[i];
  }
  void TearDown() override {
    nprt_pool_free(&pool, p);
    nprt_pool_destroy(&pool);
  }
  nprt_pool pool;
  nprt_pkt *p;
};

TEST_F(Packet, AlignedGet) {
  EXPECT_EQ(nprt_pkt_get_bits(p, 0, 0, 8), 0x12u);
  EXPECT_EQ(nprt_pkt_get_bits(p, 0, 8, 16), 0x3456u);
  EXPECT_EQ(nprt_pkt_get_bits(p, 0, 32, 32), 0x9abcdef0u);
  EXPECT_EQ(nprt_pkt_get_bits(p, 0, 0, 64), 0x123456789abcdef0ull);
}

TEST_F(Packet, UnalignedGet) {
  EXPECT_EQ(nprt_pkt_get_bits(p, 0, 0, 4), 0x1u);
  EXPECT_EQ(nprt_pkt_get_bits(p, 0, 4, 4), 0x2u);
  EXPECT_EQ(nprt_pkt_get_bits(p, 0, 4, 12), 0x234u);
  EXPECT_EQ(nprt_pkt_get_bits(p, 0, 3, 1), 1u); // 0x12 = 0001 0010
  EXPECT_EQ(nprt_pkt_get_bits(p, 0, 2, 1), 0u);
  EXPECT_EQ(nprt_pkt_get_bits(p, 0, 4, 60), 0x23456789abcdef0ull);
}

TEST_F(Packet, OutOfRangeReadsZero) {
  EXPECT_EQ(nprt_pkt_get_bits(p, 0, 64, 8), 0u);
  EXPECT_EQ(nprt_pkt_get_bits(p, 0, 1000, 32), 0u);
  // Straddling the end: the bits inside are read, the rest are zero.
  EXPECT_EQ(nprt_pkt_get_bits(p, 0, 56, 16), 0xf000u);
  EXPECT_EQ(nprt_pkt_get_bits(p, 0, 60, 8), 0x00u);
  EXPECT_EQ(nprt_pkt_get_bits(p, 0, 58, 8), 0xc0u);
}

TEST_F(Packet, AlignedSet) {
  EXPECT_TRUE(nprt_pkt_set_bits(p, 0, 16, 16, 0xbeef));
  EXPECT_EQ(p->data[2], 0xbeu);
  EXPECT_EQ(p->data[3], 0xefu);
  EXPECT_EQ(p->data[1], 0x34u);
  EXPECT_EQ(p->data[4], 0x9au);
  EXPECT_TRUE(nprt_pkt_set_bits(p, 0, 0, 64, 0x0102030405060708ull));
  EXPECT_EQ(nprt_pkt_get_bits(p, 0, 0, 64), 0x0102030405060708ull);
}

TEST_F(Packet, UnalignedSet) {
  EXPECT_TRUE(nprt_pkt_set_bits(p, 0, 4, 8, 0xab)); // 0x12 0x34 -> 0x1a 0xb4
  EXPECT_EQ(p->data[0], 0x1au);
  EXPECT_EQ(p->data[1], 0xb4u);
  EXPECT_TRUE(nprt_pkt_set_bits(p, 0, 17, 3, 0x7)); // 0x56 -> 0x76
  EXPECT_EQ(p->data[2], 0x76u);
  EXPECT_EQ(nprt_pkt_get_bits(p, 0, 17, 3), 0x7u);
  EXPECT_TRUE(nprt_pkt_set_bits(p, 0, 4, 1, 0xfe)); // only the low bit is used
  EXPECT_EQ(p->data[0], 0x12u);
}

TEST_F(Packet, OutOfRangeWritesIgnored) {
  EXPECT_FALSE(nprt_pkt_set_bits(p, 0, 64, 8, 0xff));
  EXPECT_FALSE(nprt_pkt_set_bits(p, 0, 56, 16, 0xabcd));
  EXPECT_EQ(p->data[7], 0xabu); // the inside part is written
  EXPECT_EQ(nprt_pkt_get_bits(p, 0, 0, 56), 0x123456789abcdeull);
  // Nothing past the frame was touched (the tailroom byte stays).
  p->data[8] = 0x5a;
  EXPECT_FALSE(nprt_pkt_set_bits(p, 0, 60, 12, 0xfff));
  EXPECT_EQ(p->data[8], 0x5au);
  EXPECT_EQ(p->data[7], 0xafu);
}

// Byte offsets are 64-bit: an offset whose bit position does not fit 32
// bits (2^29), one that does not fit 32 bits itself (2^32) and the largest
// (2^64-1) read 0 and write nothing instead of aliasing a low byte.
TEST_F(Packet, HugeOffsetsReadZeroAndWriteNothing) {
  const uint64_t offsets[] = {1ull << 29,       (1ull << 29) + 1, 1ull << 32,
                              (1ull << 32) + 1, UINT64_MAX - 1,   UINT64_MAX};
  for (uint64_t off : offsets) {
    for (uint32_t bit : {0u, 3u, 64u, 0xffffffffu}) {
      EXPECT_EQ(nprt_pkt_get_bits(p, off, bit, 8), 0u) << off << "+" << bit;
      EXPECT_EQ(nprt_pkt_get_bits(p, off, bit, 64), 0u) << off << "+" << bit;
      EXPECT_FALSE(nprt_pkt_set_bits(p, off, bit, 8, 0xff));
      EXPECT_FALSE(nprt_pkt_set_bits(p, off, bit, 64, ~0ull));
    }
  }
  EXPECT_EQ(nprt_pkt_get_bits(p, 0, 0, 64), 0x123456789abcdef0ull);
}

// The bit position within the byte offset: byte 1 plus 12 bits is byte 2
// plus 4 bits.
TEST_F(Packet, ByteAndBitOffset) {
  EXPECT_EQ(nprt_pkt_get_bits(p, 1, 12, 8), nprt_pkt_get_bits(p, 0, 20, 8));
  EXPECT_EQ(nprt_pkt_get_bits(p, 2, 4, 8), 0x67u);
  EXPECT_EQ(nprt_pkt_get_bits(p, 7, 0, 8), 0xf0u);
  EXPECT_EQ(nprt_pkt_get_bits(p, 7, 8, 8), 0u);
  EXPECT_TRUE(nprt_pkt_set_bits(p, 3, 8, 8, 0x11));
  EXPECT_EQ(p->data[4], 0x11u);
}

// The window paths of nprt_pkt_get_bits/set_bits (one load, shift, mask)
// against the bit-by-bit paths, which follow the definition, on random
// frames, offsets and widths, fields inside and across the frame's end.
TEST_F(Packet, WindowPathsAgreeWithBitByBit) {
  uint8_t fast[32], slow[32];
  nprt_pkt a = *p, b = *p;
  a.data = fast;
  b.data = slow;
  uint64_t x = 88172645463325252ull; // xorshift64
  auto next = [&x] {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
  };
  for (int it = 0; it < 200000; ++it) {
    for (int i = 0; i < 32; ++i)
      fast[i] = slow[i] = (uint8_t)next();
    a.len = b.len = (uint32_t)(next() % 24);
    uint64_t byteOff = next() % 28;
    uint32_t bitOff = (uint32_t)(next() % 48), width = 1 + next() % 64;
    uint64_t first = (byteOff + bitOff / 8) * 8 + bitOff % 8;
    bool inFrame = byteOff + bitOff / 8 < b.len;
    uint64_t want =
        inFrame ? nprt_pkt_get_bits_slow(&b, first, first + width) : 0;
    ASSERT_EQ(nprt_pkt_get_bits(&a, byteOff, bitOff, width), want)
        << "len " << a.len << " at " << byteOff << "+" << bitOff << " width "
        << width;
    uint64_t v = next();
    bool wantInside =
        inFrame && nprt_pkt_set_bits_slow(&b, first, first + width, v);
    ASSERT_EQ(nprt_pkt_set_bits(&a, byteOff, bitOff, width, v), wantInside);
    ASSERT_EQ(memcmp(fast, slow, sizeof(fast)), 0)
        << "len " << a.len << " at " << byteOff << "+" << bitOff << " width "
        << width;
  }
}

TEST_F(Packet, Metadata) {
  nprt_pkt_set_meta(p, NPRT_META_IN_PORT, 1);
  nprt_pkt_set_meta(p, NPRT_META_PAINT, 2);
  nprt_pkt_set_meta(p, NPRT_META_OUT_PORT, 3);
  nprt_pkt_set_meta(p, NPRT_META_ANNO, 0xffffffffffull);
  EXPECT_EQ(nprt_pkt_get_meta(p, NPRT_META_IN_PORT), 1u);
  EXPECT_EQ(nprt_pkt_get_meta(p, NPRT_META_PAINT), 2u);
  EXPECT_EQ(nprt_pkt_get_meta(p, NPRT_META_OUT_PORT), 3u);
  EXPECT_EQ(nprt_pkt_get_meta(p, NPRT_META_ANNO), 0xffffffffffull);
  EXPECT_EQ(nprt_pkt_len(p), 8u);
}

} // namespace
