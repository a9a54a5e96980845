/*===- profile.h - sampled cycles per element ---------------------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * With --stats or --stats-json the executor charges processor time to the
 * element whose code runs: every switch of stacks, pushed call and fused
 * call moves the charge (ex->prof_cur), so nested handlers are subtracted
 * from their callers (exclusive time). The clock is read only inside a
 * sampled window: one handler iteration in NPRT_PROF_EVERY, from its start
 * to its end with everything it causes (hand-overs, pushed and fused
 * calls). Each instance's sampled cycles are scaled by its activations
 * over its sampled activations (stats.c). Without the options every hook
 * is one predictable branch.
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

void nprt_prof_charge(nprt_exec *ex, nprt_inst *to);
void nprt_prof_iteration(nprt_inst *self);
void nprt_prof_iteration_end(nprt_inst *self);

/* `to`'s code runs from now on (NULL: the scheduler's). */
static inline void nprt_prof_switch(nprt_exec *ex, nprt_inst *to) {
  if (__builtin_expect(ex->prof, 0))
    nprt_prof_charge(ex, to);
}

/* A pushed or fused call of `to`'s handler begins. */
static inline void nprt_prof_call(nprt_exec *ex, nprt_inst *to) {
  if (__builtin_expect(ex->prof, 0)) {
    to->prof_iters += ex->prof_window;
    nprt_prof_charge(ex, to);
  }
}

/* The stack of ex->running leaves the processor; it resumes in the code of
 * the instance charged now. */
static inline void nprt_prof_leave(nprt_exec *ex) {
  if (__builtin_expect(ex->prof, 0)) {
    ex->running->prof_at = ex->prof_cur;
    nprt_prof_charge(ex, NULL);
  }
}

/* Time spent waiting for another core, from `t0` (a reading of
 * nprt_prof_clock) to now. */
static inline void nprt_prof_wait(nprt_exec *ex, uint64_t t0) {
  if (__builtin_expect(ex->prof, 0))
    ex->prof_wait += nprt_prof_clock() - t0;
}

#endif /* NPRT_PROFILE_H */
