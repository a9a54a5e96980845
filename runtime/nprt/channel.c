/*===- channel.c - bounded SPSC channels --------------------------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Creation, teardown and the rare paths of the ring; push and pop are
 * inline in channel.h.
 *
 *===----------------------------------------------------------------------===*/
#include "runtime/nprt/channel.h"

#include "runtime/nprt/pool.h"

#include <stdlib.h>
#include <string.h>

nprt_chan *nprt_chan_create(uint32_t depth, bool lossy) {
  if (depth > NPRT_CHAN_MAX_DEPTH)
    return NULL;
  nprt_chan *c = aligned_alloc(64, sizeof(nprt_chan));
  if (!c)
    return NULL;
  memset(c, 0, sizeof(*c));
  c->depth = depth;
  c->cap = depth ? depth : 1;
  uint64_t ring = 1;
  while (ring < c->cap)
    ring <<= 1;
  c->mask = ring - 1;
  c->slots = calloc(ring, sizeof(uint64_t));
  if (!c->slots) {
    free(c);
    return NULL;
  }
  c->lossy = lossy;
  atomic_init(&c->tail, 0);
  atomic_init(&c->head, 0);
  atomic_init(&c->closed, false);
  atomic_init(&c->consumer_gone, false);
  atomic_init(&c->carries_pkt, false);
  return c;
}

void nprt_chan_destroy(nprt_chan *c) {
  if (!c)
    return;
  free(c->slots);
  free(c);
}

void nprt_chan_note_occupancy(nprt_chan *c, uint64_t tail) {
  /* The cached head may be stale (too small); only a fresh one gives the
   * real occupancy, and it is read only when a new maximum seems reached. */
  c->head_cache = atomic_load_explicit(&c->head, memory_order_acquire);
  uint64_t occ = tail - c->head_cache;
  if (occ > c->max_occupancy)
    c->max_occupancy = occ;
}

void nprt_chan_close(nprt_chan *c) {
  atomic_store_explicit(&c->closed, true, memory_order_release);
}

void nprt_chan_abandon(nprt_chan *c, nprt_pool *pool) {
  atomic_store_explicit(&c->consumer_gone, true, memory_order_release);
  bool pkts = atomic_load_explicit(&c->carries_pkt, memory_order_acquire);
  uint64_t v;
  while (nprt_chan_pop(c, &v)) {
    if (pkts && pool && v)
      nprt_pool_free(pool, (nprt_pkt *)(uintptr_t)v);
    ++c->consumer_drops;
  }
}
