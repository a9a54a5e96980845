/*===- pool.h - packet buffer pool ------------------------------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Fixed-size packet buffers (NPRT_PKT_HEADROOM + NPRT_POOL_BUF_BYTES of
 * frame) recycled through a LIFO free list; larger packets are allocated
 * individually on the heap (their `pool` is NULL). Every allocation and free
 * is counted on the pool so that leaks show up in the run statistics.
 *
 * Ownership is checked: every buffer carries a state word, and freeing a
 * packet that is not live (freed twice, or never handed out) prints
 * "nprt: fatal: ..." and aborts, in every build, before the free list or
 * the counters are touched. Pool buffers are never returned to the C
 * library, so their state word stays readable after a free; a heap packet's
 * does only in debug builds (NPRT_DEBUG, on unless NDEBUG, and under
 * sanitizers), which keep the most recently freed heap packets in a
 * quarantine instead of freeing them at once.
 *
 *===----------------------------------------------------------------------===*/
#ifndef NPRT_POOL_H
#define NPRT_POOL_H

#include "nprt/packet.h"

#include <stddef.h>
#include <stdint.h>
#ifndef __cplusplus
#include <stdatomic.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define NPRT_POOL_BUF_BYTES 2048u

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NPRT_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(NPRT_ASAN)
#define NPRT_ASAN 1
#endif
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define NPRT_TSAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__) && !defined(NPRT_TSAN)
#define NPRT_TSAN 1
#endif
#if !defined(NPRT_DEBUG) && (!defined(NDEBUG) || defined(NPRT_ASAN))
#define NPRT_DEBUG 1
#endif

/* Values of nprt_pkt_buf.state. */
enum {
  NPRT_BUF_FREE = 0x46524545u, /* "FREE": on a free list or in quarantine */
  NPRT_BUF_LIVE = 0x4c495645u, /* "LIVE": handed out, not freed yet */
};

/* Heap packets a debug build keeps (marked free) before releasing them. */
#define NPRT_POOL_QUARANTINE 256u
#define NPRT_POOL_AWAY_BATCH 32u

/* What the runtime keeps next to each packet, invisible to generated code.
 * `pkt` must stay the first member: a nprt_pkt * is a nprt_pkt_buf *. */
typedef struct nprt_pkt_buf {
  nprt_pkt pkt;
  uint32_t cap_len;  /* frame length when captured, 0 if not captured */
  uint32_t wire_len; /* original wire length of the capture */
  uint32_t state;    /* NPRT_BUF_FREE or NPRT_BUF_LIVE */
  /* The pool that handed the packet out, heap packets included (their
   * `pkt.pool` is NULL): a free on another core counts as that core's. */
  struct nprt_pool *owner;
} nprt_pkt_buf;

typedef struct nprt_pool_chunk nprt_pool_chunk;

typedef struct nprt_pool {
  nprt_pkt *free_list;
  /* Buffers of this pool that other cores freed (a multicore run): a
   * lock-free stack they push to and the owner takes whole when its free
   * list runs dry. */
#ifndef __cplusplus
  _Atomic(nprt_pkt *) remote;
#else
  nprt_pkt *remote; /* the same layout; only the C runtime touches it */
#endif
  /* Buffers this pool freed for another (`away_owner`), chained through
   * `next` and handed back NPRT_POOL_AWAY_BATCH at a time. */
  struct nprt_pool *away_owner;
  nprt_pkt *away_head, *away_tail;
  uint32_t away_n;
  nprt_pool_chunk *chunks;
  uint64_t allocated; /* packets handed out, pool and heap */
  uint64_t freed;
  uint64_t live;           /* allocated - freed; never wraps below 0 */
  uint64_t high_water;     /* maximum of `live` */
  uint64_t heap_allocated; /* of `allocated`, too big for a buffer */
  nprt_pkt *quarantine, *quarantine_tail; /* freed heap packets, oldest first */
  uint32_t n_quarantine;
} nprt_pool;

void nprt_pool_init(nprt_pool *pool);
/* Releases every buffer; packets still live become dangling. */
void nprt_pool_destroy(nprt_pool *pool);

/* A packet with a `len`-byte frame (content unspecified), default headroom
 * and zeroed metadata. NULL only when memory is exhausted. */
nprt_pkt *nprt_pool_alloc(nprt_pool *pool, uint32_t len);
/* A zero-filled packet of `len` bytes. */
nprt_pkt *nprt_pool_alloc_zeroed(nprt_pool *pool, uint32_t len);
/* Deep copy of frame and metadata (time stamp, annotations). */
nprt_pkt *nprt_pool_clone(nprt_pool *pool, const nprt_pkt *p);
/* Returns `p` to its owner (its pool's free list, or the heap). Aborts with
 * a message when `p` is not live (a double free). */
void nprt_pool_free(nprt_pool *pool, nprt_pkt *p);
/* Hands the buffers freed for other pools back to them now. */
void nprt_pool_return_away(nprt_pool *pool);

static inline nprt_pkt_buf *nprt_pkt_to_buf(nprt_pkt *p) {
  return (nprt_pkt_buf *)p;
}
static inline const nprt_pkt_buf *nprt_pkt_to_cbuf(const nprt_pkt *p) {
  return (const nprt_pkt_buf *)p;
}

/* A buffer's header rounded up to a cache line, so frames start 64-byte
 * aligned; the frame's headroom follows it. */
#define NPRT_BUF_HDR ((sizeof(nprt_pkt_buf) + 63u) & ~(size_t)63u)

/* Makes the buffer `p` (its frame room `room` bytes from `buf_start`
 * plus the headroom) a new packet of `len` bytes: what nprt_pool_alloc
 * and its inline fast path hand out. */
static inline void nprt_pkt_reset(nprt_pkt *p, uint8_t *buf_start, uint32_t len,
                                  uint32_t room) {
  nprt_pkt_buf *b = nprt_pkt_to_buf(p);
  /* Bytes a later push exposes read as 0, not as an earlier packet's: runs
   * are repeatable (the interpreter and the C target see the same). The
   * push clears them (`fresh`), so a packet that is never pushed costs
   * nothing. */
  p->fresh = NPRT_PKT_HEADROOM;
  p->data = buf_start + NPRT_PKT_HEADROOM;
  p->len = len;
  p->headroom = NPRT_PKT_HEADROOM;
  p->tailroom = room - len;
  p->in_port = 0;
  p->paint = 0;
  p->out_port = 0;
  p->anno = 0;
  p->ts = 0;
  for (uint32_t set = p->annos_set; set; set &= set - 1u)
    p->annos[__builtin_ctz(set)] = 0;
  p->annos_set = 0;
  /* `next` links free buffers only: a live packet's is never read. */
  b->cap_len = 0;
  b->wire_len = 0;
  b->state = NPRT_BUF_LIVE;
}

/* nprt_pool_alloc, inline where it is cheap (a buffer on this pool's own
 * free list), which is every packet of a run in a steady state: the
 * devices' receive and transmit paths take and give buffers per packet.
 * Counted as nprt_pool_alloc counts. */
static inline nprt_pkt *nprt_pool_get(nprt_pool *pool, uint32_t len) {
  nprt_pkt *p = pool->free_list;
  if (__builtin_expect(p == NULL || len > NPRT_POOL_BUF_BYTES, 0))
    return nprt_pool_alloc(pool, len);
  pool->free_list = p->next;
  /* Its `owner` is this pool already: only the pool a buffer belongs to
   * hands it out (nprt_pool_grow set it). */
  nprt_pkt_reset(p, (uint8_t *)p + NPRT_BUF_HDR, len, NPRT_POOL_BUF_BYTES);
  ++pool->allocated;
  if (++pool->live > pool->high_water)
    pool->high_water = pool->live;
  return p;
}

/* nprt_pool_free, inline for a live buffer of this very pool; everything
 * else (a double free, another core's packet, a heap packet) takes the
 * out-of-line path, which checks and reports. A live buffer of this pool
 * was handed out by it (only its pool hands a buffer out): its `owner` is
 * this pool and the pool's `live` counts it. */
static inline void nprt_pool_put(nprt_pool *pool, nprt_pkt *p) {
  nprt_pkt_buf *b = nprt_pkt_to_buf(p);
  if (__builtin_expect(b->state != NPRT_BUF_LIVE || p->pool != pool, 0)) {
    nprt_pool_free(pool, p);
    return;
  }
  b->state = NPRT_BUF_FREE;
  ++pool->freed;
  --pool->live;
  p->next = pool->free_list;
  pool->free_list = p;
}

#ifdef __cplusplus
}
#endif

#endif /* NPRT_POOL_H */
