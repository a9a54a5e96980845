/*===- profile.h - sampled cycles per element ---------------------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * With --stats or --stats-json the executor charges processor time to the
 * element whose code runs: inside a sampled window (one handler iteration
 * in NPRT_PROF_EVERY, from its start to its end with everything it causes:
 * hand-overs, pushed and fused calls) every switch of stacks, pushed call
 * and fused call reads the clock and moves the charge (ex->prof.cur), so
 * nested handlers are subtracted from their callers (exclusive time).
 * Outside windows only the packets and bytes are counted. Each instance's
 *sampled cycles are scaled by its activations over its sampled activations
 *(stats.c). Without the options every hook is one predictable branch.
 *
 *===----------------------------------------------------------------------===*/
#ifndef NPRT_PROFILE_H
#define NPRT_PROFILE_H

#include "runtime/nprt/executor.h"

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

/* Slow paths (profile.c), taken only while measuring. */
void nprt_prof_charge(nprt_exec *ex, nprt_inst *to);
void nprt_prof_call_slow(nprt_exec *ex, nprt_inst *to);
void nprt_prof_open(nprt_inst *self);
void nprt_prof_close(nprt_inst *self);
void nprt_prof_count_rx(nprt_inst *self, const nprt_pkt *p);
void nprt_prof_iteration_in_window(nprt_inst *self);
/* Inside a window, a fused call of `to` begins; returns `to`. */
nprt_inst *nprt_prof_fused(nprt_inst *to);

/* `to`'s code runs from now on (NULL: the scheduler's). The charge is
 * only followed inside a window: one opens at the start of a handler
 * iteration, when the code that runs is known. */
static inline void nprt_prof_switch(nprt_exec *ex, nprt_inst *to) {
  if (__builtin_expect(ex->prof.window, 0))
    nprt_prof_charge(ex, to);
}

/* A pushed or fused call of `to`'s handler begins. */
static inline void nprt_prof_call(nprt_exec *ex, nprt_inst *to) {
  if (__builtin_expect(ex->prof.window, 0))
    nprt_prof_call_slow(ex, to);
}

/* Stack `in` is resumed: it runs the code of the instance whose port it
 * waits on (a pushed handler may wait on its sender's stack), else its
 * own. */
static inline void nprt_prof_resume(nprt_exec *ex, nprt_inst *in) {
  if (__builtin_expect(ex->prof.window, 0))
    nprt_prof_charge(ex, in->state == NPRT_BLOCKED && in->wait_on
                             ? (nprt_inst *)(uintptr_t)in->wait_on
                             : in);
}

/* `self` received packet `p` (a channel, a fused call or a device). */
static inline void nprt_prof_rx(nprt_inst *self, const nprt_pkt *p) {
  if (__builtin_expect(self->ex->prof.on, 0))
    nprt_prof_count_rx(self, p);
}

/* A handler iteration of `self` begins on its own stack: counted if a
 * window is open, else it may open one. */
static inline void nprt_prof_iteration(nprt_inst *self) {
  nprt_exec *ex = self->ex;
  if (__builtin_expect(ex->prof.on, 0)) {
    if (ex->prof.window)
      nprt_prof_iteration_in_window(self);
    else if (--ex->prof.countdown == 0)
      nprt_prof_open(self);
  }
}

/* The iteration ended (or `self` ended): closes the window it opened. */
static inline void nprt_prof_iteration_end(nprt_inst *self) {
  nprt_exec *ex = self->ex;
  if (__builtin_expect(ex->prof.window, 0) && ex->prof.owner == self)
    nprt_prof_close(self);
}

/* The running stack leaves the processor for the scheduler's. */
static inline void nprt_prof_leave(nprt_exec *ex) {
  nprt_prof_switch(ex, NULL);
}

/* Time spent waiting for another core, from `t0` (a reading of
 * nprt_prof_clock) to now. */
static inline void nprt_prof_wait(nprt_exec *ex, uint64_t t0) {
  if (__builtin_expect(ex->prof.on, 0))
    ex->prof.wait += nprt_prof_clock() - t0;
}

#endif /* NPRT_PROFILE_H */
