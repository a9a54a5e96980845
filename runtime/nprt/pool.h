/*===- pool.h - packet buffer pool ------------------------------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Fixed-size packet buffers (NPRT_PKT_HEADROOM + NPRT_POOL_BUF_BYTES of
 * frame) recycled through a LIFO free list; larger packets are allocated
 * individually on the heap (their `pool` is NULL). Every allocation and free
 * is counted on the pool so that leaks show up in the run statistics.
 *
 *===----------------------------------------------------------------------===*/
#ifndef NPRT_POOL_H
#define NPRT_POOL_H

#include "nprt/packet.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NPRT_POOL_BUF_BYTES 2048u

/* What the runtime keeps next to each packet, invisible to generated code.
 * `pkt` must stay the first member: a nprt_pkt * is a nprt_pkt_buf *. */
typedef struct nprt_pkt_buf {
  nprt_pkt pkt;
  uint32_t cap_len;  /* frame length when captured, 0 if not captured */
  uint32_t wire_len; /* original wire length of the capture */
  uint8_t ts_nano;   /* ts_frac counts nanoseconds (else microseconds) */
} nprt_pkt_buf;

typedef struct nprt_pool_chunk nprt_pool_chunk;

typedef struct nprt_pool {
  nprt_pkt *free_list;
  nprt_pool_chunk *chunks;
  uint64_t allocated; /* packets handed out, pool and heap */
  uint64_t freed;
  uint64_t live;
  uint64_t high_water;     /* maximum of `live` */
  uint64_t heap_allocated; /* of `allocated`, too big for a buffer */
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
/* Returns `p` to its owner (its pool's free list, or the heap). */
void nprt_pool_free(nprt_pool *pool, nprt_pkt *p);

static inline nprt_pkt_buf *nprt_pkt_to_buf(nprt_pkt *p) {
  return (nprt_pkt_buf *)p;
}
static inline const nprt_pkt_buf *nprt_pkt_to_cbuf(const nprt_pkt *p) {
  return (const nprt_pkt_buf *)p;
}

#ifdef __cplusplus
}
#endif

#endif /* NPRT_POOL_H */
