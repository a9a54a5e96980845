//===- AccessorTest.cpp - packet accessors against their definition -------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// packet.h's field accessors take a fast path (one bounds check, a load,
// a byte swap) when a field lies inside the frame and a bit-by-bit one
// otherwise; generated code calls them with constant offsets and widths,
// which the C compiler folds into one case of the fast path. These tests
// hold both, with variable and with constant arguments, to the definition
// written out here bit by bit (reads past the end give 0, writes past it
// are dropped and report false), at every offset and width around the end
// of the frame, and check that no byte outside the frame changes.
//
//===----------------------------------------------------------------------===//
#include "runtime/nprt/pool.h"

#include <gtest/gtest.h>

#include <cstring>

namespace {

// The definition: the field's first byte is byte_off plus the whole bytes
// of bit_off (saturated); a field starting past the frame reads 0 and
// writes nothing; otherwise each bit inside the frame is read or written,
// most significant first, and the rest read 0 and are dropped.
uint64_t refByte(uint64_t byteOff, uint32_t bitOff) {
  uint64_t add = bitOff / 8;
  return byteOff > UINT64_MAX - add ? UINT64_MAX : byteOff + add;
}

uint64_t refGet(const uint8_t *d, uint32_t len, uint64_t byteOff,
                uint32_t bitOff, uint32_t width) {
  uint64_t byte = refByte(byteOff, bitOff);
  if (byte >= len)
    return 0;
  uint64_t first = byte * 8 + bitOff % 8, v = 0;
  for (uint32_t i = 0; i < width; ++i) {
    uint64_t pos = first + i, at = pos / 8;
    uint64_t bit = at < len ? (d[at] >> (7 - pos % 8)) & 1 : 0;
    v = v << 1 | bit;
  }
  return v;
}

bool refSet(uint8_t *d, uint32_t len, uint64_t byteOff, uint32_t bitOff,
            uint32_t width, uint64_t v) {
  uint64_t byte = refByte(byteOff, bitOff);
  if (byte >= len)
    return false;
  uint64_t first = byte * 8 + bitOff % 8;
  bool inside = true;
  for (uint32_t i = 0; i < width; ++i) {
    uint64_t pos = first + width - 1 - i, at = pos / 8;
    if (at >= len) {
      inside = false;
      continue;
    }
    uint8_t mask = (uint8_t)(0x80u >> (pos % 8));
    d[at] = (uint8_t)((d[at] & ~mask) | (((v >> i) & 1) ? mask : 0));
  }
  return inside;
}

uint64_t xorshift(uint64_t &x) {
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return x;
}

// A frame of `len` bytes in the middle of a 96-byte buffer whose other
// bytes are guards; `ref` is a copy the reference works on.
struct Frame {
  static constexpr uint32_t Lead = 16, Size = 96;
  uint8_t buf[Size], ref[Size];
  nprt_pkt pkt;
  Frame(uint32_t len, uint64_t &seed) {
    for (uint8_t &b : buf)
      b = (uint8_t)xorshift(seed);
    memcpy(ref, buf, Size);
    memset(&pkt, 0, sizeof(pkt));
    pkt.data = buf + Lead;
    pkt.len = len;
    pkt.headroom = Lead;
    pkt.tailroom = Size - Lead - len;
  }
  bool same() const { return memcmp(buf, ref, Size) == 0; }
};

// Every byte offset to past the end, bit offsets over three bytes, every
// width, on frames of 0 to 18 bytes: reads, then writes of random values.
TEST(Accessors, EveryOffsetAndWidthAgainstTheDefinition) {
  uint64_t seed = 0x9e3779b97f4a7c15ull;
  for (uint32_t len = 0; len <= 18; ++len)
    for (uint64_t byteOff = 0; byteOff <= len + 3; ++byteOff)
      for (uint32_t bitOff = 0; bitOff < 24; ++bitOff)
        for (uint32_t width = 1; width <= 64; ++width) {
          Frame f(len, seed);
          ASSERT_EQ(nprt_pkt_get_bits(&f.pkt, byteOff, bitOff, width),
                    refGet(f.ref + Frame::Lead, len, byteOff, bitOff, width))
              << "len " << len << " at " << byteOff << "+" << bitOff
              << " width " << width;
          uint64_t v = xorshift(seed);
          bool want =
              refSet(f.ref + Frame::Lead, len, byteOff, bitOff, width, v);
          ASSERT_EQ(nprt_pkt_set_bits(&f.pkt, byteOff, bitOff, width, v), want)
              << "len " << len << " at " << byteOff << "+" << bitOff
              << " width " << width;
          ASSERT_TRUE(f.same()) << "len " << len << " at " << byteOff << "+"
                                << bitOff << " width " << width;
        }
}

// Offsets far past any frame, and ones whose sum saturates.
TEST(Accessors, HugeOffsetsAgainstTheDefinition) {
  uint64_t seed = 7;
  const uint64_t offsets[] = {1ull << 32,     (1ull << 32) + 1, UINT64_MAX - 9,
                              UINT64_MAX - 8, UINT64_MAX - 1,   UINT64_MAX};
  for (uint64_t off : offsets)
    for (uint32_t bitOff : {0u, 4u, 8u, 71u, 0xfffffff8u, 0xffffffffu})
      for (uint32_t width : {1u, 8u, 16u, 33u, 64u}) {
        Frame f(18, seed);
        EXPECT_EQ(nprt_pkt_get_bits(&f.pkt, off, bitOff, width), 0u);
        EXPECT_FALSE(nprt_pkt_set_bits(&f.pkt, off, bitOff, width, ~0ull));
        EXPECT_TRUE(f.same());
      }
}

// The shapes generated code uses (constant offsets and widths, folded by
// the C compiler into one case of the fast path), on every frame length
// from empty to past the field, at a constant and at a variable byte
// offset.
template <uint64_t ByteOff, uint32_t BitOff, uint32_t Width>
void checkConstant() {
  uint64_t seed = ByteOff * 131 + BitOff * 7 + Width;
  const uint32_t end = (uint32_t)((ByteOff * 8 + BitOff + Width + 7) / 8);
  for (uint32_t len = 0; len <= end + 2 && len + Frame::Lead < Frame::Size;
       ++len) {
    Frame f(len, seed);
    ASSERT_EQ(nprt_pkt_get_bits(&f.pkt, ByteOff, BitOff, Width),
              refGet(f.ref + Frame::Lead, len, ByteOff, BitOff, Width))
        << "len " << len << " at " << ByteOff << "+" << BitOff << " width "
        << Width;
    uint64_t v = xorshift(seed);
    bool want = refSet(f.ref + Frame::Lead, len, ByteOff, BitOff, Width, v);
    ASSERT_EQ(nprt_pkt_set_bits(&f.pkt, ByteOff, BitOff, Width, v), want)
        << "len " << len << " at " << ByteOff << "+" << BitOff << " width "
        << Width;
    ASSERT_TRUE(f.same()) << "len " << len << " at " << ByteOff << "+" << BitOff
                          << " width " << Width;
    // A variable byte offset with the constant bit offset and width (the
    // byte loops of generated code).
    for (uint64_t b = 0; b <= len + 1; ++b) {
      Frame g(len, seed);
      ASSERT_EQ(nprt_pkt_get_bits(&g.pkt, b, BitOff, Width),
                refGet(g.ref + Frame::Lead, len, b, BitOff, Width));
      uint64_t w = xorshift(seed);
      bool ok = refSet(g.ref + Frame::Lead, len, b, BitOff, Width, w);
      ASSERT_EQ(nprt_pkt_set_bits(&g.pkt, b, BitOff, Width, w), ok);
      ASSERT_TRUE(g.same()) << "len " << len << " at " << b << "+" << BitOff
                            << " width " << Width;
    }
  }
}

TEST(Accessors, ConstantShapesAgainstTheDefinition) {
  checkConstant<0, 0, 8>();
  checkConstant<0, 0, 16>();
  checkConstant<0, 0, 24>();
  checkConstant<0, 0, 32>();
  checkConstant<0, 0, 40>();
  checkConstant<0, 0, 48>();
  checkConstant<0, 0, 56>();
  checkConstant<0, 0, 64>();
  checkConstant<0, 4, 4>();
  checkConstant<0, 0, 4>();
  checkConstant<0, 48, 3>();
  checkConstant<0, 51, 13>();
  checkConstant<0, 16, 16>();
  checkConstant<0, 64, 8>();
  checkConstant<0, 80, 16>();
  checkConstant<0, 96, 32>();
  checkConstant<0, 128, 32>();
  checkConstant<0, 48, 48>();
  checkConstant<0, 64, 48>();
  checkConstant<0, 144, 48>();
  checkConstant<0, 192, 32>();
  checkConstant<12, 0, 16>();
  checkConstant<14, 0, 8>();
  checkConstant<0, 4, 60>();
  checkConstant<0, 1, 63>();
  checkConstant<0, 7, 57>();
  checkConstant<0, 7, 58>(); // 9 bytes: the bit-by-bit path
  checkConstant<0, 3, 64>();
  checkConstant<1, 5, 11>();
  checkConstant<2, 12, 20>();
  checkConstant<3, 0, 1>();
  checkConstant<5, 2, 37>();
}

// A push exposes headroom that reads as 0 however much of it was fresh;
// a put appends zero bytes; neither touches bytes outside what they add.
TEST(Accessors, PushAndPutZeroWhatTheyExpose) {
  uint64_t seed = 3;
  for (uint32_t fresh = 0; fresh <= Frame::Lead; ++fresh)
    for (uint32_t n = 0; n <= Frame::Lead; ++n) {
      Frame f(8, seed);
      f.pkt.fresh = fresh;
      ASSERT_TRUE(nprt_pkt_push(&f.pkt, n));
      EXPECT_EQ(f.pkt.headroom, Frame::Lead - n);
      EXPECT_EQ(f.pkt.len, 8u + n);
      EXPECT_EQ(f.pkt.fresh, fresh < f.pkt.headroom ? fresh : f.pkt.headroom);
      for (uint32_t i = 0; i < Frame::Size; ++i) {
        // Bytes that were fresh and are now in the frame read as 0.
        bool cleared = i < Frame::Lead && i >= Frame::Lead - n && i < fresh;
        EXPECT_EQ(f.buf[i], cleared ? 0 : f.ref[i])
            << "fresh " << fresh << " push " << n << " byte " << i;
      }
    }
  for (uint32_t n = 0; n <= 20; ++n) {
    Frame f(8, seed);
    bool fits = n <= f.pkt.tailroom;
    ASSERT_EQ(nprt_pkt_put(&f.pkt, n), fits);
    for (uint32_t i = 0; i < Frame::Size; ++i) {
      bool added = fits && i >= Frame::Lead + 8 && i < Frame::Lead + 8 + n;
      EXPECT_EQ(f.buf[i], added ? 0 : f.ref[i]) << "put " << n << " byte " << i;
    }
  }
  Frame f(8, seed);
  EXPECT_FALSE(nprt_pkt_push(&f.pkt, Frame::Lead + 1));
  EXPECT_FALSE(nprt_pkt_put(&f.pkt, f.pkt.tailroom + 1));
  EXPECT_TRUE(f.same());
}

} // namespace
