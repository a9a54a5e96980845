/*===- profile.c - sampled cycles per element ---------------------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * The slow paths of profile.h: charging the time since the last switch to
 * the instance whose code ran, and opening and closing sampled windows.
 *
 *===----------------------------------------------------------------------===*/
#include "runtime/nprt/profile.h"

/* Charges the time since the last switch to the instance whose code ran,
 * and moves the charge to `to`. Only inside a window. */
void nprt_prof_charge(nprt_exec *ex, nprt_inst *to) {
  uint64_t t = nprt_prof_clock();
  if (ex->prof_cur)
    ex->prof_cur->prof_cycles += t - ex->prof_t;
  ex->prof_t = t;
  ex->prof_cur = to;
}

void nprt_prof_call_slow(nprt_exec *ex, nprt_inst *to) {
  ++to->prof_iters;
  nprt_prof_charge(ex, to);
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
  ex->prof_countdown = NPRT_PROF_EVERY;
  ++ex->prof_windows;
  nprt_prof_sample_channels(ex);
  ex->prof_window = true;
  ex->prof_owner = self;
  ++self->prof_iters;
  ex->prof_cur = self;
  ex->prof_t = nprt_prof_clock();
}

void nprt_prof_close(nprt_inst *self) {
  nprt_exec *ex = self->ex;
  nprt_prof_charge(ex, ex->prof_cur);
  ex->prof_window = false;
  ex->prof_owner = NULL;
}
