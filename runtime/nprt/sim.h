/*===- sim.h - libnprt's calls into npsim ---------------------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * libnprt is built twice: `nprt` for the host's threads, and `nprt-sim`
 * with NPRT_SIM, where each core of a multicore run is a hardware context
 * of npsim (runtime/npsim/npsim.h, docs/npsim.md). These are the places
 * the second flavour tells the simulator what the runtime does: the
 * cycles of its operations, the memory they touch, where a core waits.
 * In the first flavour every one of them is nothing.
 *
 * An executor knows its context (`nprt_exec.sim`, NULL when it runs on
 * the host); code that has no executor at hand (checksums, tables) asks
 * the simulator which context runs (npsim_running).
 *
 *===----------------------------------------------------------------------===*/
#ifndef NPRT_SIM_H
#define NPRT_SIM_H

#ifdef NPRT_SIM
#include "runtime/npsim/npsim.h"

/* The cycles of runtime operation `op` (a member of npsim_costs) on the
 * context `c`, if there is one. */
#define NPRT_SIM_COST(c, op)                                                   \
  do {                                                                         \
    struct npsim_ctx *nprt_sim_c_ = (c);                                       \
    if (nprt_sim_c_)                                                           \
      npsim_compute(nprt_sim_c_,                                               \
                    npsim_costs_of(npsim_machine_of(nprt_sim_c_))->op);        \
  } while (0)
/* sim_hooks.c: a coprocessor's work (`unit`) on `len` bytes of packet `p`
 * from `off` (NULL: on a value), or the software doing it; an operation
 * `op` of table `kind` whose slot is at `state` (nprt_table_op). */
struct nprt_pkt;
void nprt_sim_unit(const struct nprt_pkt *p, uint32_t off, uint32_t len,
                   enum npsim_unit unit);
void nprt_sim_table(const void *state, uint32_t kind, uint32_t op, uint32_t kw);
/* Any other call into the simulator, when there is a context. */
#define NPRT_SIM_DO(c, call)                                                   \
  do {                                                                         \
    if (c)                                                                     \
      call;                                                                    \
  } while (0)
#else
#define NPRT_SIM_COST(c, op) ((void)0)
#define NPRT_SIM_DO(c, call) ((void)0)
#endif

#endif /* NPRT_SIM_H */
