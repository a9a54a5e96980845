/*===- nprt.h - npcc runtime ABI used by generated C ------------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * This header is the one definition of the interface between C emitted by
 * `npcc --target=c` and libnprt. Generated code calls only what is declared
 * here; the graph builder registers instances and channels, the handlers
 * move values through ports by index.
 *
 *===----------------------------------------------------------------------===*/
#ifndef NPRT_NPRT_H
#define NPRT_NPRT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nprt/packet.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One element instance as the executor sees it. Opaque to generated code. */
typedef struct nprt_inst nprt_inst;
/* The graph under construction; filled by the generated builder. */
typedef struct nprt_graph nprt_graph;

typedef void (*nprt_fn)(nprt_inst *self);
typedef void (*nprt_signal_fn)(nprt_inst *self, int64_t arg);

/*--- Graph construction (called from the generated npcc_build_graph) ---*/

/* Registers an instance and returns its id. `in_ports`/`out_ports` are
 * comma-separated port names ("" for none); their count fixes the number of
 * ports. `init`, `signal` may be NULL. `placement` is "npu", "fpga" or
 * "host". */
uint32_t nprt_graph_add_instance(nprt_graph *g, const char *name,
                                 const char *element, const char *in_ports,
                                 const char *out_ports, nprt_fn init,
                                 nprt_fn handler, nprt_signal_fn signal,
                                 const char *placement);

/* Connects output port `src_port` of `src` to input port `dst_port` of
 * `dst`. depth 0 is a CSP rendezvous; lossy channels drop (and count) when
 * full instead of blocking the sender. */
void nprt_graph_connect(nprt_graph *g, uint32_t src, uint32_t src_port,
                        uint32_t dst, uint32_t dst_port, uint32_t depth,
                        bool lossy);

/* The generated main() calls this: parses the command line (--in, --out,
 * --stats-json, --signal, --help), builds the graph with `build`, runs it to
 * completion and prints per-element counts. Returns the process exit code. */
int nprt_main(int argc, char **argv, const char *program,
              void (*build)(nprt_graph *g));

/*--- Port operations (called from handlers) ---*/

/* Blocking receive. If the channel is closed and empty, the calling
 * instance terminates here (its outputs close in turn). */
nprt_pkt *nprt_recv_pkt(nprt_inst *self, uint32_t port);
uint64_t nprt_recv_val(nprt_inst *self, uint32_t port);
/* True when a value can be received from `port` without blocking. */
bool nprt_poll(nprt_inst *self, uint32_t port);
/* Non-blocking receive: NULL (or 0) when nothing is available. After
 * nprt_poll returned true, the next try_recv on that port succeeds. */
nprt_pkt *nprt_try_recv_pkt(nprt_inst *self, uint32_t port);
uint64_t nprt_try_recv_val(nprt_inst *self, uint32_t port);
/* Blocking send (lossless) or drop-and-count when full (lossy channel). A
 * send to an unconnected port or a terminated consumer is a counted drop. */
void nprt_send_pkt(nprt_inst *self, uint32_t port, nprt_pkt *p);
void nprt_send_val(nprt_inst *self, uint32_t port, uint64_t v);
/* Blocks until one of the input ports in `mask` (bit i = port i) can be
 * received from; returns its index. Ready ports are served round-robin.
 * Terminates the instance when all of them are closed and empty. */
uint32_t nprt_select(nprt_inst *self, uint64_t mask);

/*--- Devices: packets enter and leave the graph here ---*/

/* Next packet of input device `dev` (its pcap); at end of input the calling
 * instance terminates. */
nprt_pkt *nprt_device_recv(nprt_inst *self, uint32_t dev);
/* Writes `p` to output device `dev` (its pcap) and frees it. */
void nprt_device_send(nprt_inst *self, uint32_t dev, nprt_pkt *p);

/*--- Packets ---*/

/* Explicit drop: frees `p` and counts it against the instance. */
void nprt_drop(nprt_inst *self, nprt_pkt *p);
/* Deep copy with metadata; counted as an allocation of the instance. */
nprt_pkt *nprt_clone(nprt_inst *self, const nprt_pkt *p);
/* A zero-filled packet of `len` bytes. */
nprt_pkt *nprt_pkt_new(nprt_inst *self, uint32_t len);

/*--- Signals and diagnostics ---*/

/* Counts a runtime fault of the instance (out-of-range packet access, ...).
 * Faults are reported in the stats; they never abort the run. */
void nprt_fault(nprt_inst *self, uint32_t kind);

#ifdef __cplusplus
}
#endif

#endif /* NPRT_NPRT_H */
