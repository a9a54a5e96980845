/*===- checksum.c - Internet checksums, CRC-32 and packet copies -*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * The checksum and CRC built-ins of NPL (csum, csum_partial, crc32, crc32c)
 * and pkt_copy. CRCs use a byte-wise table per polynomial; the tables are
 * constant data computed at compile time, so no state is shared.
 *
 *===----------------------------------------------------------------------===*/
#include "nprt/nprt.h"
#ifdef NPRT_SIM
#include "runtime/nprt/sim.h"
#endif

#include <string.h>

/* The one's complement sum of bytes [d, d + n) taken as 16-bit words in the
 * host's byte order, folded to 16 bits; 0 only if every byte is 0 (see
 * packet.h). Four words of 8 bytes per round while at least 32 bytes are
 * left. */
static uint32_t nprt_csum_native(const uint8_t *d, uint64_t n) {
  uint64_t s = 0, w;
  if (n >= 8) {
    for (; n >= 32; d += 32, n -= 32) {
      uint64_t w0, w1, w2, w3;
      memcpy(&w0, d, 8);
      memcpy(&w1, d + 8, 8);
      memcpy(&w2, d + 16, 8);
      memcpy(&w3, d + 24, 8);
      s = nprt_csum_add(s, w0);
      s = nprt_csum_add(s, w1);
      s = nprt_csum_add(s, w2);
      s = nprt_csum_add(s, w3);
    }
    for (; n >= 8; d += 8, n -= 8) {
      memcpy(&w, d, 8);
      s = nprt_csum_add(s, w);
    }
    if (n)
      s = nprt_csum_add(s, nprt_csum_tail(d + n, n));
  } else {
    /* Fewer than 8 bytes: 4, 2 and 1 of them (a lone last byte is the high
     * byte of a big-endian word, its first byte in memory). */
    if (n >= 4) {
      uint32_t v;
      memcpy(&v, d, 4);
      s += v;
      d += 4;
      n -= 4;
    }
    if (n >= 2) {
      uint16_t v;
      memcpy(&v, d, 2);
      s += v;
      d += 2;
      n -= 2;
    }
    if (n) {
      uint8_t last[2] = {d[0], 0};
      uint16_t v;
      memcpy(&v, last, 2);
      s += v;
    }
  }
  return nprt_csum_fold64(s);
}

uint32_t nprt_pkt_csum(const nprt_pkt *p, uint32_t off, uint32_t len,
                       uint32_t acc) {
#ifdef NPRT_SIM
  if (npsim_running())
    nprt_sim_unit(p, off, len, NPSIM_CHECKSUM);
#endif
  uint64_t end = (uint64_t)off + len;
  uint64_t have = end < p->len ? end : p->len;
  /* The bytes inside both the range and the frame; the rest count as 0. */
  uint32_t net16 = 0;
  if (off < have)
    net16 = NPRT_BE16((uint16_t)nprt_csum_native(p->data + off, have - off));
  return nprt_csum_finish(acc, net16);
}

#define NPRT_CRC_POLY_ETHERNET 0xedb88320u
#define NPRT_CRC_POLY_CASTAGNOLI 0x82f63b78u

/* One table entry: the remainder of byte `b` after eight reflected steps. */
#define NPRT_CRC_STEP(c, poly) (((c) >> 1) ^ (((c) & 1u) ? (poly) : 0u))
#define NPRT_CRC_ENTRY(b, poly)                                                \
  NPRT_CRC_STEP(                                                               \
      NPRT_CRC_STEP(                                                           \
          NPRT_CRC_STEP(                                                       \
              NPRT_CRC_STEP(                                                   \
                  NPRT_CRC_STEP(                                               \
                      NPRT_CRC_STEP(                                           \
                          NPRT_CRC_STEP(NPRT_CRC_STEP((uint32_t)(b), poly),    \
                                        poly),                                 \
                          poly),                                               \
                      poly),                                                   \
                  poly),                                                       \
              poly),                                                           \
          poly),                                                               \
      poly)
#define NPRT_CRC_ROW4(b, poly)                                                 \
  NPRT_CRC_ENTRY(b, poly), NPRT_CRC_ENTRY(b + 1, poly),                        \
      NPRT_CRC_ENTRY(b + 2, poly), NPRT_CRC_ENTRY(b + 3, poly)
#define NPRT_CRC_ROW16(b, poly)                                                \
  NPRT_CRC_ROW4(b, poly), NPRT_CRC_ROW4(b + 4, poly),                          \
      NPRT_CRC_ROW4(b + 8, poly), NPRT_CRC_ROW4(b + 12, poly)
#define NPRT_CRC_TABLE(poly)                                                   \
  {NPRT_CRC_ROW16(0, poly),   NPRT_CRC_ROW16(16, poly),                        \
   NPRT_CRC_ROW16(32, poly),  NPRT_CRC_ROW16(48, poly),                        \
   NPRT_CRC_ROW16(64, poly),  NPRT_CRC_ROW16(80, poly),                        \
   NPRT_CRC_ROW16(96, poly),  NPRT_CRC_ROW16(112, poly),                       \
   NPRT_CRC_ROW16(128, poly), NPRT_CRC_ROW16(144, poly),                       \
   NPRT_CRC_ROW16(160, poly), NPRT_CRC_ROW16(176, poly),                       \
   NPRT_CRC_ROW16(192, poly), NPRT_CRC_ROW16(208, poly),                       \
   NPRT_CRC_ROW16(224, poly), NPRT_CRC_ROW16(240, poly)}

static const uint32_t nprt_crc_ethernet[256] =
    NPRT_CRC_TABLE(NPRT_CRC_POLY_ETHERNET);
static const uint32_t nprt_crc_castagnoli[256] =
    NPRT_CRC_TABLE(NPRT_CRC_POLY_CASTAGNOLI);

static uint32_t nprt_crc_bytes(uint32_t crc, const uint8_t *b, uint64_t n,
                               const uint32_t *table) {
  for (uint64_t i = 0; i < n; ++i)
    crc = (crc >> 8) ^ table[(crc ^ b[i]) & 0xffu];
  return crc;
}

uint32_t nprt_pkt_crc(const nprt_pkt *p, uint32_t off, uint32_t len,
                      bool castagnoli) {
#ifdef NPRT_SIM
  if (npsim_running())
    nprt_sim_unit(p, off, len, NPSIM_CRC);
#endif
  uint64_t end = (uint64_t)off + len;
  if (end > p->len)
    end = p->len;
  uint64_t n = end > off ? end - off : 0;
  const uint32_t *t = castagnoli ? nprt_crc_castagnoli : nprt_crc_ethernet;
  return ~nprt_crc_bytes(0xffffffffu, p->data + (n ? off : 0), n, t);
}

uint32_t nprt_crc(uint64_t v, uint32_t nbytes, bool castagnoli) {
#ifdef NPRT_SIM
  if (npsim_running())
    nprt_sim_unit(NULL, 0, nbytes, NPSIM_CRC);
#endif
  uint8_t b[8];
  if (nbytes > 8)
    nbytes = 8;
  for (uint32_t i = 0; i < nbytes; ++i)
    b[i] = (uint8_t)(v >> (8 * (nbytes - 1 - i)));
  const uint32_t *t = castagnoli ? nprt_crc_castagnoli : nprt_crc_ethernet;
  return ~nprt_crc_bytes(0xffffffffu, b, nbytes, t);
}

void nprt_pkt_copy(nprt_pkt *dst, uint32_t doff, const nprt_pkt *src,
                   uint32_t soff, uint32_t len) {
  /* Clip to the destination; the part of the source past its end is 0. */
  uint64_t dend = (uint64_t)doff + len;
  if (dend > dst->len)
    dend = dst->len;
  if (dend <= doff)
    return;
  uint64_t n = dend - doff;
  uint64_t avail = soff < src->len ? src->len - soff : 0;
  uint64_t copied = n < avail ? n : avail;
  if (copied)
    memmove(dst->data + doff, src->data + soff, (size_t)copied);
  if (n > copied)
    memset(dst->data + doff + copied, 0, (size_t)(n - copied));
}
