/*===- profile.h - sampled cycles per element ---------------------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * With --stats or --stats-json the executor charges processor time to the
 * element whose code runs: inside a sampled window (one handler iteration
 * in NPRT_PROF_EVERY, from its start to its end with everything it causes:
 * hand-overs, pushed and fused calls) every switch of stacks, pushed call
 * and fused call reads the clock and moves the charge (nprt_prof.cur), so
 * nested handlers are subtracted from their callers (exclusive time).
 * Outside windows only the packets and bytes are counted. Each instance's
 * sampled cycles are scaled by its activations over its sampled
 * activations (stats.c). Without the options every hook is one
 * predictable branch.
 *
 * Profiling sits below the executor: it knows the graph's instances and
 * channels, and the executor hands it its nprt_prof (ex->prof) at each
 * hook.
 *
 *===----------------------------------------------------------------------===*/
#ifndef NPRT_PROFILE_H
#define NPRT_PROFILE_H

#include "runtime/nprt/graph.h"
#include "runtime/nprt/sim.h"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define NPRT_PROF_CLOCK_NAME "tsc"
#else
#include <time.h>
#define NPRT_PROF_CLOCK_NAME "ns"
#endif

/* A prime, so that the sample does not lock onto the executor's batches
 * of NPRT_MAX_BATCH iterations. */
#define NPRT_PROF_EVERY 61u

/* A charge made in the open profiling window, kept until it closes: a
 * window in which the thread was preempted is dropped. */
typedef struct nprt_prof_entry {
  nprt_inst *inst;
  uint64_t cycles;
  uint64_t iters;
} nprt_prof_entry;
#define NPRT_PROF_LOG 128u

/* Profiling of one graph's run (--stats, --stats-json): an executor's. */
typedef struct nprt_prof {
  bool on;            /* measuring */
  bool window;        /* a sampled window is open */
  nprt_graph *graph;  /* whose channels a window samples */
  nprt_inst *owner;   /* whose handler iteration opened it */
  nprt_inst *cur;     /* charged now; NULL: the scheduler */
  uint64_t t;         /* the clock when `cur` was last charged */
  uint32_t countdown; /* iterations until the next window */
  uint64_t windows;
  uint64_t dropped; /* windows dropped: the thread was preempted */
  long preempted;   /* involuntary context switches at the opening */
  nprt_prof_entry log[NPRT_PROF_LOG];
  uint32_t log_n;
  /* The clock when the schedule started and ended, and the time spent
   * waiting for other cores (spinning or yielding the CPU). */
  uint64_t start, end, wait;
  /* npsim's context (sim.h): the code that runs is the one its cycles
   * count against. */
  struct npsim_ctx *sim;
  nprt_inst *sim_cur; /* the instance whose code runs (NULL: the runtime) */
} nprt_prof;

/* npsim: `in`'s code runs from now on (NULL: the runtime's). */
static inline void nprt_prof_sim(nprt_prof *pf, nprt_inst *in) {
#ifdef NPRT_SIM
  if (pf->sim) {
    pf->sim_cur = in;
    npsim_tag(pf->sim, in ? in->sim_tag : NPSIM_TAG_RUNTIME);
  }
#else
  (void)pf;
  (void)in;
#endif
}

/* Time stamp counter cycles on x86, else nanoseconds (CLOCK_MONOTONIC). */
static inline uint64_t nprt_prof_clock(void) {
#if defined(__x86_64__) || defined(__i386__)
  return __rdtsc();
#else
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}

/* The schedule of `g` starts (measuring if `on`), and ends: an iteration
 * that never ended (a deadlock) closes its window. */
void nprt_prof_start(nprt_prof *pf, nprt_graph *g, bool on);
void nprt_prof_finish(nprt_prof *pf);

/* Slow paths (profile.c), taken only while measuring. */
void nprt_prof_charge(nprt_prof *pf, nprt_inst *to);
void nprt_prof_call_slow(nprt_prof *pf, nprt_inst *to);
void nprt_prof_open(nprt_prof *pf, nprt_inst *self);
void nprt_prof_close(nprt_prof *pf);
void nprt_prof_count_rx(nprt_inst *self, const nprt_pkt *p);
void nprt_prof_iteration_in_window(nprt_prof *pf, nprt_inst *self);
/* Inside a window, a fused call of `to` begins; returns `to`. */
nprt_inst *nprt_prof_fused(nprt_prof *pf, nprt_inst *to);

/* `to`'s code runs from now on (NULL: the scheduler's). The charge is
 * only followed inside a window: one opens at the start of a handler
 * iteration, when the code that runs is known. */
static inline void nprt_prof_switch(nprt_prof *pf, nprt_inst *to) {
  if (__builtin_expect(pf->window, 0))
    nprt_prof_charge(pf, to);
  nprt_prof_sim(pf, to);
}

/* A pushed or fused call of `to`'s handler begins. */
static inline void nprt_prof_call(nprt_prof *pf, nprt_inst *to) {
  if (__builtin_expect(pf->window, 0))
    nprt_prof_call_slow(pf, to);
  nprt_prof_sim(pf, to);
}

/* Stack `in` is resumed: it runs the code of the instance whose port it
 * waits on (a pushed handler may wait on its sender's stack), else its
 * own. */
static inline void nprt_prof_resume(nprt_prof *pf, nprt_inst *in) {
  if (__builtin_expect(pf->window, 0))
    nprt_prof_charge(pf, in->state == NPRT_BLOCKED && in->wait_on
                             ? (nprt_inst *)(uintptr_t)in->wait_on
                             : in);
  nprt_prof_sim(pf, in->state == NPRT_BLOCKED && in->wait_on
                        ? (nprt_inst *)(uintptr_t)in->wait_on
                        : in);
}

/* `self` received packet `p` (a channel, a fused call or a device). */
static inline void nprt_prof_rx(const nprt_prof *pf, nprt_inst *self,
                                const nprt_pkt *p) {
  if (__builtin_expect(pf->on, 0))
    nprt_prof_count_rx(self, p);
}

/* A handler iteration of `self` begins on its own stack: counted if a
 * window is open, else it may open one. */
static inline void nprt_prof_iteration(nprt_prof *pf, nprt_inst *self) {
  if (__builtin_expect(pf->on, 0)) {
    if (pf->window)
      nprt_prof_iteration_in_window(pf, self);
    else if (--pf->countdown == 0)
      nprt_prof_open(pf, self);
  }
}

/* The iteration ended (or `self` ended): closes the window it opened. */
static inline void nprt_prof_iteration_end(nprt_prof *pf,
                                           const nprt_inst *self) {
  if (__builtin_expect(pf->window, 0) && pf->owner == self)
    nprt_prof_close(pf);
}

/* The running stack leaves the processor for the scheduler's. */
static inline void nprt_prof_leave(nprt_prof *pf) {
  nprt_prof_switch(pf, NULL);
}

/* Time spent waiting for another core, from `t0` (a reading of
 * nprt_prof_clock) to now. */
static inline void nprt_prof_wait(nprt_prof *pf, uint64_t t0) {
  if (__builtin_expect(pf->on, 0))
    pf->wait += nprt_prof_clock() - t0;
}

#endif /* NPRT_PROFILE_H */
