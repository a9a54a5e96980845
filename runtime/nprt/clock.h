/*===- clock.h - the program's clock and the timers ----------------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * The program's clock (nprt_clock, an executor's `clock`) and the timers,
 * for the scheduler (sched.c). nprt_now and nprt_exec_advance, which
 * the port operations call, are declared in nprt.h and executor.h; a
 * graph's instances read the clock of the executor they run on.
 *
 *===----------------------------------------------------------------------===*/
#ifndef NPRT_CLOCK_H
#define NPRT_CLOCK_H

#include "nprt/nprt.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct nprt_exec nprt_exec;

/* The program's clock (nprt_now), in ns: the time stamp of the last
 * packet read, or a timer's deadline while it runs; with --live the
 * host's clock when it was last read. */
typedef struct nprt_clock {
  int64_t now;
  bool live; /* --live: nprt_now reads the host's clock */
  bool started;
  bool has_timers; /* some instance has a timer (set when the clock starts) */
  /* --live: the time of day at the start minus CLOCK_MONOTONIC then, so
   * that live time reads as time of day but never goes back. */
  int64_t live_base;
  /* --duration: the clock reading at which ingress stops (set when the
   * clock starts); INT64_MAX without a limit. */
  int64_t end;
} nprt_clock;

/* A clock that has not started: on the host's clock if `live`. */
void nprt_clock_init(nprt_clock *c, bool live);
/* --live: the host's clock, in ns since the epoch (monotonic). */
int64_t nprt_clock_live_now(const nprt_clock *c);
/* What nprt_now returns: the host's clock if live, else `now`. */
int64_t nprt_clock_read(const nprt_clock *c);

/* The clock starts at `t`: the first packet, or the first time the graph
 * waits for a timer (time 0 then, or the start of a --live run). Timers
 * fall due one period after it; --duration counts from it. */
void nprt_clock_start(nprt_exec *ex, int64_t t);
/* Runs the timer of `self` on its own stack, keeping what it waited for. */
void nprt_clock_run_timer(nprt_inst *self);
/* --live, between rounds: runs the timers whose deadline passed on the
 * host's clock, and ends the run at the end of --duration. */
void nprt_clock_live_tick(nprt_exec *ex);
/* --live, while nothing can move: sleeps until `deadline` on the host's
 * clock, or less if something from outside or a stop signal comes. */
void nprt_clock_sleep_until(nprt_exec *ex, int64_t deadline);
/* Nothing can move: moves time on to the next timer of a source that
 * waits for one; false when there is none. */
bool nprt_clock_wait_for_timers(nprt_exec *ex);
/* The same from inside instance `self`, when nothing but `self` can move
 * (a multicore lane-in, which polls, so the scheduler never sees the graph
 * stand still): in virtual time, moves the clock on to the next deadline
 * and runs the timer due then (nprt_exec_advance_one) if a source waits
 * for its timer; false otherwise. */
bool nprt_clock_jump_from(nprt_inst *self);

#ifdef __cplusplus
}
#endif

#endif /* NPRT_CLOCK_H */
