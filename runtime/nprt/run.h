/*===- run.h - running a program: one core or several --------------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * The top layer of the runtime (README.md, "Layers"): what nprt_main calls.
 *
 *===----------------------------------------------------------------------===*/
#ifndef NPRT_RUN_H
#define NPRT_RUN_H

#include "runtime/nprt/control.h"
#include "runtime/nprt/executor.h"

/* Runs `g` to completion with `opts` (devices, signals, stats). Prints only
 * to opts->out / opts->err. Returns an NPRT_EXIT_* code. */
int nprt_run(nprt_graph *g, const nprt_options *opts);
/* A multicore run: `cores` workers, `mapping` NPRT_MAPPING_*. */
int nprt_run_cores(const nprt_program *program, const nprt_options *opts,
                   uint32_t cores, uint32_t mapping);
/* The same run on `sim`'s hardware contexts instead of threads (NULL: the
 * threads); `cores` is then cores x contexts. */
struct npsim_machine;
int nprt_run_cores_on(const nprt_program *program, const nprt_options *opts,
                      uint32_t cores, uint32_t mapping,
                      struct npsim_machine *sim);
/* sim_run.c (the simulator's flavour): a run with --sim. */
int nprt_run_sim(const nprt_program *program, const nprt_options *opts);

/* The steps both share. Refuses, before anything is opened for writing,
 * an output that is an input or another output; reports and returns -1. */
int nprt_run_check_output_paths(const nprt_options *o);
/* --control: opens the socket into *c (NULL without the option); reports
 * and returns -1 on failure. */
int nprt_run_open_control(const nprt_options *o, nprt_control **c);

#endif /* NPRT_RUN_H */
