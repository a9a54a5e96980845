/*===- lane.h - messages between the cores of a multicore run ---*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * A lane carries values from the instances of one core to those of
 * another: one single-producer single-consumer ring per ordered pair of
 * cores that exchange values. Each message names the program channel it
 * travels on (the consumer core delivers it to that channel's input port)
 * and the sequence number of the packet read whose processing sent it, so
 * that a core merging several lanes can restore the order one core would
 * have given (see cores.c). Indices live on their own cache lines, and each
 * side caches the other's, as in nprt_chan.
 *
 *===----------------------------------------------------------------------===*/
#ifndef NPRT_LANE_H
#define NPRT_LANE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* Messages a lane holds; a power of two. */
#define NPRT_LANE_SLOTS 4096u

typedef struct nprt_lane_msg {
  uint64_t seq;   /* sequence number of the packet read that caused it */
  uint64_t value; /* the value; a packet as a pointer */
  int64_t now;    /* the sender's clock: what now() read when it was sent */
  uint32_t edge;  /* index of the program channel */
  uint32_t is_pkt;
} nprt_lane_msg;

/* Messages a side handles before it publishes its index: sends and
 * receives go in bursts, one cache-line transfer per burst. */
#define NPRT_LANE_BURST 32u

typedef struct nprt_lane {
  /* Producer: `tail` is what the consumer may read, `next` what was
   * written (published by nprt_lane_flush, or when a burst is full). */
  _Alignas(64) _Atomic uint64_t tail;
  uint64_t next;
  uint64_t head_cache;
  /* Consumer: `head` is what the producer may reuse, `taken` what was
   * read (published by nprt_lane_release, or when a burst is full). */
  _Alignas(64) _Atomic uint64_t head;
  uint64_t taken;
  uint64_t tail_cache;
  _Alignas(64) nprt_lane_msg slots[NPRT_LANE_SLOTS];
} nprt_lane;

/* Producer: publishes what was written. */
static inline void nprt_lane_flush(nprt_lane *l) {
  if (atomic_load_explicit(&l->tail, memory_order_relaxed) != l->next)
    atomic_store_explicit(&l->tail, l->next, memory_order_release);
}

/* Producer: appends `m` (visible to the consumer once flushed; a full
 * burst flushes itself); false when full. */
static inline bool nprt_lane_push(nprt_lane *l, const nprt_lane_msg *m) {
  uint64_t t = l->next;
  if (t - l->head_cache >= NPRT_LANE_SLOTS) {
    l->head_cache = atomic_load_explicit(&l->head, memory_order_acquire);
    if (t - l->head_cache >= NPRT_LANE_SLOTS)
      return false;
  }
  l->slots[t & (NPRT_LANE_SLOTS - 1)] = *m;
  l->next = t + 1;
  if (l->next - atomic_load_explicit(&l->tail, memory_order_relaxed) >=
      NPRT_LANE_BURST)
    nprt_lane_flush(l);
  return true;
}

/* Consumer: gives the slots read back to the producer. */
static inline void nprt_lane_release(nprt_lane *l) {
  if (atomic_load_explicit(&l->head, memory_order_relaxed) != l->taken)
    atomic_store_explicit(&l->head, l->taken, memory_order_release);
}

/* Consumer: the oldest message, or NULL when none is published. */
static inline const nprt_lane_msg *nprt_lane_peek(nprt_lane *l) {
  uint64_t h = l->taken;
  if (h == l->tail_cache) {
    /* Done with what was read: let the producer reuse it. */
    nprt_lane_release(l);
    l->tail_cache = atomic_load_explicit(&l->tail, memory_order_acquire);
    if (h == l->tail_cache)
      return NULL;
  }
  return &l->slots[h & (NPRT_LANE_SLOTS - 1)];
}

/* Consumer: drops the message nprt_lane_peek returned. */
static inline void nprt_lane_pop(nprt_lane *l) {
  ++l->taken;
  if (l->taken - atomic_load_explicit(&l->head, memory_order_relaxed) >=
      NPRT_LANE_BURST)
    nprt_lane_release(l);
}

#endif /* NPRT_LANE_H */
