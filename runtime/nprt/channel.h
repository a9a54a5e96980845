/*===- channel.h - bounded SPSC channels --------------------------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * A channel carries uint64_t values (packets travel as pointers cast through
 * uintptr_t) from one producer to one consumer. It is a lock-free ring:
 * `tail` is written only by the producer, `head` only by the consumer, each
 * on its own cache line, and each side keeps a cached copy of the other's
 * index so that it reads the shared one only when the ring looks full
 * (producer) or empty (consumer). Capacity is exactly `depth`; depth 0 is a
 * CSP rendezvous implemented as a one-slot ring whose sender additionally
 * waits until the value was taken (see nprt_chan_taken).
 *
 *===----------------------------------------------------------------------===*/
#ifndef NPRT_CHANNEL_H
#define NPRT_CHANNEL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define NPRT_CHAN_MAX_DEPTH (1u << 28)

typedef struct nprt_pool nprt_pool;

typedef struct nprt_chan {
  /* Producer side. */
  _Alignas(64) _Atomic uint64_t tail;
  uint64_t head_cache;
  uint64_t packets; /* values accepted */
  uint64_t drops;   /* values refused or discarded by the producer side */
  uint64_t max_occupancy;
  /* Consumer side. */
  _Alignas(64) _Atomic uint64_t head;
  uint64_t tail_cache;
  uint64_t consumer_drops; /* values discarded when the consumer ended */
  /* Read-mostly. */
  _Alignas(64) uint64_t *slots;
  uint64_t mask;
  uint32_t depth; /* as declared; 0 = rendezvous */
  uint32_t cap;   /* max(depth, 1) */
  bool lossy;
  /* A pushed call along it is not counted in its stack's `nest`: the
   * compiler showed the graph bounds how deep such calls go
   * (nprt_channel_desc.uncounted). */
  bool uncounted;
  _Atomic bool closed;        /* producer terminated */
  _Atomic bool consumer_gone; /* consumer terminated */
  _Atomic bool carries_pkt;   /* values are nprt_pkt pointers */
  /* Endpoints, for statistics and diagnostics. */
  uint32_t src, src_port, dst, dst_port;
  /* Occupancy sampled at each profiling window (profile.h). */
  uint64_t occ_sum, occ_samples;
} nprt_chan;

/* NULL when memory is exhausted; depth must be <= NPRT_CHAN_MAX_DEPTH. */
nprt_chan *nprt_chan_create(uint32_t depth, bool lossy);
void nprt_chan_destroy(nprt_chan *c);

/* Slow path of nprt_chan_push: records a new maximum occupancy. */
void nprt_chan_note_occupancy(nprt_chan *c, uint64_t tail);

/* Producer: appends `v`; false when the ring holds `cap` values. */
static inline bool nprt_chan_push(nprt_chan *c, uint64_t v) {
  uint64_t t = atomic_load_explicit(&c->tail, memory_order_relaxed);
  if (t - c->head_cache >= c->cap) {
    c->head_cache = atomic_load_explicit(&c->head, memory_order_acquire);
    if (t - c->head_cache >= c->cap)
      return false;
  }
  c->slots[t & c->mask] = v;
  atomic_store_explicit(&c->tail, t + 1, memory_order_release);
  ++c->packets;
  if (t + 1 - c->head_cache > c->max_occupancy)
    nprt_chan_note_occupancy(c, t + 1);
  return true;
}

/* Consumer: takes the oldest value; false when empty. */
static inline bool nprt_chan_pop(nprt_chan *c, uint64_t *v) {
  uint64_t h = atomic_load_explicit(&c->head, memory_order_relaxed);
  if (h == c->tail_cache) {
    c->tail_cache = atomic_load_explicit(&c->tail, memory_order_acquire);
    if (h == c->tail_cache)
      return false;
  }
  *v = c->slots[h & c->mask];
  atomic_store_explicit(&c->head, h + 1, memory_order_release);
  return true;
}

/* Producer and consumer at once (a fused call: the producer runs the
 * consumer's code itself), on an empty ring: counts one value pushed and
 * popped straight away, exactly as nprt_chan_push then nprt_chan_pop would
 * (packets, both indices, the maximum occupancy of 1), without touching a
 * slot. False, changing nothing, when the ring is not empty. */
static inline bool nprt_chan_pass(nprt_chan *c) {
  uint64_t t = atomic_load_explicit(&c->tail, memory_order_relaxed);
  if (t != atomic_load_explicit(&c->head, memory_order_relaxed))
    return false;
  atomic_store_explicit(&c->tail, t + 1, memory_order_release);
  atomic_store_explicit(&c->head, t + 1, memory_order_release);
  c->head_cache = c->tail_cache = t + 1;
  ++c->packets;
  if (!c->max_occupancy)
    c->max_occupancy = 1;
  return true;
}

/* Consumer: true when a value can be popped. */
static inline bool nprt_chan_ready(nprt_chan *c) {
  uint64_t h = atomic_load_explicit(&c->head, memory_order_relaxed);
  if (h != c->tail_cache)
    return true;
  c->tail_cache = atomic_load_explicit(&c->tail, memory_order_acquire);
  return h != c->tail_cache;
}

/* Anyone: number of values in the ring right now. */
static inline uint64_t nprt_chan_occupancy(const nprt_chan *c) {
  uint64_t h = atomic_load_explicit(&c->head, memory_order_acquire);
  uint64_t t = atomic_load_explicit(&c->tail, memory_order_acquire);
  return t - h;
}

/* Producer: index of the value the next push will write. */
static inline uint64_t nprt_chan_ticket(const nprt_chan *c) {
  return atomic_load_explicit(&c->tail, memory_order_relaxed);
}

/* Producer: true once the value pushed with `ticket` was popped. */
static inline bool nprt_chan_taken(const nprt_chan *c, uint64_t ticket) {
  return atomic_load_explicit(&c->head, memory_order_acquire) > ticket;
}

static inline bool nprt_chan_closed(const nprt_chan *c) {
  return atomic_load_explicit(&c->closed, memory_order_acquire);
}
static inline bool nprt_chan_consumer_gone(const nprt_chan *c) {
  return atomic_load_explicit(&c->consumer_gone, memory_order_relaxed);
}

/* Producer terminated: no more values will arrive. */
void nprt_chan_close(nprt_chan *c);
/* Consumer terminated: discards what is left (freeing packets into `pool`)
 * and counts it as drops; later sends are refused. */
void nprt_chan_abandon(nprt_chan *c, nprt_pool *pool);

#endif /* NPRT_CHANNEL_H */
