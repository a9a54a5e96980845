/*===- graph_build.h - building a graph instance by instance ---*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * How the runtime turns the constant nprt_program of a compiled program
 * into a graph, one call per instance and channel. Not part of the
 * generated-code ABI; the unit tests build graphs of C handlers with it.
 * Free of C11 atomics so that C++ tests can include it.
 *
 *===----------------------------------------------------------------------===*/
#ifndef NPRT_GRAPH_BUILD_H
#define NPRT_GRAPH_BUILD_H

#include "nprt/nprt.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct nprt_graph nprt_graph;

/* Registers an instance and returns its id (UINT32_MAX on failure). Ports
 * and placement as in nprt_instance_desc; the instance has no state. */
uint32_t nprt_graph_add_instance(nprt_graph *g, const char *name,
                                 const char *element, const char *in_ports,
                                 const char *out_ports, nprt_fn init,
                                 nprt_fn handler, nprt_signal_fn signal,
                                 const char *placement);

/* Gives instance `id` a state object of `size` bytes, aligned for any
 * type, copied from `init` (NULL: zeros). */
void nprt_graph_set_state(nprt_graph *g, uint32_t id, size_t size,
                          const void *init);

/* Gives instance `id` a timer: `fn` runs every `period` nanoseconds of the
 * program's clock (period 0 or a NULL `fn`: none). */
void nprt_graph_set_timer(nprt_graph *g, uint32_t id, nprt_fn fn,
                          uint64_t period);

/* Connects output port `src_port` of `src` to input port `dst_port` of
 * `dst`, as nprt_channel_desc describes. */
void nprt_graph_connect(nprt_graph *g, uint32_t src, uint32_t src_port,
                        uint32_t dst, uint32_t dst_port, uint32_t depth,
                        bool lossy);

/* Adds instance `i` of `program` (its state, timer, handlers, shared
 * object) and returns its id here (UINT32_MAX on failure); a multicore
 * run builds each core's graph from a subset, some instances twice. */
uint32_t nprt_graph_add_program_instance(nprt_graph *g,
                                         const nprt_program *program,
                                         uint32_t i);

/* After the last connection: which instances may run as pushed calls
 * (see nprt_instance_desc.push_ports). nprt_graph_load calls it. */
void nprt_graph_settle(nprt_graph *g);

/* Adds every instance and channel of `program`. Errors are kept in the
 * graph, as for the calls above. */
void nprt_graph_load(nprt_graph *g, const nprt_program *program);

#ifdef __cplusplus
}
#endif

#endif /* NPRT_GRAPH_BUILD_H */
