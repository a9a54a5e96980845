/*===- sched.c - the scheduler: who runs next, and when the run ends -*- C
 *-*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Round robin over the instances whose wait is satisfied, each value
 * handed over depth-first, the barriers between the run's phases, and the
 * end of the run: every instance finished, the graph drained, a deadlock
 * (reported instance by instance), or a second stop signal. The stacks it
 * switches between are executor.c's; the termination rules are there.
 *
 *===----------------------------------------------------------------------===*/
#include "runtime/nprt/sched.h"

#include "runtime/nprt/clock.h"
#include "runtime/nprt/executor.h"

#include <stdlib.h>

static bool nprt_port_ended(const nprt_chan *c) {
  return !c || (nprt_chan_closed(c) && nprt_chan_occupancy(c) == 0);
}

bool nprt_sched_ready(const nprt_exec *ex, const nprt_inst *in) {
  const nprt_inst *w = in->wait_on;
  const nprt_chan *c;
  if (in->timer_due && !in->in_timer)
    return true;
  switch (in->wait) {
  case NPRT_WAIT_RECV:
    c = w->in[in->wait_port].ch;
    return !c || nprt_chan_occupancy(c) != 0 || nprt_chan_closed(c);
  case NPRT_WAIT_SEND:
    c = w->out[in->wait_port].ch;
    return !c || nprt_chan_consumer_gone(c) || nprt_chan_occupancy(c) < c->cap;
  case NPRT_WAIT_TAKEN:
    c = w->out[in->wait_port].ch;
    return !c || nprt_chan_consumer_gone(c) ||
           nprt_chan_taken(c, in->wait_ticket);
  case NPRT_WAIT_SELECT: {
    bool all_ended = true;
    for (uint32_t i = 0; i < w->n_in && i < 64; ++i) {
      if (!(in->wait_mask >> i & 1u))
        continue;
      c = w->in[i].ch;
      if (c && nprt_chan_occupancy(c) != 0)
        return true;
      all_ended = all_ended && nprt_port_ended(c);
    }
    return all_ended;
  }
  case NPRT_WAIT_PHASE:
    return ex->sched.phase >= in->wait_port;
  case NPRT_WAIT_DEVICE:
    return nprt_devices_rx_ready(&ex->devices, in->wait_port);
  case NPRT_WAIT_TIMER: /* its timer ran (its deadline moved), or a stop */
    return (uint64_t)in->timer_deadline != in->wait_ticket ||
           nprt_status_stopping(&ex->status);
  case NPRT_WAIT_NONE:
    break;
  }
  return true;
}

/* Turns a signal that arrived into a stop; true once the drain is to be
 * abandoned (a second signal). */
bool nprt_sched_take_signals(nprt_exec *ex) {
  if (!nprt_stop_signal)
    return false;
  nprt_status_take_signal(&ex->status);
  return nprt_exec_signals_seen() >= 2;
}

bool nprt_exec_idle_but(const nprt_exec *ex, nprt_inst *const *skip,
                        uint32_t n) {
  const nprt_graph *g = ex->graph;
  for (uint32_t i = 0; i < g->n_insts; ++i) {
    const nprt_inst *in = g->insts[i];
    bool skipped = false;
    for (uint32_t k = 0; k < n; ++k)
      skipped |= skip[k] == in;
    if (skipped || in->state == NPRT_DONE)
      continue;
    if (in->state != NPRT_BLOCKED || nprt_sched_ready(ex, in))
      return false;
  }
  return true;
}

/* Runs `in` if it can run; releases it once it terminated. */
bool nprt_exec_step(nprt_exec *ex, nprt_inst *in) {
  if (in->state == NPRT_DONE ||
      (in->state == NPRT_BLOCKED && !nprt_sched_ready(ex, in)))
    return false;
  nprt_exec_resume(ex, in);
  if (in->state == NPRT_DONE)
    nprt_exec_release_stack(in);
  return true;
}

/* The consumers values were handed to, then the senders that handed them
 * over, innermost first: depth-first order. */
bool nprt_exec_run_handoffs(nprt_exec *ex) {
  bool ran = false;
  while (ex->sched.next || ex->sched.stack_n) {
    nprt_inst *in =
        ex->sched.next ? ex->sched.next : ex->sched.stack[--ex->sched.stack_n];
    ex->sched.next = NULL;
    ran |= nprt_exec_step(ex, in);
  }
  return ran;
}

/* Nothing can move, and nothing is left to move: every instance still
 * running waits to receive (from a channel, or a reactive device such as
 * a PCIe slot whose sender waits too), and every channel is empty. The
 * input is exhausted and the graph drained, feedback loops included. */
static bool nprt_quiescent(const nprt_exec *ex) {
  const nprt_graph *g = ex->graph;
  if (ex->sched.phase < NPRT_PHASE_RUN)
    return false;
  for (uint32_t i = 0; i < g->n_insts; ++i) {
    const nprt_inst *in = g->insts[i];
    if (in->state != NPRT_DONE && in->wait != NPRT_WAIT_RECV &&
        in->wait != NPRT_WAIT_SELECT && in->wait != NPRT_WAIT_DEVICE)
      return false;
  }
  for (uint32_t i = 0; i < g->n_chans; ++i)
    if (nprt_chan_occupancy(g->chans[i]) != 0)
      return false;
  return true;
}

/* Nobody could run: if everyone waits at the next barrier, moves to the
 * next phase and returns true. */
static bool nprt_next_phase(nprt_exec *ex) {
  nprt_graph *g = ex->graph;
  bool at_barrier = ex->sched.phase < NPRT_PHASE_RUN;
  for (uint32_t i = 0; i < g->n_insts && at_barrier; ++i) {
    nprt_inst *in = g->insts[i];
    at_barrier = in->state == NPRT_DONE || in->wait == NPRT_WAIT_PHASE;
  }
  if (!at_barrier)
    return false;
  ++ex->sched.phase;
  if (ex->sched.phase == NPRT_PHASE_RUN && ex->hooks.run_phase)
    ex->hooks.run_phase(ex->hooks.ctx);
  /* Handlers start receivers first: by the time a source sends its first
   * value, everything downstream waits for it, and the run is depth-first
   * from the first packet on. */
  if (ex->sched.phase == NPRT_PHASE_RUN)
    for (uint32_t i = 0; i < g->n_insts; ++i)
      if (nprt_inst_has_inputs(g->insts[i])) {
        nprt_exec_step(ex, g->insts[i]);
        nprt_exec_run_handoffs(ex);
      }
  return true;
}

/* Round-robin over runnable instances (each send handing over depth-first)
 * until all terminated or the graph is drained (0), none can move (-1,
 * deadlock) or a second signal abandons the drain (-2). With --control,
 * the first two only end the run after `stop` or a signal: until then the
 * scheduler blocks on the control socket and looks again after each
 * wake-up. */
int nprt_sched_run(nprt_exec *ex) {
  nprt_graph *g = ex->graph;
  for (;;) {
    /* Clients are served between rounds, when no instance is in the
     * middle of a stretch of its body. Without --control, this branch is
     * all it costs. */
    if (ex->hooks.round)
      ex->hooks.round(ex->hooks.ctx);
    nprt_clock_live_tick(ex);
    bool ran = false;
    for (uint32_t i = 0; i < g->n_insts; ++i) {
      if (nprt_sched_take_signals(ex))
        return -2;
      ran |= nprt_exec_step(ex, g->insts[i]);
      ran |= nprt_exec_run_handoffs(ex);
    }
    if (ex->sched.n_done != g->n_insts) {
      if (ran || (!ex->status.init_failed && nprt_next_phase(ex)))
        continue;
    }
    if (ex->status.init_failed)
      return 0; /* reported; no packet has moved */
    if (ex->sched.n_done != g->n_insts && nprt_clock_wait_for_timers(ex))
      continue;
    /* Nothing can move: finished, drained, or stuck. */
    int end = ex->sched.n_done == g->n_insts || nprt_quiescent(ex) ? 0 : -1;
    if (!ex->hooks.idle || nprt_status_stopping(&ex->status))
      return end;
    /* Live, the end of --duration wakes it too. */
    if (ex->clock.live && ex->clock.end != INT64_MAX)
      nprt_clock_sleep_until(ex, ex->clock.end + 1);
    else
      ex->hooks.idle(ex->hooks.ctx, NULL);
  }
}

void nprt_sched_report_deadlock(const nprt_exec *ex, FILE *err) {
  const nprt_graph *g = ex->graph;
  for (uint32_t i = 0; i < g->n_insts; ++i) {
    const nprt_inst *in = g->insts[i];
    if (in->state != NPRT_BLOCKED)
      continue;
    /* A pushed handler that waits is named, with the stack it runs on. */
    const nprt_inst *w = in->wait_on;
    switch (in->wait) {
    case NPRT_WAIT_RECV:
      fprintf(err, "deadlock: instance '%s' (%s) blocked in recv on port '%s'",
              w->name, w->element, w->in[in->wait_port].name);
      break;
    case NPRT_WAIT_SEND:
    case NPRT_WAIT_TAKEN:
      fprintf(err, "deadlock: instance '%s' (%s) blocked in send on port '%s'",
              w->name, w->element, w->out[in->wait_port].name);
      break;
    case NPRT_WAIT_SELECT: {
      fprintf(err, "deadlock: instance '%s' (%s) blocked in select on ports",
              w->name, w->element);
      const char *sep = " ";
      for (uint32_t p = 0; p < w->n_in && p < 64; ++p)
        if (in->wait_mask >> p & 1u) {
          fprintf(err, "%s'%s'", sep, w->in[p].name);
          sep = ", ";
        }
      break;
    }
    case NPRT_WAIT_TIMER: /* not a deadlock: time moves on to the timer */
      break;
    case NPRT_WAIT_DEVICE:
      fprintf(err,
              "deadlock: instance '%s' (%s) blocked in device_recv on "
              "device %u",
              w->name, w->element, in->wait_port);
      break;
    case NPRT_WAIT_PHASE:
    case NPRT_WAIT_NONE:
      fprintf(err,
              "deadlock: instance '%s' (%s) waits for the others to "
              "finish init",
              in->name, in->element);
      break;
    }
    if (w != in)
      fprintf(err, " (pushed to from instance '%s')", in->name);
    fputc('\n', err);
  }
}
