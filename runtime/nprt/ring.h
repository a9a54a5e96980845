/*===- ring.h - lock-free SPSC and MPSC rings between threads ----*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * nprt_spsc: a bounded single-producer single-consumer ring of fixed-size
 * records (8-byte values, 32-byte lane messages, 64-byte messages). The
 * shared indices, `tail` (written by the producer) and `head` (written by
 * the consumer), live on cache lines of their own; each side works from a
 * line of its own holding its private index, a cached copy of the other
 * side's index (read afresh only when the ring looks full, or empty) and
 * the ring's geometry. Records are copied with a size known at the call
 * site, so that every operation inlines to plain loads and stores.
 *
 * Operations come in two layers. The plain ones (nprt_spsc_push, _pop and
 * their _burst forms of up to NPRT_RING_BURST records) publish what they
 * did at once: one release store per call, so a burst of 32 costs one
 * index transfer. Underneath, nprt_spsc_write / nprt_spsc_publish and
 * nprt_spsc_peek / nprt_spsc_read / nprt_spsc_release let a side work for
 * a while and publish later (the lanes between cores publish once per 32
 * messages, and before their core could wait).
 *
 * nprt_mpsc: a bounded multi-producer single-consumer ring of 8-byte values
 * for fan-in across cores, lock-free: producers claim slots by advancing
 * `tail` with a compare-and-swap, and each slot carries a sequence number
 * (D. Vyukov's bounded queue) that says whether it is free for the lap a
 * producer claims (seq == position), written (seq == position + 1) or
 * still holding the previous lap's value. Each producer's values come out
 * in the order it pushed them.
 *
 *===----------------------------------------------------------------------===*/
#ifndef NPRT_RING_H
#define NPRT_RING_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Records a burst operation moves at most (callers may ask for fewer). */
#define NPRT_RING_BURST 32u

typedef struct nprt_spsc {
  /* Records the consumer may read: written by the producer. */
  _Alignas(64) _Atomic uint64_t tail;
  /* Records the producer may overwrite: written by the consumer. */
  _Alignas(64) _Atomic uint64_t head;
  /* The producer's line: records written (published or not), its copy of
   * `head`, and the geometry. */
  _Alignas(64) uint64_t next;
  uint64_t head_cache;
  uint64_t pmask;
  uint8_t *pslots;
  /* The consumer's line: records read (released or not), its copy of
   * `tail`, and the geometry. */
  _Alignas(64) uint64_t taken;
  uint64_t tail_cache;
  uint64_t cmask;
  uint8_t *cslots;
  /* Read-only after creation. */
  _Alignas(64) uint32_t size; /* bytes per record */
  uint32_t slots;             /* capacity, a power of two */
} nprt_spsc;

/* A ring of `slots` records of `size` bytes (both powers of two, `size`
 * at most 4096); NULL when memory is exhausted or the geometry is wrong.
 * The records follow the header, 64-byte aligned. */
nprt_spsc *nprt_spsc_create(uint32_t slots, uint32_t size);
void nprt_spsc_destroy(nprt_spsc *r);

/*--- Producer ------------------------------------------------------------*/

/* Room for up to `want` records, reading `head` only when the cached copy
 * says there is less. */
static inline uint32_t nprt_spsc_room(nprt_spsc *r, uint32_t want) {
  uint64_t room = r->pmask + 1 - (r->next - r->head_cache);
  if (room < want) {
    r->head_cache = atomic_load_explicit(&r->head, memory_order_acquire);
    room = r->pmask + 1 - (r->next - r->head_cache);
  }
  return room < want ? (uint32_t)room : want;
}

/* Appends one record without publishing it; false when full. */
static inline bool nprt_spsc_write1(nprt_spsc *r, const void *rec,
                                    size_t size) {
  if (r->next - r->head_cache > r->pmask && !nprt_spsc_room(r, 1))
    return false;
  memcpy(r->pslots + (r->next & r->pmask) * size, rec, size);
  ++r->next;
  return true;
}

/* Appends up to `n` records without publishing them; how many fit. */
static inline uint32_t nprt_spsc_write(nprt_spsc *r, const void *recs,
                                       uint32_t n, size_t size) {
  n = nprt_spsc_room(r, n);
  uint64_t at = r->next & r->pmask, first = r->pmask + 1 - at;
  if (first >= n) {
    memcpy(r->pslots + at * size, recs, n * size);
  } else {
    memcpy(r->pslots + at * size, recs, first * size);
    memcpy(r->pslots, (const uint8_t *)recs + first * size, (n - first) * size);
  }
  r->next += n;
  return n;
}

/* Publishes what was written. */
static inline void nprt_spsc_publish(nprt_spsc *r) {
  atomic_store_explicit(&r->tail, r->next, memory_order_release);
}

/* Records written and not published yet. */
static inline uint64_t nprt_spsc_unpublished(const nprt_spsc *r) {
  return r->next - atomic_load_explicit(&r->tail, memory_order_relaxed);
}

static inline bool nprt_spsc_push(nprt_spsc *r, const void *rec, size_t size) {
  if (!nprt_spsc_write1(r, rec, size))
    return false;
  nprt_spsc_publish(r);
  return true;
}

/* Up to `n` records, published together; how many fit. */
static inline uint32_t nprt_spsc_push_burst(nprt_spsc *r, const void *recs,
                                            uint32_t n, size_t size) {
  n = nprt_spsc_write(r, recs, n, size);
  if (n)
    nprt_spsc_publish(r);
  return n;
}

/*--- Consumer ------------------------------------------------------------*/

/* Records readable, up to `want`, reading `tail` only when the cached copy
 * says there are fewer. */
static inline uint32_t nprt_spsc_avail(nprt_spsc *r, uint32_t want) {
  uint64_t avail = r->tail_cache - r->taken;
  if (avail < want) {
    r->tail_cache = atomic_load_explicit(&r->tail, memory_order_acquire);
    avail = r->tail_cache - r->taken;
  }
  return avail < want ? (uint32_t)avail : want;
}

/* The oldest unread record, in place, or NULL when none is published.
 * nprt_spsc_skip moves past it. */
static inline void *nprt_spsc_peek(nprt_spsc *r, size_t size) {
  if (r->taken == r->tail_cache && !nprt_spsc_avail(r, 1))
    return NULL;
  return r->cslots + (r->taken & r->cmask) * size;
}

static inline void nprt_spsc_skip(nprt_spsc *r) { ++r->taken; }

/* Reads up to `n` records without releasing their slots; how many. */
static inline uint32_t nprt_spsc_read(nprt_spsc *r, void *recs, uint32_t n,
                                      size_t size) {
  n = nprt_spsc_avail(r, n);
  uint64_t at = r->taken & r->cmask, first = r->cmask + 1 - at;
  if (first >= n) {
    memcpy(recs, r->cslots + at * size, n * size);
  } else {
    memcpy(recs, r->cslots + at * size, first * size);
    memcpy((uint8_t *)recs + first * size, r->cslots, (n - first) * size);
  }
  r->taken += n;
  return n;
}

/* Gives the slots read back to the producer. */
static inline void nprt_spsc_release(nprt_spsc *r) {
  atomic_store_explicit(&r->head, r->taken, memory_order_release);
}

/* Records read and not released yet. */
static inline uint64_t nprt_spsc_unreleased(const nprt_spsc *r) {
  return r->taken - atomic_load_explicit(&r->head, memory_order_relaxed);
}

static inline bool nprt_spsc_pop(nprt_spsc *r, void *rec, size_t size) {
  const void *p = nprt_spsc_peek(r, size);
  if (!p)
    return false;
  memcpy(rec, p, size);
  ++r->taken;
  nprt_spsc_release(r);
  return true;
}

/* Up to `n` records, released together; how many. */
static inline uint32_t nprt_spsc_pop_burst(nprt_spsc *r, void *recs, uint32_t n,
                                           size_t size) {
  n = nprt_spsc_read(r, recs, n, size);
  if (n)
    nprt_spsc_release(r);
  return n;
}

/*--- 8-byte values -------------------------------------------------------*/

static inline bool nprt_spsc_push64(nprt_spsc *r, uint64_t v) {
  return nprt_spsc_push(r, &v, sizeof(v));
}
static inline bool nprt_spsc_pop64(nprt_spsc *r, uint64_t *v) {
  return nprt_spsc_pop(r, v, sizeof(*v));
}
static inline uint32_t nprt_spsc_push64_burst(nprt_spsc *r, const uint64_t *v,
                                              uint32_t n) {
  return nprt_spsc_push_burst(r, v, n, sizeof(*v));
}
static inline uint32_t nprt_spsc_pop64_burst(nprt_spsc *r, uint64_t *v,
                                             uint32_t n) {
  return nprt_spsc_pop_burst(r, v, n, sizeof(*v));
}

/*--- MPSC ----------------------------------------------------------------*/

typedef struct nprt_mpsc_slot {
  _Atomic uint64_t seq;
  uint64_t value;
} nprt_mpsc_slot;

typedef struct nprt_mpsc {
  /* Next position a producer claims. */
  _Alignas(64) _Atomic uint64_t tail;
  /* Read-only after creation. */
  _Alignas(64) uint64_t mask;
  /* The consumer's own. */
  _Alignas(64) uint64_t head;
  _Alignas(64) nprt_mpsc_slot slots[];
} nprt_mpsc;

/* A ring of `slots` values (a power of two); NULL when memory is
 * exhausted or `slots` is not a power of two. */
nprt_mpsc *nprt_mpsc_create(uint32_t slots);
void nprt_mpsc_destroy(nprt_mpsc *r);

/* Any producer: claims `n` consecutive positions (all or none); their
 * first, or UINT64_MAX when fewer than `n` slots are free. */
static inline uint64_t nprt_mpsc_claim(nprt_mpsc *r, uint32_t n) {
  uint64_t pos = atomic_load_explicit(&r->tail, memory_order_relaxed);
  for (;;) {
    /* The consumer frees slots in order: when the last one is free for
     * this lap, so are the others. */
    uint64_t last = pos + n - 1;
    uint64_t seq = atomic_load_explicit(&r->slots[last & r->mask].seq,
                                        memory_order_acquire);
    int64_t d = (int64_t)(seq - last);
    if (d == 0) {
      if (atomic_compare_exchange_weak_explicit(&r->tail, &pos, pos + n,
                                                memory_order_relaxed,
                                                memory_order_relaxed))
        return pos;
    } else if (d < 0) {
      return UINT64_MAX;
    } else {
      pos = atomic_load_explicit(&r->tail, memory_order_relaxed);
    }
  }
}

/* Any producer: fills the claimed position `pos`. */
static inline void nprt_mpsc_fill(nprt_mpsc *r, uint64_t pos, uint64_t v) {
  nprt_mpsc_slot *s = &r->slots[pos & r->mask];
  s->value = v;
  atomic_store_explicit(&s->seq, pos + 1, memory_order_release);
}

static inline bool nprt_mpsc_push(nprt_mpsc *r, uint64_t v) {
  uint64_t pos = nprt_mpsc_claim(r, 1);
  if (pos == UINT64_MAX)
    return false;
  nprt_mpsc_fill(r, pos, v);
  return true;
}

/* All `n` values (n <= capacity) or none. */
static inline bool nprt_mpsc_push_burst(nprt_mpsc *r, const uint64_t *v,
                                        uint32_t n) {
  if (!n)
    return true;
  uint64_t pos = nprt_mpsc_claim(r, n);
  if (pos == UINT64_MAX)
    return false;
  for (uint32_t i = 0; i < n; ++i)
    nprt_mpsc_fill(r, pos + i, v[i]);
  return true;
}

/* The consumer: the oldest value, false when it is not written yet. */
static inline bool nprt_mpsc_pop(nprt_mpsc *r, uint64_t *v) {
  nprt_mpsc_slot *s = &r->slots[r->head & r->mask];
  if (atomic_load_explicit(&s->seq, memory_order_acquire) != r->head + 1)
    return false;
  *v = s->value;
  atomic_store_explicit(&s->seq, r->head + r->mask + 1, memory_order_release);
  ++r->head;
  return true;
}

/* The consumer: up to `n` values, oldest first; how many. */
static inline uint32_t nprt_mpsc_pop_burst(nprt_mpsc *r, uint64_t *v,
                                           uint32_t n) {
  uint32_t k = 0;
  while (k < n && nprt_mpsc_pop(r, &v[k]))
    ++k;
  return k;
}

#endif /* NPRT_RING_H */
