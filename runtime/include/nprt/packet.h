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

/* The bit-by-bit path of nprt_pkt_get_bits: fields that are not whole
 * bytes, or that run past the end of the frame. Out of line, so that the
 * byte-aligned path inlines into generated handlers and folds to a load. */
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
  if (byte >= len)
    return 0;
  NPRT_SIM_PKT(p, byte, ((bit_off & 7u) + width + 7u) / 8u, false);
  /* byte < len <= 2^32: no bit position below overflows. */
  uint64_t first = byte * 8u + (bit_off & 7u), end = first + width;
  /* A field inside the frame that fits one 64-bit window (every header
   * field but an unaligned 58..64-bit one): load its bytes, shift, mask.
   * With constant offsets and width this folds to a load and two ops. */
  uint32_t shift = bit_off & 7u;
  if (end <= len * 8u && shift + width <= 64u) {
    const uint8_t *b = p->data + byte;
    uint32_t nbytes = (shift + width + 7u) / 8u;
    uint64_t v = 0;
    for (uint32_t i = 0; i < nbytes; ++i)
      v = (v << 8) | b[i];
    v >>= nbytes * 8u - shift - width;
    return width < 64u ? v & ((UINT64_C(1) << width) - 1u) : v;
  }
  return nprt_pkt_get_bits_slow(p, first, end);
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
  if (byte >= len)
    return false;
  NPRT_SIM_PKT(p, byte, ((bit_off & 7u) + width + 7u) / 8u, true);
  uint64_t first = byte * 8u + (bit_off & 7u), end = first + width;
  /* As in nprt_pkt_get_bits: a field inside the frame within one 64-bit
   * window is merged into the bytes that hold it. */
  uint32_t shift = bit_off & 7u;
  if (end <= len * 8u && shift + width <= 64u) {
    uint8_t *b = p->data + byte;
    uint32_t nbytes = (shift + width + 7u) / 8u;
    uint32_t low = nbytes * 8u - shift - width; /* bits after the field */
    uint64_t mask = (width < 64u ? (UINT64_C(1) << width) - 1u : ~UINT64_C(0))
                    << low;
    uint64_t w = 0;
    if ((shift | low) != 0)
      for (uint32_t i = 0; i < nbytes; ++i)
        w = (w << 8) | b[i];
    w = (w & ~mask) | ((v << low) & mask);
    for (uint32_t i = nbytes; i-- > 0; w >>= 8)
      b[i] = (uint8_t)w;
    return true;
  }
  return nprt_pkt_set_bits_slow(p, first, end, v);
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
    for (uint32_t i = 0, k = p->fresh - p->headroom; i < k; ++i)
      p->data[i] = 0;
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
  for (uint32_t i = 0; i < n; ++i)
    p->data[p->len + i] = 0;
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
