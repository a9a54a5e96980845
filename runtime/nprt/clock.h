/*===- clock.h - the program's clock and the timers ----------------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * The executor's clock (nprt_exec: now, end, live_base) and its timers,
 * for the scheduler (executor.c). nprt_now and nprt_exec_advance, which
 * the port operations call, are declared in nprt.h and executor.h.
 *
 *===----------------------------------------------------------------------===*/
#ifndef NPRT_CLOCK_H
#define NPRT_CLOCK_H

#include "runtime/nprt/executor.h"

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

#endif /* NPRT_CLOCK_H */
