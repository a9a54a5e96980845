//===- TestShim.h - C++-callable view of runtime internals ------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The channel, graph and executor headers use C11 atomics, which C++17
// cannot include. TestShim.c (compiled as C) wraps what the unit tests need
// behind plain functions and structs.
//
//===----------------------------------------------------------------------===//
#ifndef NPRT_TEST_UNIT_TESTSHIM_H
#define NPRT_TEST_UNIT_TESTSHIM_H

#include "nprt/nprt.h"
#include "runtime/nprt/graph_build.h"
#include "runtime/nprt/options.h"
#include "runtime/nprt/pool.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct nprt_chan nprt_chan;

typedef struct nprt_test_chan_stats {
  uint64_t packets, drops, max_occupancy;
  uint32_t depth, cap;
  bool closed, consumer_gone;
} nprt_test_chan_stats;

nprt_chan *nprt_test_chan_create(uint32_t depth, bool lossy);
void nprt_test_chan_destroy(nprt_chan *c);
bool nprt_test_chan_push(nprt_chan *c, uint64_t v);
bool nprt_test_chan_pop(nprt_chan *c, uint64_t *v);
bool nprt_test_chan_ready(nprt_chan *c);
uint64_t nprt_test_chan_occupancy(const nprt_chan *c);
uint64_t nprt_test_chan_ticket(const nprt_chan *c);
bool nprt_test_chan_taken(const nprt_chan *c, uint64_t ticket);
void nprt_test_chan_close(nprt_chan *c);
void nprt_test_chan_mark_pkt(nprt_chan *c);
void nprt_test_chan_abandon(nprt_chan *c, nprt_pool *pool);
nprt_test_chan_stats nprt_test_chan_get_stats(const nprt_chan *c);

nprt_graph *nprt_test_graph_create(void);
void nprt_test_graph_destroy(nprt_graph *g);
int nprt_test_run(nprt_graph *g, const nprt_options *o);
/* Channel `i` of the graph in connection order. */
nprt_test_chan_stats nprt_test_graph_chan(const nprt_graph *g, uint32_t i);

typedef struct nprt_test_inst_stats {
  uint64_t iterations, drops, faults, allocs;
  uint64_t push_ports; /* after nprt_graph_load settled them */
  uint64_t in_packets[4], out_packets[4], out_drops[4];
} nprt_test_inst_stats;

nprt_test_inst_stats nprt_test_inst(const nprt_graph *g, uint32_t id);

/* Runs one control socket command line against `g` as it stands (not
 * running), as a client would; returns the malloc'd response (free it)
 * and sets *quit after QUIT. *stop tells whether `stop` was written. */
char *nprt_test_control_command(nprt_graph *g, const char *line, bool *quit,
                                bool *stop);

/* From a handler: the instance id, and ending the instance. */
uint32_t nprt_test_self_id(const nprt_inst *self);
void nprt_test_exit(nprt_inst *self);

#ifdef __cplusplus
}
#endif

#endif // NPRT_TEST_UNIT_TESTSHIM_H
