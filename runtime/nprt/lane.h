/*===- lane.h - messages between the cores of a multicore run ---*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * A lane carries values from the instances of one core to those of
 * another: one single-producer single-consumer ring (nprt_spsc, ring.h)
 * of 32-byte messages per ordered pair of cores that exchange values.
 * Each message names the program channel it travels on (the consumer core
 * delivers it to that channel's input port) and the sequence number of
 * the packet read whose processing sent it, so that a core merging
 * several lanes can restore the order one core would have given (see
 * core_lanes.c). Both sides work in bursts: the sender publishes its index
 * once per NPRT_LANE_BURST messages (and whenever its core could wait,
 * nprt_lane_flush), the receiver gives slots back once per burst (and
 * whenever it finds the lane empty).
 *
 *===----------------------------------------------------------------------===*/
#ifndef NPRT_LANE_H
#define NPRT_LANE_H

#include "runtime/nprt/ring.h"

/* Messages a lane holds; a power of two. */
#define NPRT_LANE_SLOTS 4096u

typedef struct nprt_lane_msg {
  uint64_t seq;   /* sequence number of the packet read that caused it */
  uint64_t value; /* the value; a packet as a pointer */
  int64_t now;    /* the sender's clock: what now() read when it was sent,
                   * NPRT_LANE_NO_CLOCK before the sender's clock started */
  uint32_t edge;  /* index of the program channel */
  uint32_t is_pkt;
} nprt_lane_msg;

_Static_assert(sizeof(nprt_lane_msg) == 32, "a lane message is 32 bytes");

/* A message's `now` when its sender's clock had not started (a source
 * without a device sending before the first packet): it neither starts
 * nor moves the receiver's clock. */
#define NPRT_LANE_NO_CLOCK INT64_MIN
/* The `edge` of a clock tick (rtc, a serial core 0): no value, only the
 * time stamp `now` of input record `seq`, which the clock passes as one
 * core's would on reading it (core_lanes.c). Never on a lane. */
#define NPRT_LANE_TICK UINT32_MAX

/* Messages a side handles before it publishes its index: sends and
 * receives go in bursts, one cache-line transfer per burst. */
#define NPRT_LANE_BURST NPRT_RING_BURST

typedef nprt_spsc nprt_lane;

/* An empty lane; NULL when memory is exhausted. */
static inline nprt_lane *nprt_lane_create(void) {
  return nprt_spsc_create(NPRT_LANE_SLOTS, sizeof(nprt_lane_msg));
}

static inline void nprt_lane_destroy(nprt_lane *l) { nprt_spsc_destroy(l); }

/* Producer: publishes what was written. */
static inline void nprt_lane_flush(nprt_lane *l) {
  if (nprt_spsc_unpublished(l))
    nprt_spsc_publish(l);
}

/* Producer: appends `m` (visible to the consumer once flushed; a full
 * burst flushes itself); false when full. */
static inline bool nprt_lane_push(nprt_lane *l, const nprt_lane_msg *m) {
  if (!nprt_spsc_write1(l, m, sizeof(*m)))
    return false;
  if (nprt_spsc_unpublished(l) >= NPRT_LANE_BURST)
    nprt_spsc_publish(l);
  return true;
}

/* Consumer: gives the slots read back to the producer. */
static inline void nprt_lane_release(nprt_lane *l) {
  if (nprt_spsc_unreleased(l))
    nprt_spsc_release(l);
}

/* Consumer: the oldest message, or NULL when none is published. */
static inline const nprt_lane_msg *nprt_lane_peek(nprt_lane *l) {
  /* Done with what was read: let the producer reuse it. */
  if (l->taken == l->tail_cache)
    nprt_lane_release(l);
  return nprt_spsc_peek(l, sizeof(nprt_lane_msg));
}

/* Consumer: drops the message nprt_lane_peek returned. */
static inline void nprt_lane_pop(nprt_lane *l) {
  nprt_spsc_skip(l);
  if (nprt_spsc_unreleased(l) >= NPRT_LANE_BURST)
    nprt_spsc_release(l);
}

#endif /* NPRT_LANE_H */
