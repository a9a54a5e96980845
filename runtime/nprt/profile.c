/*===- profile.c - sampled cycles per element ---------------------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * The slow paths of profile.h: charging the time since the last switch to
 * the instance whose code ran, and opening and closing sampled windows.
 *
 *===----------------------------------------------------------------------===*/
#include "runtime/nprt/profile.h"

#include <sys/resource.h>

/* Involuntary context switches of the calling thread so far (0 where the
 * host cannot tell). */
static long nprt_prof_preemptions(void) {
#ifdef RUSAGE_THREAD
  struct rusage ru;
  if (getrusage(RUSAGE_THREAD, &ru) == 0)
    return ru.ru_nivcsw;
#endif
  return 0;
}

/* The open window's entry for `in`; NULL once the log is full (the
 * charge then goes to the instance at once). */
static nprt_prof_entry *nprt_prof_entry_for(nprt_exec *ex, nprt_inst *in) {
  /* The window's number marks the instance's slot as this window's. */
  if (in->prof_window_id == ex->prof.windows)
    return &ex->prof.log[in->prof_slot];
  if (ex->prof.log_n == NPRT_PROF_LOG)
    return NULL;
  in->prof_window_id = ex->prof.windows;
  in->prof_slot = ex->prof.log_n;
  nprt_prof_entry *e = &ex->prof.log[ex->prof.log_n++];
  *e = (nprt_prof_entry){in, 0, 0};
  return e;
}

/* An activation of `in` begins in the open window. */
static void nprt_prof_count_iter(nprt_exec *ex, nprt_inst *in) {
  nprt_prof_entry *e = nprt_prof_entry_for(ex, in);
  if (e)
    ++e->iters;
  else
    ++in->prof_iters;
}

/* Charges the time since the last switch to the instance whose code ran,
 * and moves the charge to `to`. Only inside a window. */
void nprt_prof_charge(nprt_exec *ex, nprt_inst *to) {
  uint64_t t = nprt_prof_clock();
  nprt_inst *cur = ex->prof.cur;
  if (cur) {
    nprt_prof_entry *e = nprt_prof_entry_for(ex, cur);
    if (e)
      e->cycles += t - ex->prof.t;
    else
      cur->prof_cycles += t - ex->prof.t;
  }
  ex->prof.t = t;
  ex->prof.cur = to;
}

void nprt_prof_call_slow(nprt_exec *ex, nprt_inst *to) {
  nprt_prof_count_iter(ex, to);
  nprt_prof_charge(ex, to);
}

void nprt_prof_iteration_in_window(nprt_inst *self) {
  nprt_prof_count_iter(self->ex, self);
}

void nprt_prof_count_rx(nprt_inst *self, const nprt_pkt *p) {
  if (p) {
    ++self->rx_pkts;
    self->rx_bytes += p->len;
  }
}

nprt_inst *nprt_prof_fused(nprt_inst *to) {
  nprt_prof_call_slow(to->ex, to);
  return to;
}

/* Samples the occupancy of every channel of the executor's graph. */
static void nprt_prof_sample_channels(nprt_exec *ex) {
  nprt_graph *g = ex->graph;
  for (uint32_t i = 0; i < g->n_chans; ++i) {
    nprt_chan *c = g->chans[i];
    c->occ_sum += nprt_chan_occupancy(c);
    ++c->occ_samples;
  }
}

void nprt_prof_open(nprt_inst *self) {
  nprt_exec *ex = self->ex;
  ex->prof.countdown = NPRT_PROF_EVERY;
  ++ex->prof.windows;
  nprt_prof_sample_channels(ex);
  ex->prof.window = true;
  ex->prof.owner = self;
  ex->prof.log_n = 0;
  nprt_prof_count_iter(ex, self);
  ex->prof.preempted = nprt_prof_preemptions();
  ex->prof.cur = self;
  ex->prof.t = nprt_prof_clock();
}

void nprt_prof_close(nprt_inst *self) {
  nprt_exec *ex = self->ex;
  nprt_prof_charge(ex, ex->prof.cur);
  ex->prof.window = false;
  ex->prof.owner = NULL;
  /* Time the host gave to another thread is nobody's: a window in which
   * this one was preempted is dropped, not scaled up. */
  if (nprt_prof_preemptions() != ex->prof.preempted) {
    ++ex->prof.dropped;
    return;
  }
  for (uint32_t i = 0; i < ex->prof.log_n; ++i) {
    nprt_prof_entry *e = &ex->prof.log[i];
    e->inst->prof_cycles += e->cycles;
    e->inst->prof_iters += e->iters;
  }
}
