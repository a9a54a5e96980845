/*===- profile.c - sampled cycles per element ---------------------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * The slow paths of profile.h: charging the time since the last switch to
 * the instance whose code ran, and opening and closing sampled windows.
 *
 *===----------------------------------------------------------------------===*/
#include "runtime/nprt/profile.h"

void nprt_prof_charge(nprt_exec *ex, nprt_inst *to) {
  if (ex->prof_window) {
    uint64_t t = nprt_prof_clock();
    if (ex->prof_cur)
      ex->prof_cur->prof_cycles += t - ex->prof_t;
    ex->prof_t = t;
  }
  ex->prof_cur = to;
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

void nprt_prof_iteration(nprt_inst *self) {
  nprt_exec *ex = self->ex;
  if (ex->prof_window) {
    ++self->prof_iters;
    return;
  }
  if (--ex->prof_countdown != 0)
    return;
  ex->prof_countdown = NPRT_PROF_EVERY;
  ++ex->prof_windows;
  nprt_prof_sample_channels(ex);
  ex->prof_window = true;
  ex->prof_owner = self;
  ++self->prof_iters;
  ex->prof_cur = self;
  ex->prof_t = nprt_prof_clock();
}

void nprt_prof_iteration_end(nprt_inst *self) {
  nprt_exec *ex = self->ex;
  if (!ex->prof_window || ex->prof_owner != self)
    return;
  nprt_prof_charge(ex, ex->prof_cur);
  ex->prof_window = false;
  ex->prof_owner = NULL;
}
