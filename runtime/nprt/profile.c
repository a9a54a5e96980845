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
static nprt_prof_entry *nprt_prof_entry_for(nprt_prof *pf, nprt_inst *in) {
  /* The window's number marks the instance's slot as this window's. */
  if (in->prof_window_id == pf->windows)
    return &pf->log[in->prof_slot];
  if (pf->log_n == NPRT_PROF_LOG)
    return NULL;
  in->prof_window_id = pf->windows;
  in->prof_slot = pf->log_n;
  nprt_prof_entry *e = &pf->log[pf->log_n++];
  *e = (nprt_prof_entry){in, 0, 0};
  return e;
}

/* An activation of `in` begins in the open window. */
static void nprt_prof_count_iter(nprt_prof *pf, nprt_inst *in) {
  nprt_prof_entry *e = nprt_prof_entry_for(pf, in);
  if (e)
    ++e->iters;
  else
    ++in->prof_iters;
}

void nprt_prof_start(nprt_prof *pf, nprt_graph *g, bool on) {
  pf->on = on;
  pf->graph = g;
  pf->countdown = NPRT_PROF_EVERY;
  pf->start = nprt_prof_clock();
}

void nprt_prof_finish(nprt_prof *pf) {
  pf->end = nprt_prof_clock();
  if (pf->window)
    nprt_prof_close(pf);
}

/* Charges the time since the last switch to the instance whose code ran,
 * and moves the charge to `to`. Only inside a window. */
void nprt_prof_charge(nprt_prof *pf, nprt_inst *to) {
  uint64_t t = nprt_prof_clock();
  nprt_inst *cur = pf->cur;
  if (cur) {
    nprt_prof_entry *e = nprt_prof_entry_for(pf, cur);
    if (e)
      e->cycles += t - pf->t;
    else
      cur->prof_cycles += t - pf->t;
  }
  pf->t = t;
  pf->cur = to;
}

void nprt_prof_call_slow(nprt_prof *pf, nprt_inst *to) {
  nprt_prof_count_iter(pf, to);
  nprt_prof_charge(pf, to);
}

void nprt_prof_iteration_in_window(nprt_prof *pf, nprt_inst *self) {
  nprt_prof_count_iter(pf, self);
}

void nprt_prof_count_rx(nprt_inst *self, const nprt_pkt *p) {
  if (p) {
    ++self->rx_pkts;
    self->rx_bytes += p->len;
  }
}

nprt_inst *nprt_prof_fused(nprt_prof *pf, nprt_inst *to) {
  nprt_prof_call_slow(pf, to);
  return to;
}

/* Samples the occupancy of every channel of the profiled graph. */
static void nprt_prof_sample_channels(nprt_prof *pf) {
  nprt_graph *g = pf->graph;
  for (uint32_t i = 0; i < g->n_chans; ++i) {
    nprt_chan *c = g->chans[i];
    c->occ_sum += nprt_chan_occupancy(c);
    ++c->occ_samples;
  }
}

void nprt_prof_open(nprt_prof *pf, nprt_inst *self) {
  pf->countdown = NPRT_PROF_EVERY;
  ++pf->windows;
  nprt_prof_sample_channels(pf);
  pf->window = true;
  pf->owner = self;
  pf->log_n = 0;
  nprt_prof_count_iter(pf, self);
  pf->preempted = nprt_prof_preemptions();
  pf->cur = self;
  pf->t = nprt_prof_clock();
}

void nprt_prof_close(nprt_prof *pf) {
  nprt_prof_charge(pf, pf->cur);
  pf->window = false;
  pf->owner = NULL;
  /* Time the host gave to another thread is nobody's: a window in which
   * this one was preempted is dropped, not scaled up. */
  if (nprt_prof_preemptions() != pf->preempted) {
    ++pf->dropped;
    return;
  }
  for (uint32_t i = 0; i < pf->log_n; ++i) {
    nprt_prof_entry *e = &pf->log[i];
    e->inst->prof_cycles += e->cycles;
    e->inst->prof_iters += e->iters;
  }
}
