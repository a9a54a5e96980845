/*===- link.h - the inline fast path of a fused send ------------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * A fused send (nprt_fused_enter_*) asks the runtime, on every value,
 * whether the consumer's push body may run now as a call. Most of what it
 * checks cannot change between two values of a run: the consumer runs and
 * is pushed to on that port, the run is past init and signals, nothing is
 * being profiled. So the runtime arms a port's link once it let a call
 * through, and disarms it the moment any of that stops holding (the value
 * had to be queued, the consumer ended, a value waits on another of the
 * consumer's ports). An armed link leaves two things to check inline: the
 * stand-in packet, and the depth of calls on the running stack. What the call
 *counts (the channel's values, the consumer's iterations) it counts here; the
 *channel's indices do not move (nprt_in_packets counts such values from
 *`packets`).
 *
 * Generated code sees only the first fields of an instance, declared
 * here; graph.h keeps them first and checks their offsets.
 *
 *===----------------------------------------------------------------------===*/
#ifndef NPRT_LINK_H
#define NPRT_LINK_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The armed fast path of one output port of an instance. */
typedef struct nprt_link {
  nprt_inst *to;             /* the consumer; NULL: not armed */
  uint64_t *packets;         /* the channel's count of values */
  nprt_inst *const *running; /* the instance whose stack runs */
  /* Where nprt_link_selected stores `select_to`: the consumer's
   * round-robin start when a call stands for the select its handler
   * starts with, else `spare` (never NULL: graph.c). */
  uint32_t *select_next;
  uint32_t select_to, spare;
  /* The consumer's push body on the channel's port, set when the channel
   * is connected and kept when the link is armed or disarmed: what an
   * indirect fused send calls (nprt_link_call_*). NULL when the consumer
   * has none or the runtime put an instance of its own in between (then
   * nprt_fused_enter_* never lets a call through). */
  nprt_push_fn push;
} nprt_link;

/* The first fields of every instance (graph.h's nprt_inst). */
typedef struct nprt_inst_head {
  nprt_link *links;        /* one per output port */
  const nprt_pkt *standin; /* what nprt_pkt_new returns when out of memory */
  uint64_t iterations;     /* handler iterations and pushed calls */
  uint32_t nest;           /* pushed calls in progress on its stack */
  bool progress;           /* a value moved in the current iteration */
} nprt_inst_head;

/* Pushed calls one stack may hold (sched.h's NPRT_MAX_NEST). */
#define NPRT_LINK_MAX_NEST 64u

static inline nprt_inst *nprt_link_enter(nprt_inst *self, uint32_t port,
                                         const nprt_pkt *p) {
  nprt_inst_head *h = (nprt_inst_head *)(void *)self;
  nprt_link *l = &h->links[port];
  nprt_inst_head *to = (nprt_inst_head *)(void *)l->to;
  if (__builtin_expect(to != NULL && p != h->standin, 1)) {
    nprt_inst_head *f = (nprt_inst_head *)(void *)*l->running;
    if (__builtin_expect(f->nest < NPRT_LINK_MAX_NEST, 1)) {
      ++f->nest;
      ++*l->packets;
      ++to->iterations;
      to->progress = true;
      h->progress = true;
      return l->to;
    }
  }
  return NULL;
}

/* As nprt_fused_enter_pkt, through the link when it is armed. */
static inline nprt_inst *nprt_link_enter_pkt(nprt_inst *self, uint32_t port,
                                             nprt_pkt *p) {
  nprt_inst *to = nprt_link_enter(self, port, p);
  return __builtin_expect(to != NULL, 1) ? to
                                         : nprt_fused_enter_pkt(self, port, p);
}

/* As nprt_fused_enter_val, through the link when it is armed. */
static inline nprt_inst *nprt_link_enter_val(nprt_inst *self, uint32_t port,
                                             uint64_t v) {
  nprt_inst *to = nprt_link_enter(self, port, NULL);
  return __builtin_expect(to != NULL, 1) ? to
                                         : nprt_fused_enter_val(self, port, v);
}

/* After a call nprt_link_enter_* let through that stands for the select
 * the consumer's handler starts with. Through the runtime's path the
 * store repeats what nprt_fused_enter_* did. */
static inline void nprt_link_selected(nprt_inst *self, uint32_t port) {
  nprt_link *l = &((nprt_inst_head *)(void *)self)->links[port];
  *l->select_next = l->select_to;
}

/* As nprt_fused_leave. A link armed now was armed when the call began, or
 * armed by it: either way nothing is profiled, and leaving is only the
 * depth of calls. */
static inline void nprt_link_leave(nprt_inst *self, uint32_t port) {
  nprt_link *l = &((nprt_inst_head *)(void *)self)->links[port];
  if (__builtin_expect(l->to != NULL, 1))
    --((nprt_inst_head *)(void *)*l->running)->nest;
  else
    nprt_fused_leave(self);
}

/* Static hops. A pushed call along an uncounted channel
 * (nprt_channel_desc.uncounted: it closes no cycle of the graph, and
 * fewer than NPRT_LINK_STATIC_DEPTH calls that close none can follow it)
 * does not count toward the depth of calls on its stack: between two
 * counted calls the graph bounds how deep such calls go. A fused send on one
 * (nprt_link_pass_*) then checks only that its link is armed and counts what
 * the runtime would count. When the link is not armed the runtime decides as
 * for any fused send, and nprt_link_pass_leave lets it see the end of the call
 * only when the link is not armed then: a link armed then was armed by
 * the runtime (so nothing is profiled) or was armed all along. */
#define NPRT_LINK_STATIC_DEPTH 32u

static inline nprt_inst *nprt_link_pass(nprt_inst *self, uint32_t port) {
  nprt_inst_head *h = (nprt_inst_head *)(void *)self;
  nprt_link *l = &h->links[port];
  nprt_inst_head *to = (nprt_inst_head *)(void *)l->to;
  if (__builtin_expect(to != NULL, 1)) {
    ++*l->packets;
    ++to->iterations;
    to->progress = true;
    h->progress = true;
  }
  return (nprt_inst *)(void *)to;
}

/* A static hop of a packet that may be the sender's stand-in. */
static inline nprt_inst *nprt_link_pass_pkt(nprt_inst *self, uint32_t port,
                                            nprt_pkt *p) {
  if (__builtin_expect(p != ((nprt_inst_head *)(void *)self)->standin, 1)) {
    nprt_inst *to = nprt_link_pass(self, port);
    if (__builtin_expect(to != NULL, 1))
      return to;
  }
  return nprt_fused_enter_pkt(self, port, p);
}

/* A static hop of a packet the sender was handed (its push body's
 * argument, a received or a device's packet): never a stand-in. */
static inline nprt_inst *nprt_link_forward_pkt(nprt_inst *self, uint32_t port,
                                               nprt_pkt *p) {
  nprt_inst *to = nprt_link_pass(self, port);
  return __builtin_expect(to != NULL, 1) ? to
                                         : nprt_fused_enter_pkt(self, port, p);
}

/* A static hop of an integer. */
static inline nprt_inst *nprt_link_pass_val(nprt_inst *self, uint32_t port,
                                            uint64_t v) {
  nprt_inst *to = nprt_link_pass(self, port);
  return __builtin_expect(to != NULL, 1) ? to
                                         : nprt_fused_enter_val(self, port, v);
}

/* The call a static hop made returned. */
static inline void nprt_link_pass_leave(nprt_inst *self, uint32_t port) {
  nprt_link *l = &((nprt_inst_head *)(void *)self)->links[port];
  if (__builtin_expect(l->to == NULL, 0))
    nprt_fused_pass_leave(self);
}

/* Indirect fused sends. Instances that share their element's code may
 * have consumers that do not share theirs: such a send calls the push body
 * its link holds on the consumer nprt_link_enter_* or nprt_link_pass_*
 * returned (never NULL then: a call goes through only to an instance of
 * the program pushed to on that port). */
static inline void nprt_link_call_pkt(nprt_inst *self, uint32_t port,
                                      nprt_inst *to, nprt_pkt *p) {
  nprt_push_fn f = ((nprt_inst_head *)(void *)self)->links[port].push;
  ((void (*)(nprt_inst *, nprt_pkt *))f)(to, p);
}

static inline void nprt_link_call_val(nprt_inst *self, uint32_t port,
                                      nprt_inst *to, int64_t v) {
  nprt_push_fn f = ((nprt_inst_head *)(void *)self)->links[port].push;
  ((void (*)(nprt_inst *, int64_t))f)(to, v);
}

#ifdef __cplusplus
}
#endif

#endif /* NPRT_LINK_H */
