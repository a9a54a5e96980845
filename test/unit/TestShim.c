/*===- TestShim.c - C++-callable view of runtime internals ------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 *===----------------------------------------------------------------------===*/
#include "test/unit/TestShim.h"

#include "runtime/nprt/control.h"
#include "runtime/nprt/executor.h"
#include "runtime/nprt/run.h"

#include <stdlib.h>
#include <string.h>

nprt_chan *nprt_test_chan_create(uint32_t depth, bool lossy) {
  return nprt_chan_create(depth, lossy);
}
void nprt_test_chan_destroy(nprt_chan *c) { nprt_chan_destroy(c); }
bool nprt_test_chan_push(nprt_chan *c, uint64_t v) {
  return nprt_chan_push(c, v);
}
bool nprt_test_chan_pop(nprt_chan *c, uint64_t *v) {
  return nprt_chan_pop(c, v);
}
bool nprt_test_chan_ready(nprt_chan *c) { return nprt_chan_ready(c); }
uint64_t nprt_test_chan_occupancy(const nprt_chan *c) {
  return nprt_chan_occupancy(c);
}
uint64_t nprt_test_chan_ticket(const nprt_chan *c) {
  return nprt_chan_ticket(c);
}
bool nprt_test_chan_taken(const nprt_chan *c, uint64_t ticket) {
  return nprt_chan_taken(c, ticket);
}
void nprt_test_chan_close(nprt_chan *c) { nprt_chan_close(c); }
void nprt_test_chan_mark_pkt(nprt_chan *c) {
  atomic_store(&c->carries_pkt, true);
}
void nprt_test_chan_abandon(nprt_chan *c, nprt_pool *pool) {
  nprt_chan_abandon(c, pool);
}

nprt_test_chan_stats nprt_test_chan_get_stats(const nprt_chan *c) {
  nprt_test_chan_stats s;
  s.packets = c->packets;
  s.drops = c->drops + c->consumer_drops;
  s.max_occupancy = c->max_occupancy;
  s.depth = c->depth;
  s.cap = c->cap;
  s.closed = nprt_chan_closed(c);
  s.consumer_gone = nprt_chan_consumer_gone(c);
  return s;
}

nprt_graph *nprt_test_graph_create(void) { return nprt_graph_create(); }
void nprt_test_graph_destroy(nprt_graph *g) { nprt_graph_destroy(g); }
int nprt_test_run(nprt_graph *g, const nprt_options *o) {
  return nprt_run(g, o);
}

nprt_test_chan_stats nprt_test_graph_chan(const nprt_graph *g, uint32_t i) {
  return nprt_test_chan_get_stats(g->chans[i]);
}

nprt_test_inst_stats nprt_test_inst(const nprt_graph *g, uint32_t id) {
  const nprt_inst *in = g->insts[id];
  nprt_test_inst_stats s = {0};
  s.iterations = in->iterations;
  s.drops = in->drops;
  s.faults = in->faults;
  s.allocs = in->allocs;
  s.push_ports = in->push_ports;
  for (uint32_t p = 0; p < in->n_in && p < 4; ++p)
    s.in_packets[p] = nprt_in_packets(&in->in[p]);
  for (uint32_t p = 0; p < in->n_out && p < 4; ++p) {
    s.out_packets[p] = nprt_out_packets(&in->out[p]);
    s.out_drops[p] = in->out[p].drops;
  }
  return s;
}

uint32_t nprt_test_self_id(const nprt_inst *self) { return self->id; }
void nprt_test_exit(nprt_inst *self) { nprt_exec_terminate(self); }

char *nprt_test_control_command(nprt_graph *g, const char *line, bool *quit,
                                bool *stop) {
  nprt_handler_ctx hc = {.graph = g};
  nprt_strbuf out = {0};
  *quit = false;
  nprt_control_command(&hc, line, strlen(line), &out, quit);
  *stop = hc.stopped;
  char *s = malloc(out.len + 1);
  memcpy(s, nprt_strbuf_str(&out), out.len + 1);
  nprt_strbuf_free(&out);
  return s;
}
