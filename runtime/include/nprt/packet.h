/*===- packet.h - packet buffers and byte-order accessors -------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * A packet is a buffer with headroom in front of the frame so that encap
 * elements can prepend headers without copying. The accessors are inline
 * because generated handlers call them per field; they define what an
 * out-of-range access does (reads give 0, writes are ignored) so the C
 * target and the reference semantics agree on every input.
 *
 *===----------------------------------------------------------------------===*/
#ifndef NPRT_PACKET_H
#define NPRT_PACKET_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NPRT_PKT_HEADROOM 128u
/* The largest frame the runtime allocates (16 MiB): a larger new_pkt or
 * clone fails as if memory were exhausted. */
#define NPRT_PKT_MAX_BYTES (16u << 20)

struct nprt_pool;

/* Words of named annotations a packet carries. */
#define NPRT_PKT_ANNOS 16u

/* The first 64 bytes are what a packet's processing touches (one cache
 * line in a pool buffer); the named annotations follow. */
typedef struct nprt_pkt {
  uint8_t *data;     /* first byte of the frame */
  uint32_t len;      /* frame bytes from data */
  uint32_t headroom; /* bytes usable in front of data */
  uint32_t tailroom; /* bytes usable after data + len */
  uint32_t in_port;  /* input device the packet came from */
  uint32_t paint;    /* Click's paint annotation */
  uint32_t out_port; /* free annotation, used by routing elements */
  uint64_t anno;     /* free 64-bit user annotation */
  int64_t ts;        /* time stamp: nanoseconds since the epoch */
  /* The first `fresh` bytes of the headroom read as 0 but were never
   * written: a new buffer is not cleared, a push clears what it exposes
   * of them (nprt_pkt_push). */
  uint32_t fresh;
  /* Bit i: annos[i] may be non-zero (set, copied); the pool clears only
   * those when the buffer is handed out again. */
  uint32_t annos_set;
  struct nprt_pool *pool; /* owner, NULL when heap-allocated */
  /* Named annotations a program declares (`anno dst_ip: u32;`), one word
   * each, zero in a new packet, copied by clone. */
  uint64_t annos[NPRT_PKT_ANNOS];
  struct nprt_pkt *next; /* free-list link */
  /* npsim (docs/npsim.md): the buffer's simulated address, and the cycle
   * the packet this one came from arrived on the wire. */
  uint64_t sim_addr, sim_born;
} nprt_pkt;

/* Metadata field numbers used by generated code (nprt/abi.def). */
enum nprt_meta {
#define NPRT_ABI_META(npl_name, enumerator, value) enumerator = value,
#include "nprt/abi.def"
};

static inline uint32_t nprt_pkt_len(const nprt_pkt *p) { return p->len; }

#ifdef NPRT_SIM
/* npsim: the accessors below tell the simulator which bytes they touch
 * (nprt/abi.def). */
void nprt_sim_pkt(const nprt_pkt *p, uint64_t off, uint32_t bytes, bool write);
#define NPRT_SIM_PKT(p, off, bytes, write) nprt_sim_pkt(p, off, bytes, write)
#else
#define NPRT_SIM_PKT(p, off, bytes, write) ((void)0)
#endif

/* The first byte and bit of a field `bit_off` bits after byte `byte_off`:
 * whole bytes of `bit_off` join the byte offset, which saturates at
 * UINT64_MAX instead of wrapping around to a small offset. */
static inline uint64_t nprt_pkt_field_byte(uint64_t byte_off,
                                           uint32_t bit_off) {
  uint64_t add = bit_off >> 3;
  return byte_off > UINT64_MAX - add ? UINT64_MAX : byte_off + add;
}

/* Byte order: the fast paths below load a field's bytes with one or two
 * unaligned loads and turn them into a big-endian value, which on a
 * little-endian host is one byte swap. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define NPRT_BE16(x) ((uint16_t)(x))
#define NPRT_BE32(x) ((uint32_t)(x))
#define NPRT_BE64(x) ((uint64_t)(x))
#else
#define NPRT_BE16(x) __builtin_bswap16(x)
#define NPRT_BE32(x) __builtin_bswap32(x)
#define NPRT_BE64(x) __builtin_bswap64(x)
#endif

/* Bytes [b, b + n) (n: 0..8) as a big-endian number. A switch rather than
 * a byte loop: with the constant widths generated code passes, it folds to
 * the one case (one load and a byte swap for 2, 4 and 8 bytes), which the
 * C compiler would not make of a loop at -O2. */
static inline __attribute__((always_inline)) uint64_t
nprt_pkt_load_be(const uint8_t *b, uint32_t n) {
  uint16_t h;
  uint32_t w;
  uint64_t d;
  switch (n) {
  case 0:
    return 0;
  case 1:
    return b[0];
  case 2:
    __builtin_memcpy(&h, b, 2);
    return NPRT_BE16(h);
  case 3:
    __builtin_memcpy(&h, b, 2);
    return (uint64_t)NPRT_BE16(h) << 8 | b[2];
  case 4:
    __builtin_memcpy(&w, b, 4);
    return NPRT_BE32(w);
  case 5:
    __builtin_memcpy(&w, b, 4);
    return (uint64_t)NPRT_BE32(w) << 8 | b[4];
  case 6:
    __builtin_memcpy(&w, b, 4);
    __builtin_memcpy(&h, b + 4, 2);
    return (uint64_t)NPRT_BE32(w) << 16 | NPRT_BE16(h);
  case 7:
    __builtin_memcpy(&w, b, 4);
    __builtin_memcpy(&h, b + 4, 2);
    return (uint64_t)NPRT_BE32(w) << 24 | (uint64_t)NPRT_BE16(h) << 8 | b[6];
  default:
    __builtin_memcpy(&d, b, 8);
    return NPRT_BE64(d);
  }
}

/* The low n (0..8) bytes of `v` into [b, b + n), most significant first
 * (see nprt_pkt_load_be). */
static inline __attribute__((always_inline)) void
nprt_pkt_store_be(uint8_t *b, uint32_t n, uint64_t v) {
  uint16_t h;
  uint32_t w;
  uint64_t d;
  switch (n) {
  case 0:
    return;
  case 1:
    b[0] = (uint8_t)v;
    return;
  case 2:
    h = NPRT_BE16((uint16_t)v);
    __builtin_memcpy(b, &h, 2);
    return;
  case 3:
    h = NPRT_BE16((uint16_t)(v >> 8));
    __builtin_memcpy(b, &h, 2);
    b[2] = (uint8_t)v;
    return;
  case 4:
    w = NPRT_BE32((uint32_t)v);
    __builtin_memcpy(b, &w, 4);
    return;
  case 5:
    w = NPRT_BE32((uint32_t)(v >> 8));
    __builtin_memcpy(b, &w, 4);
    b[4] = (uint8_t)v;
    return;
  case 6:
    w = NPRT_BE32((uint32_t)(v >> 16));
    h = NPRT_BE16((uint16_t)v);
    __builtin_memcpy(b, &w, 4);
    __builtin_memcpy(b + 4, &h, 2);
    return;
  case 7:
    w = NPRT_BE32((uint32_t)(v >> 24));
    h = NPRT_BE16((uint16_t)(v >> 8));
    __builtin_memcpy(b, &w, 4);
    __builtin_memcpy(b + 4, &h, 2);
    b[6] = (uint8_t)v;
    return;
  default:
    d = NPRT_BE64(v);
    __builtin_memcpy(b, &d, 8);
    return;
  }
}

/* Whether the `nbytes` bytes from `byte` lie inside a frame of `len`
 * bytes, and `byte` itself does (for nbytes 0). One compare when the
 * offset and width are constants (the rest folds away); the saturated
 * offset UINT64_MAX is never inside. */
static inline __attribute__((always_inline)) bool
nprt_pkt_inside(uint64_t byte, uint32_t nbytes, uint64_t len) {
  uint64_t end;
  return !__builtin_add_overflow(byte, (uint64_t)nbytes + (nbytes == 0),
                                 &end) &&
         end <= len;
}

/* The bit-by-bit path of nprt_pkt_get_bits: fields that run past the end
 * of the frame, or span more than 8 bytes. Out of line, so that the
 * common path inlines into generated handlers and folds to a load. */
static __attribute__((noinline, unused)) uint64_t
nprt_pkt_get_bits_slow(const nprt_pkt *p, uint64_t first, uint64_t end) {
  uint64_t len = p->len, v = 0;
  for (uint64_t i = first; i < end; ++i) {
    uint64_t at = i >> 3;
    uint64_t bit = at < len ? (p->data[at] >> (7u - (i & 7u))) & 1u : 0;
    v = (v << 1) | bit;
  }
  return v;
}

/* Reads `width` (1..64) bits starting `bit_off` bits after byte `byte_off`
 * of the frame, most significant bit first (network order). Bits past the
 * end read as 0, for every byte offset up to 2^64-1. */
static inline __attribute__((always_inline)) uint64_t nprt_pkt_get_bits(
    const nprt_pkt *p, uint64_t byte_off, uint32_t bit_off, uint32_t width) {
  uint64_t byte = nprt_pkt_field_byte(byte_off, bit_off);
  uint64_t len = p->len;
  uint32_t shift = bit_off & 7u;
  uint32_t nbytes = (shift + width + 7u) / 8u;
  /* A field inside the frame that fits one 64-bit window (every header
   * field but an unaligned 58..64-bit one): one bounds check, its bytes
   * loaded, shifted and masked. With constant offsets and width this folds
   * to a compare, a load and a byte swap (and a shift and mask when the
   * field is not whole bytes). */
  if (width <= 64u - shift && nprt_pkt_inside(byte, nbytes, len)) {
    NPRT_SIM_PKT(p, byte, nbytes, false);
    uint64_t v = nprt_pkt_load_be(p->data + byte, nbytes);
    v >>= nbytes * 8u - shift - width;
    return width < 64u ? v & ((UINT64_C(1) << width) - 1u) : v;
  }
  if (byte >= len)
    return 0;
  NPRT_SIM_PKT(p, byte, nbytes, false);
  /* byte < len <= 2^32: no bit position below overflows. */
  uint64_t first = byte * 8u + shift;
  return nprt_pkt_get_bits_slow(p, first, first + width);
}

/* The bit-by-bit path of nprt_pkt_set_bits (see nprt_pkt_get_bits_slow). */
static __attribute__((noinline, unused)) bool
nprt_pkt_set_bits_slow(nprt_pkt *p, uint64_t first, uint64_t end, uint64_t v) {
  uint64_t len = p->len;
  bool inside = true;
  for (uint64_t i = end; i-- > first; v >>= 1) {
    uint64_t at = i >> 3;
    if (at >= len) {
      inside = false;
      continue;
    }
    uint8_t mask = (uint8_t)(1u << (7u - (i & 7u)));
    p->data[at] = (uint8_t)((p->data[at] & ~mask) | ((v & 1u) ? mask : 0));
  }
  return inside;
}

/* Writes the low `width` bits of `v` `bit_off` bits after byte `byte_off`;
 * bits past the end of the frame are ignored, for every byte offset up to
 * 2^64-1. Returns false if any bit fell outside the frame. */
static inline __attribute__((always_inline)) bool
nprt_pkt_set_bits(nprt_pkt *p, uint64_t byte_off, uint32_t bit_off,
                  uint32_t width, uint64_t v) {
  uint64_t byte = nprt_pkt_field_byte(byte_off, bit_off);
  uint64_t len = p->len;
  uint32_t shift = bit_off & 7u;
  uint32_t nbytes = (shift + width + 7u) / 8u;
  /* As in nprt_pkt_get_bits: a field inside the frame within one 64-bit
   * window is stored (whole bytes: a byte swap and a store) or merged into
   * the bytes that hold it. */
  if (width <= 64u - shift && nprt_pkt_inside(byte, nbytes, len)) {
    NPRT_SIM_PKT(p, byte, nbytes, true);
    uint8_t *b = p->data + byte;
    uint32_t low = nbytes * 8u - shift - width; /* bits after the field */
    if ((shift | low) != 0) {
      uint64_t mask = ((UINT64_C(1) << width) - 1u) << low; /* width < 64 */
      v = (nprt_pkt_load_be(b, nbytes) & ~mask) | ((v << low) & mask);
    }
    nprt_pkt_store_be(b, nbytes, v);
    return true;
  }
  if (byte >= len)
    return false;
  NPRT_SIM_PKT(p, byte, nbytes, true);
  uint64_t first = byte * 8u + shift;
  return nprt_pkt_set_bits_slow(p, first, first + width, v);
}

/* The Internet checksum (RFC 1071) in pieces that nprt_pkt_csum
 * (checksum.c) and nprt_pkt_csum_inline share: words of 8 bytes summed in
 * the host's byte order with the carry wrapped around, folded to 16 bits
 * and swapped into network order once (the sum's 16-bit columns do not
 * depend on how many words are added at once, as 2^16 = 1 modulo 0xffff,
 * and a swap of the sum is the sum of the swapped words). */

/* `s` + `w` in one's complement arithmetic on 64 bits: the carry out of
 * bit 63 wraps around to bit 0 (an add and an add-with-carry). */
static inline uint64_t nprt_csum_add(uint64_t s, uint64_t w) {
  s += w;
  return s + (s < w);
}

/* The last `n` (1..7) bytes before `end` of a range of at least 8, in the
 * columns they have when they start a multiple of 8 bytes into it: the 8
 * bytes that end with them (never reading outside the range), shifted so
 * only they are left. */
static inline uint64_t nprt_csum_tail(const uint8_t *end, uint64_t n) {
  uint64_t w;
  __builtin_memcpy(&w, end - 8, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  return w << (64 - 8 * n);
#else
  return w >> (64 - 8 * n);
#endif
}

/* A 64-bit sum folded to 16 bits, each fold an add and an add of its
 * carry; a non-zero sum stays non-zero. */
static inline uint32_t nprt_csum_fold64(uint64_t s) {
  uint32_t hi32 = (uint32_t)(s >> 32), s32 = (uint32_t)s + hi32;
  s32 += s32 < hi32;
  uint16_t hi16 = (uint16_t)(s32 >> 16);
  uint16_t s16 = (uint16_t)((uint16_t)s32 + hi16);
  s16 = (uint16_t)(s16 + (s16 < hi16));
  return s16;
}

/* `acc` plus a sum in network order, folded to 16 bits. */
static inline uint32_t nprt_csum_finish(uint32_t acc, uint32_t net16) {
  uint64_t sum = (uint64_t)acc + net16;
  while (sum >> 16)
    sum = (sum & 0xffff) + (sum >> 16);
  return (uint32_t)sum;
}

/* nprt/abi.def: the checksum of a packet range (checksum.c). */
uint32_t nprt_pkt_csum(const nprt_pkt *p, uint32_t off, uint32_t len,
                       uint32_t acc);

/* nprt_pkt_csum, the same result, inline for a range of 8 to 64 bytes
 * inside the frame (an IP, UDP or TCP header): with the constant offset
 * and accumulator of a header check it is about 45 instructions where the
 * call costs 60. Other ranges, and npsim's flavour (whose nprt_pkt_csum
 * charges the checksum unit), call nprt_pkt_csum. The C lowering emits
 * it for np.pkt_csum (nprt/abi.def). */
static inline __attribute__((always_inline)) uint32_t nprt_pkt_csum_inline(
    const nprt_pkt *p, uint32_t off, uint32_t len, uint32_t acc) {
#ifndef NPRT_SIM
  uint64_t end = (uint64_t)off + len;
  uint64_t have = end < p->len ? end : p->len;
  if (off + UINT64_C(8) <= have && have - off <= 64u) {
    const uint8_t *d = p->data + off;
    uint64_t n = have - off, s = 0, w;
    for (; n >= 8; d += 8, n -= 8) {
      __builtin_memcpy(&w, d, 8);
      s = nprt_csum_add(s, w);
    }
    if (n)
      s = nprt_csum_add(s, nprt_csum_tail(d + n, n));
    return nprt_csum_finish(acc, NPRT_BE16((uint16_t)nprt_csum_fold64(s)));
  }
#endif
  return nprt_pkt_csum(p, off, len, acc);
}

static inline uint64_t nprt_pkt_get_meta(const nprt_pkt *p, uint32_t field) {
  switch (field) {
  case NPRT_META_IN_PORT:
    return p->in_port;
  case NPRT_META_PAINT:
    return p->paint;
  case NPRT_META_OUT_PORT:
    return p->out_port;
  case NPRT_META_TS:
    return (uint64_t)p->ts;
  default:
    return p->anno;
  }
}

static inline void nprt_pkt_set_meta(nprt_pkt *p, uint32_t field, uint64_t v) {
  switch (field) {
  case NPRT_META_IN_PORT:
    p->in_port = (uint32_t)v;
    break;
  case NPRT_META_PAINT:
    p->paint = (uint32_t)v;
    break;
  case NPRT_META_OUT_PORT:
    p->out_port = (uint32_t)v;
    break;
  case NPRT_META_TS:
    p->ts = (int64_t)v;
    break;
  default:
    p->anno = v;
    break;
  }
}

/* Named annotation `slot` (0..NPRT_PKT_ANNOS-1; generated code only uses
 * slots it declared). */
static inline uint64_t nprt_pkt_get_anno(const nprt_pkt *p, uint32_t slot) {
  return p->annos[slot % NPRT_PKT_ANNOS];
}

static inline void nprt_pkt_set_anno(nprt_pkt *p, uint32_t slot, uint64_t v) {
  p->annos[slot % NPRT_PKT_ANNOS] = v;
  p->annos_set |= 1u << (slot % NPRT_PKT_ANNOS);
}

/* Removes `n` bytes from the front (Click's Strip). Returns false, leaving
 * the packet unchanged, if the frame is shorter than `n`. */
static inline bool nprt_pkt_pull(nprt_pkt *p, uint32_t n) {
  if (n > p->len)
    return false;
  p->data += n;
  p->len -= n;
  p->headroom += n;
  return true;
}

/* The bytes of the headroom from the first that is not 0 up to the frame:
 * what a strip took off, or a push exposed and the program wrote. A new
 * buffer's headroom reads as 0, so these are what a copy of the packet
 * elsewhere (a PCIe record, HLS flits) must carry for a later push to
 * find the same bytes. */
static inline uint32_t nprt_pkt_lead(const nprt_pkt *p) {
  uint32_t written = p->headroom > p->fresh ? p->headroom - p->fresh : 0;
  for (uint32_t k = written; k > 0; --k)
    if (p->data[-(int64_t)k])
      return k;
  return 0;
}

/* Prepends `n` bytes (Click's Unstrip); their content is unspecified until
 * written. Returns false if the headroom is too small. */
static inline bool nprt_pkt_push(nprt_pkt *p, uint32_t n) {
  if (n > p->headroom)
    return false;
  p->data -= n;
  p->len += n;
  p->headroom -= n;
  if (p->headroom < p->fresh) {
    __builtin_memset(p->data, 0, p->fresh - p->headroom);
    p->fresh = p->headroom;
  }
  return true;
}

/* The `n` bytes in front of the frame were written (a copy of a packet
 * puts back the headroom bytes it carried): they are no longer fresh. */
static inline void nprt_pkt_wrote_front(nprt_pkt *p, uint32_t n) {
  uint32_t written = p->headroom > p->fresh ? p->headroom - p->fresh : 0;
  if (n > written)
    p->fresh = p->headroom > n ? p->headroom - n : 0;
}

/* Shortens the frame to `n` bytes (no-op if it is already shorter). */
static inline void nprt_pkt_truncate(nprt_pkt *p, uint32_t n) {
  if (n < p->len) {
    p->tailroom += p->len - n;
    p->len = n;
  }
}

/* Appends `n` zero bytes (Click's put). Returns false, leaving the packet
 * unchanged, if the tailroom is too small. */
static inline bool nprt_pkt_put(nprt_pkt *p, uint32_t n) {
  if (n > p->tailroom)
    return false;
  __builtin_memset(p->data + p->len, 0, n);
  p->len += n;
  p->tailroom -= n;
  return true;
}

/* A packet as the 64-bit word a `queue<pkt, N>` in state stores, and back. */
static inline uint64_t nprt_pkt_word(nprt_pkt *p) {
  return (uint64_t)(uintptr_t)p;
}
static inline nprt_pkt *nprt_word_pkt(uint64_t w) {
  return (nprt_pkt *)(uintptr_t)w;
}

/* Removes `n` bytes from the end (Click's take). Returns false, leaving the
 * packet unchanged, if the frame is shorter than `n`. */
static inline bool nprt_pkt_take(nprt_pkt *p, uint32_t n) {
  if (n > p->len)
    return false;
  p->len -= n;
  p->tailroom += n;
  return true;
}

#ifdef __cplusplus
}
#endif

#endif /* NPRT_PACKET_H */
