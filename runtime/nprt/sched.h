/*===- sched.h - the scheduler's state and its entry points ---------*- C
 *-*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * The scheduler (sched.c) of an executor: whose stack runs, the run's
 * phase, the values handed over depth-first, and the loop that runs the
 * instances to the end. What the port operations call is in executor.h.
 *
 *===----------------------------------------------------------------------===*/
#ifndef NPRT_SCHED_H
#define NPRT_SCHED_H

#include "runtime/nprt/graph.h"

#include <setjmp.h>
#include <stdio.h>

/* Run phases; instances wait at a barrier between them. */
enum {
  NPRT_PHASE_INIT = 0,    /* init() of every instance */
  NPRT_PHASE_SIGNALS = 1, /* --signal handlers */
  NPRT_PHASE_RUN = 2,     /* handler() loops */
};

/* Handler iterations an instance may run before it yields even though it
 * did not block, so that polling instances cannot starve the others. */
#define NPRT_MAX_BATCH 64u
/* Pushed handler calls one stack may hold; a deeper push leaves the value
 * in its channel for the consumer's own stack (a packet cycling without
 * end would otherwise overflow the stack, as it does Click's). */
#define NPRT_MAX_NEST 64u

/* The scheduler's state (sched.c). */
typedef struct nprt_sched {
  uint32_t phase;  /* NPRT_PHASE_* */
  uint32_t n_done; /* instances that terminated */
  /* Depth-first order, as in Click's push processing: a send runs a push
   * consumer's handler as a call (nest deep), or switches to a consumer
   * waiting for the value while the sender waits on `stack` and resumes
   * when its consumers block again; each packet goes down its whole path
   * before the next one enters. The depth of the calls is the `nest` of
   * the instance whose stack holds them. */
  nprt_inst *running; /* whose stack the processor is on (not the
                       * scheduler's) */
  nprt_inst *next;    /* to run next, or NULL */
  nprt_inst **stack;  /* senders that handed a value over, innermost last */
  uint32_t stack_n;
  jmp_buf jb; /* the scheduler's side of every switch */
#ifdef NPRT_ASAN
  const void *stack_base; /* the scheduler's stack, for fiber switches */
  size_t stack_bytes;
#endif
#ifdef NPRT_TSAN
  void *tsan_fiber; /* the scheduler's fiber: the thread's own */
#endif
} nprt_sched;

/* Whether `in`, blocked, may resume: what it waits for came (or its
 * timer is due). */
bool nprt_sched_ready(const nprt_exec *ex, const nprt_inst *in);
/* Round-robin over runnable instances until all terminated or the graph
 * drained (0), none can move (-1, deadlock) or a second signal abandons
 * the drain (-2). */
int nprt_sched_run(nprt_exec *ex);
/* A stop signal that arrived becomes the run's; true once the drain is to
 * be abandoned (a second signal). */
bool nprt_sched_take_signals(nprt_exec *ex);
/* Names on `err` every instance the deadlock left blocked, and what it
 * waits for. */
void nprt_sched_report_deadlock(const nprt_exec *ex, FILE *err);

#endif /* NPRT_SCHED_H */
