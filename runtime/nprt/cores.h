/*===- cores.h - multicore runs ----------------------------------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * The hooks the port operations call when the executor runs one core of a
 * multicore run (nprt_exec.core != NULL). See cores.c.
 *
 *===----------------------------------------------------------------------===*/
#ifndef NPRT_CORES_H
#define NPRT_CORES_H

#include "runtime/nprt/executor.h"

typedef struct nprt_core nprt_core;

/* The next packet of input device `dev` for this core: under rtc the
 * packets of its share of the flows, under a pipeline every packet. Sets
 * the core's sequence number. As nprt_pcap_in_next otherwise. */
nprt_pcap_status nprt_core_device_next(nprt_core *core, nprt_inst *self,
                                       nprt_pcap_in *d, uint32_t dev,
                                       nprt_pkt **out, char *err,
                                       size_t errlen);

/* Writes `p` to output device `dev`, which all cores share; frees it.
 * False when there is no such device (the caller counts a fault). */
bool nprt_core_device_send(nprt_core *core, uint32_t dev, nprt_pkt *p);

/* The core's executor reaches the run phase: copies that are not the
 * primary set their merged fields to the operator's identity. */
void nprt_core_enter_run(nprt_core *core);

/* Between two scheduler rounds: runs the handler call the control thread
 * posted to this core, if any (--control). */
void nprt_core_tick(nprt_core *core);

/* The control thread's side (--control): the handler `handler` (an index
 * in the handler table) of program instance `inst`, on its copies. A write
 * reaches every copy, each between two packets of its core; a read sees
 * the copies combined (merged fields folded, the rest the primary's), as
 * the statistics and `-h` do. Each returns once every core is done. */
typedef struct nprt_multi nprt_multi;
void nprt_multi_write(nprt_multi *m, uint32_t inst, uint32_t handler,
                      const uint64_t *args);
uint64_t nprt_multi_read(nprt_multi *m, uint32_t inst, uint32_t handler);
/* `WRITE stop`: ingress ends on every core. */
void nprt_multi_stop(nprt_multi *m);

#endif /* NPRT_CORES_H */
