/*===- clock.c - the program's clock and the timers ----------------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * nprt_now reads the time stamp of the last packet read (trace time), or a
 * timer's deadline while it runs; with --live the host's clock. Timers fall
 * due in deadline order as the packets' times pass them, or, when nothing
 * else can move, the clock jumps to the next deadline (virtual time) or,
 * with --live, the scheduler sleeps until it. See clock.h.
 *
 *===----------------------------------------------------------------------===*/
#include "runtime/nprt/clock.h"

#include "runtime/nprt/executor.h"
#include "runtime/nprt/profile.h"

#include <poll.h>
#include <signal.h>
#include <time.h>

/* Runs the timer of `self` on its own stack, keeping what it waited for. */
void nprt_clock_run_timer(nprt_inst *self) {
  nprt_wait_kind wait = self->wait;
  const nprt_inst *on = self->wait_on;
  uint32_t port = self->wait_port;
  uint64_t mask = self->wait_mask, ticket = self->wait_ticket;
  self->timer_due = false;
  self->in_timer = true;
  self->timer(self);
  self->in_timer = false;
  self->timer_deadline += (int64_t)self->timer_period;
  /* Live, periods missed while the process was busy or asleep are
   * skipped, as Click's timers do, not run back to back. */
  if (self->ex->clock.live) {
    int64_t late = nprt_clock_live_now(&self->ex->clock) - self->timer_deadline;
    if (late >= 0)
      self->timer_deadline += (late / (int64_t)self->timer_period + 1) *
                              (int64_t)self->timer_period;
  }
  self->wait = wait;
  self->wait_on = on;
  self->wait_port = port;
  self->wait_mask = mask;
  self->wait_ticket = ticket;
}

void nprt_clock_init(nprt_clock *c, bool live) {
  *c = (nprt_clock){.live = live, .end = INT64_MAX};
  if (live) {
    /* Live time reads as the time of day but advances as CLOCK_MONOTONIC
     * does. */
    struct timespec real, mono;
    clock_gettime(CLOCK_REALTIME, &real);
    clock_gettime(CLOCK_MONOTONIC, &mono);
    c->live_base = ((int64_t)real.tv_sec - mono.tv_sec) * 1000000000 +
                   (real.tv_nsec - mono.tv_nsec);
  }
}

int64_t nprt_clock_live_now(const nprt_clock *c) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return c->live_base + (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t nprt_clock_read(const nprt_clock *c) {
  return c->live ? nprt_clock_live_now(c) : c->now;
}

uint64_t nprt_now(nprt_inst *self) {
  return (uint64_t)nprt_clock_read(&self->ex->clock);
}

/* The clock starts at `t`: the first packet, or the first time the graph
 * waits for a timer (time 0 then, or the start of a --live run). Timers
 * fall due one period after it; --duration counts from it. */
void nprt_clock_start(nprt_exec *ex, int64_t t) {
  nprt_graph *g = ex->graph;
  ex->clock.started = true;
  ex->clock.now = t;
  int64_t d = ex->opts->duration_ns;
  ex->clock.end = d && t <= INT64_MAX - d ? t + d : INT64_MAX;
  for (uint32_t i = 0; i < g->n_insts; ++i) {
    g->insts[i]->timer_deadline = t + (int64_t)g->insts[i]->timer_period;
    ex->clock.has_timers |= g->insts[i]->timer != NULL;
  }
}

/* --duration ran out: ingress stops as on `WRITE stop`, a normal end. */
static void nprt_clock_ended(nprt_exec *ex) { nprt_status_stop(&ex->status); }

/* The earliest deadline up to `upto` of an instance that can run its timer
 * now (waiting, or `self`, the caller); ties in instance order. */
static nprt_inst *nprt_next_timer(nprt_exec *ex, const nprt_inst *self,
                                  int64_t upto) {
  nprt_graph *g = ex->graph;
  nprt_inst *due = NULL;
  for (uint32_t i = 0; i < g->n_insts; ++i) {
    nprt_inst *in = g->insts[i];
    if (!in->timer || in->state == NPRT_DONE || in->in_timer ||
        in->timer_deadline > upto || (in != self && in->state != NPRT_BLOCKED))
      continue;
    if (!due || in->timer_deadline < due->timer_deadline)
      due = in;
  }
  return due;
}

bool nprt_exec_advance_one(nprt_inst *self, int64_t t) {
  nprt_exec *ex = self->ex;
  if (!ex->clock.started)
    nprt_clock_start(ex, t);
  if (t < ex->clock.now) /* a trace out of order: time does not go back */
    t = ex->clock.now;
  /* Past the end of --duration: the timers due before it still run, and
   * this packet goes on, but no other is read. */
  int64_t upto = t;
  if (t > ex->clock.end) {
    upto = ex->clock.end;
    nprt_clock_ended(ex);
  }
  /* Every packet read comes here: a program without timers scans nothing. */
  nprt_inst *due =
      ex->clock.has_timers ? nprt_next_timer(ex, self, upto) : NULL;
  if (!due) {
    ex->clock.now = t;
    return false;
  }
  ex->clock.now = due->timer_deadline;
  if (due == self) {
    nprt_clock_run_timer(self);
  } else {
    due->timer_due = true;
    ex->sched.stack[ex->sched.stack_n++] = self;
    ex->sched.next = due;
    nprt_exec_yield(self);
  }
  return true;
}

void nprt_exec_advance(nprt_inst *self, int64_t t) {
  while (nprt_exec_advance_one(self, t))
    ;
}

/*--- Time without packets -----------------------------------------------*/

/* Runs the timer of `in`, which waits, from the scheduler's stack, and
 * whatever it sends, depth-first. */
static void nprt_fire_timer(nprt_exec *ex, nprt_inst *in) {
  in->timer_due = true;
  nprt_exec_step(ex, in);
  nprt_exec_run_handoffs(ex);
}

/* --live, between rounds: runs the timers whose deadline passed on the
 * host's clock, and ends the run at the end of --duration. */
void nprt_clock_live_tick(nprt_exec *ex) {
  if (!ex->clock.live || ex->sched.phase < NPRT_PHASE_RUN)
    return;
  int64_t now = nprt_clock_live_now(&ex->clock);
  /* The timers due before the end run first, and as before it: the
   * sources among them still send what their timers allow. */
  for (nprt_inst *due;
       ex->clock.has_timers &&
       (due = nprt_next_timer(ex, NULL,
                              now < ex->clock.end ? now : ex->clock.end));) {
    ex->clock.now = due->timer_deadline;
    nprt_fire_timer(ex, due);
  }
  ex->clock.now = now;
  if (now > ex->clock.end && !ex->status.stop)
    nprt_clock_ended(ex);
}

/* --live, while nothing can move: sleeps until `deadline` on the host's
 * clock, or less if something from outside (a control client, through
 * hooks.idle) or a stop signal comes first. */
void nprt_clock_sleep_until(nprt_exec *ex, int64_t deadline) {
  int64_t d = deadline - nprt_clock_live_now(&ex->clock);
  if (d <= 0)
    return;
  struct timespec ts = {(time_t)(d / 1000000000), (long)(d % 1000000000)};
  if (ex->hooks.idle) {
    ex->hooks.idle(ex->hooks.ctx, &ts);
    return;
  }
  /* As the control socket's wait: the stop signals are unblocked only inside
   * ppoll, so one that arrives just before it cannot be missed. */
  sigset_t stop, old;
  sigemptyset(&stop);
  sigaddset(&stop, SIGINT);
  sigaddset(&stop, SIGTERM);
  sigprocmask(SIG_BLOCK, &stop, &old);
  uint64_t t0 = nprt_prof_clock();
  if (!nprt_stop_signal)
    ppoll(NULL, 0, &ts, &old);
  nprt_prof_wait(&ex->prof, t0);
  sigprocmask(SIG_SETMASK, &old, NULL);
}

/* Nothing can move. While a source waits for its timer (NPRT_WAIT_TIMER)
 * the run goes on: time moves to the earliest deadline, at once (virtual
 * time: the clock jumps there, so runs are exact and take no wall time)
 * or, with --live, by sleeping until then, and that timer runs. False
 * when no such source is left: then the run ends as it always did (the
 * timers of instances waiting to receive do not keep it going). */
static bool nprt_source_waits_for_timer(const nprt_exec *ex) {
  const nprt_graph *g = ex->graph;
  if (ex->sched.phase < NPRT_PHASE_RUN || nprt_status_stopping(&ex->status))
    return false;
  for (uint32_t i = 0; i < g->n_insts; ++i)
    if (g->insts[i]->state != NPRT_DONE && g->insts[i]->wait == NPRT_WAIT_TIMER)
      return true;
  return false;
}

bool nprt_clock_jump_from(nprt_inst *self) {
  nprt_exec *ex = self->ex;
  if (ex->clock.live || !nprt_source_waits_for_timer(ex))
    return false;
  if (!ex->clock.started)
    nprt_clock_start(ex, 0);
  nprt_inst *due = nprt_next_timer(ex, self, INT64_MAX);
  if (!due)
    return false;
  if (due->timer_deadline > ex->clock.end) {
    nprt_clock_ended(ex);
    return true;
  }
  nprt_exec_advance_one(self, due->timer_deadline);
  return true;
}

bool nprt_clock_wait_for_timers(nprt_exec *ex) {
  if (!nprt_source_waits_for_timer(ex))
    return false;
  if (!ex->clock.started)
    nprt_clock_start(ex, 0);
  nprt_inst *due = nprt_next_timer(ex, NULL, INT64_MAX);
  if (!due) { /* cannot be: the source has a timer */
    nprt_clock_ended(ex);
    return true;
  }
  if (ex->clock.live) {
    /* nprt_live_tick runs the timer once it is due, or ends the run. */
    nprt_clock_sleep_until(ex, due->timer_deadline <= ex->clock.end
                                   ? due->timer_deadline
                                   : ex->clock.end + 1);
    return true;
  }
  if (due->timer_deadline > ex->clock.end) {
    nprt_clock_ended(ex);
    return true;
  }
  ex->clock.now = due->timer_deadline;
  nprt_fire_timer(ex, due);
  return true;
}
