/*===- LaneShim.c - C++-callable lane between two cores ----------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * A two-core pipeline reduced to what its lane needs: the cores (their
 * sequence numbers, clocks and finished flags), the lane from core 0 to
 * core 1, and channel 0 delivered on core 1. No graph, no threads.
 *===----------------------------------------------------------------------===*/
#include "test/unit/LaneShim.h"

#include "runtime/nprt/cores.h"

#include <stdlib.h>
#include <string.h>

struct nprt_test_lane {
  nprt_options opts;
  nprt_multi m;
  nprt_core *cores;
  nprt_lane *lanes[4];
  nprt_edge edge;
  nprt_lane_out out;
  nprt_lane_in in;
};

nprt_test_lane *nprt_test_lane_create(void) {
  nprt_test_lane *t = calloc(1, sizeof(*t));
  /* nprt_core holds cache-line aligned counters. */
  nprt_core *cores = aligned_alloc(64, 2 * sizeof(nprt_core));
  nprt_lane *lane = nprt_lane_create();
  if (!t || !cores || !lane) {
    free(t);
    free(cores);
    if (lane)
      nprt_lane_destroy(lane);
    return NULL;
  }
  memset(cores, 0, 2 * sizeof(nprt_core));
  nprt_options_init(&t->opts, "prog", "test");
  t->cores = cores;
  t->lanes[0 * 2 + 1] = lane;
  t->edge = (nprt_edge){.lane = true, .dst_core = 1, .in_port = 0};
  t->m.opts = &t->opts;
  t->m.n = 2;
  t->m.pipeline = true;
  t->m.cores = cores;
  t->m.lanes = t->lanes;
  t->m.edges = &t->edge;
  for (uint32_t q = 0; q < 2; ++q) {
    cores[q].m = &t->m;
    cores[q].id = q;
  }
  t->out.edge = 0;
  t->out.to = 1;
  nprt_lane_dev_init(&t->out.dev, &t->out.lane, &cores[0], &nprt_lane_tx_ops);
  nprt_lane_dev_init(&t->in.dev, &t->in.lane, &cores[1], &nprt_lane_rx_ops);
  return t;
}

void nprt_test_lane_destroy(nprt_test_lane *t) {
  if (!t)
    return;
  nprt_lane_destroy(t->lanes[1]);
  free(t->cores);
  free(t);
}

void nprt_test_lane_at(nprt_test_lane *t, uint64_t seq, int64_t now) {
  t->cores[0].cur_seq = seq;
  /* A sender whose clock runs (an unstarted one stamps NPRT_LANE_NO_CLOCK). */
  t->cores[0].ex.clock.started = true;
  t->cores[0].ex.clock.now = now;
}

uint32_t nprt_test_lane_send_val(nprt_test_lane *t, uint64_t v) {
  nprt_pkt *p = &t->out.lane.carrier;
  p->anno = v;
  return t->out.dev.ops->tx_burst(&t->out.dev, &p, 1);
}

uint32_t nprt_test_lane_send_pkt(nprt_test_lane *t, nprt_pkt *p) {
  return t->out.dev.ops->tx_burst(&t->out.dev, &p, 1);
}

void nprt_test_lane_flush(nprt_test_lane *t) { nprt_core_flush(&t->cores[0]); }

void nprt_test_lane_finish(nprt_test_lane *t) {
  nprt_core_flush(&t->cores[0]);
  atomic_store(&t->cores[0].finished, true);
}

nprt_dev_status nprt_test_lane_recv(nprt_test_lane *t, nprt_test_lane_msg *m,
                                    uint32_t *n) {
  nprt_pkt *p = NULL;
  nprt_dev_status st = t->in.dev.ops->rx_burst(&t->in.dev, &p, 1, n);
  memset(m, 0, sizeof(*m));
  if (*n) {
    const nprt_lane_msg *last = &t->in.lane.last;
    m->pkt = p == &t->in.lane.carrier ? NULL : p;
    m->value = m->pkt ? 0 : p->anno;
    m->seq = last->seq;
    m->now = last->now;
    m->edge = last->edge;
  }
  return st;
}

nprt_dev_stats nprt_test_lane_stats(const nprt_test_lane *t, bool rx) {
  nprt_dev_stats s;
  nprt_device_stats(rx ? &t->in.dev : &t->out.dev, &s);
  return s;
}

const char *nprt_test_lane_kind(const nprt_test_lane *t, bool rx) {
  return (rx ? t->in.dev.ops : t->out.dev.ops)->kind;
}
