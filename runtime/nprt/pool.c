/*===- pool.c - packet buffer pool ------------------------------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Buffers are carved out of 64-buffer chunks; the free list is LIFO so the
 * buffer freed last (still in cache) is handed out next. Allocation and free
 * of pool buffers never call into the C library.
 *
 *===----------------------------------------------------------------------===*/
#include "runtime/nprt/pool.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NPRT_POOL_CHUNK_BUFS = 64 };

struct nprt_pool_chunk {
  nprt_pool_chunk *next;
};

#define NPRT_BUF_SIZE (NPRT_BUF_HDR + NPRT_PKT_HEADROOM + NPRT_POOL_BUF_BYTES)
#define NPRT_CHUNK_HDR 64u

void nprt_pool_init(nprt_pool *pool) { memset(pool, 0, sizeof(*pool)); }

void nprt_pool_destroy(nprt_pool *pool) {
  while (pool->quarantine) {
    nprt_pkt *next = pool->quarantine->next;
    free(pool->quarantine);
    pool->quarantine = next;
  }
  pool->quarantine_tail = NULL;
  pool->n_quarantine = 0;
  nprt_pool_chunk *c = pool->chunks;
  while (c) {
    nprt_pool_chunk *next = c->next;
    free(c);
    c = next;
  }
  pool->chunks = NULL;
  pool->free_list = NULL;
}

static int nprt_pool_grow(nprt_pool *pool) {
  size_t bytes = NPRT_CHUNK_HDR + NPRT_POOL_CHUNK_BUFS * NPRT_BUF_SIZE;
  nprt_pool_chunk *c = aligned_alloc(64, bytes);
  if (!c)
    return -1;
  c->next = pool->chunks;
  pool->chunks = c;
  uint8_t *base = (uint8_t *)c + NPRT_CHUNK_HDR;
  for (int i = NPRT_POOL_CHUNK_BUFS; i-- > 0;) {
    nprt_pkt *p = (nprt_pkt *)(base + (size_t)i * NPRT_BUF_SIZE);
    p->pool = pool;
    nprt_pkt_to_buf(p)->owner = pool;
    p->annos_set = (1u << NPRT_PKT_ANNOS) - 1u; /* not cleared yet */
    nprt_pkt_to_buf(p)->state = NPRT_BUF_FREE;
    p->next = pool->free_list;
    pool->free_list = p;
  }
  return 0;
}

/* A broken ownership rule: continuing would hand one buffer to two owners
 * or count a packet twice, so the run stops here. */
static _Noreturn void nprt_pool_fatal(const char *what, const nprt_pkt *p) {
  fflush(stdout);
  fprintf(stderr,
          "nprt: fatal: %s of packet %p (%" PRIu32 " bytes); every packet "
          "must be sent or dropped exactly once\n",
          what, (const void *)p, p->len);
  abort();
}

nprt_pkt *nprt_pool_alloc(nprt_pool *pool, uint32_t len) {
  nprt_pkt *p;
  if (len > NPRT_PKT_MAX_BYTES)
    return NULL;
  if (len <= NPRT_POOL_BUF_BYTES) {
    if (!pool->free_list)
      pool->free_list =
          atomic_exchange_explicit(&pool->remote, NULL, memory_order_acquire);
    if (!pool->free_list && nprt_pool_grow(pool) != 0)
      return NULL;
    p = pool->free_list;
    pool->free_list = p->next;
    nprt_pkt_reset(p, (uint8_t *)p + NPRT_BUF_HDR, len, NPRT_POOL_BUF_BYTES);
  } else {
    p = malloc(NPRT_BUF_HDR + NPRT_PKT_HEADROOM + (size_t)len);
    if (!p)
      return NULL;
    p->pool = NULL;
    p->annos_set = (1u << NPRT_PKT_ANNOS) - 1u;
    nprt_pkt_reset(p, (uint8_t *)p + NPRT_BUF_HDR, len, len);
    ++pool->heap_allocated;
  }
  nprt_pkt_to_buf(p)->owner = pool;
  ++pool->allocated;
  if (++pool->live > pool->high_water)
    pool->high_water = pool->live;
  return p;
}

nprt_pkt *nprt_pool_alloc_zeroed(nprt_pool *pool, uint32_t len) {
  nprt_pkt *p = nprt_pool_alloc(pool, len);
  if (p)
    memset(p->data, 0, len);
  return p;
}

nprt_pkt *nprt_pool_clone(nprt_pool *pool, const nprt_pkt *p) {
  nprt_pkt *q = nprt_pool_alloc(pool, p->len);
  if (!q)
    return NULL;
  memcpy(q->data, p->data, p->len);
  q->in_port = p->in_port;
  q->paint = p->paint;
  q->out_port = p->out_port;
  q->anno = p->anno;
  q->ts = p->ts;
  memcpy(q->annos, p->annos, sizeof q->annos);
  q->annos_set = p->annos_set;
  const nprt_pkt_buf *pb = nprt_pkt_to_cbuf(p);
  nprt_pkt_buf *qb = nprt_pkt_to_buf(q);
  qb->cap_len = pb->cap_len;
  qb->wire_len = pb->wire_len;
  return q;
}

#ifdef NPRT_DEBUG
/* Debug builds: keep `p` readable (marked free) so that a second free is
 * caught by its state word; release the oldest beyond the quarantine size. */
static void nprt_pool_quarantine(nprt_pool *pool, nprt_pkt *p) {
  p->next = NULL;
  if (pool->quarantine_tail)
    pool->quarantine_tail->next = p;
  else
    pool->quarantine = p;
  pool->quarantine_tail = p;
  if (++pool->n_quarantine <= NPRT_POOL_QUARANTINE)
    return;
  nprt_pkt *old = pool->quarantine;
  pool->quarantine = old->next;
  --pool->n_quarantine;
  free(old);
}
#endif

/* A heap packet goes back to the C library (whichever thread frees it);
 * debug builds keep it in the freeing pool's quarantine first. */
static void nprt_pool_release_heap(nprt_pool *pool, nprt_pkt *p) {
#ifdef NPRT_DEBUG
  nprt_pool_quarantine(pool, p);
#else
  (void)pool;
  free(p);
#endif
}

void nprt_pool_return_away(nprt_pool *pool) {
  nprt_pool *owner = pool->away_owner;
  if (!pool->away_head)
    return;
  nprt_pkt *top = atomic_load_explicit(&owner->remote, memory_order_relaxed);
  do
    pool->away_tail->next = top;
  while (!atomic_compare_exchange_weak_explicit(
      &owner->remote, &top, pool->away_head, memory_order_release,
      memory_order_relaxed));
  pool->away_head = pool->away_tail = NULL;
  pool->away_n = 0;
}

void nprt_pool_free(nprt_pool *pool, nprt_pkt *p) {
  nprt_pkt_buf *b = nprt_pkt_to_buf(p);
  if (b->state != NPRT_BUF_LIVE)
    nprt_pool_fatal(
        b->state == NPRT_BUF_FREE ? "double free" : "free of a non-packet", p);
  nprt_pool *owner = p->pool;
  if (b->owner != pool) {
    /* Another core's packet: this pool counts the free (a multicore run
     * sums the pools), and the owner's `live` stays as it was. */
    b->state = NPRT_BUF_FREE;
    ++pool->freed;
    if (!owner) {
      nprt_pool_release_heap(pool, p);
      return;
    }
    /* A buffer goes back to its pool, in batches: one contended exchange
     * per batch, not per packet. */
    if (pool->away_owner != owner)
      nprt_pool_return_away(pool);
    pool->away_owner = owner;
    p->next = pool->away_head;
    pool->away_head = p;
    if (!pool->away_tail)
      pool->away_tail = p;
    if (++pool->away_n >= NPRT_POOL_AWAY_BATCH)
      nprt_pool_return_away(pool);
    return;
  }
  if (pool->live == 0)
    nprt_pool_fatal("free of a packet this pool did not hand out", p);
  b->state = NPRT_BUF_FREE;
  ++pool->freed;
  --pool->live;
  if (!owner) {
    nprt_pool_release_heap(pool, p);
    return;
  }
  p->next = owner->free_list;
  owner->free_list = p;
}
