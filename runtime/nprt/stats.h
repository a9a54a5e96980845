/*===- stats.h - run statistics: table and JSON ------------------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * After a run: the per-instance table on opts->out (unless --quiet) and, with
 * --stats-json, every counter as JSON with a fixed key order.
 *
 *===----------------------------------------------------------------------===*/
#ifndef NPRT_STATS_H
#define NPRT_STATS_H

#include "runtime/nprt/device.h"
#include "runtime/nprt/graph.h"
#include "runtime/nprt/run_status.h"

#include <stdio.h>

/* One core's utilisation, in nprt_prof_clock units. */
typedef struct nprt_core_prof {
  uint64_t cycles;  /* from the start of its schedule to its end */
  uint64_t wait;    /* spent waiting for other cores */
  uint64_t windows; /* sampled windows */
  uint64_t dropped; /* of which dropped (preempted) */
} nprt_core_prof;

/* What a run reports: its graph (the instances' and channels' counters
 * and state) and the statistics gathered beside it. A multicore run sums
 * its cores' into one (run_cores.c). */
typedef struct nprt_report {
  const nprt_graph *graph;
  const nprt_options *opts;
  nprt_dev_stats *rx, *tx; /* by device number */
  uint32_t n_rx, n_tx;
  struct {
    uint64_t allocated, freed, live, high_water;
  } pool;
  uint64_t prof_windows, prof_dropped; /* sampled windows (profile.h) */
  nprt_core_prof *cores;               /* one per core */
  uint32_t n_cores;
  nprt_run_status status; /* how the run ended */
} nprt_report;

void nprt_stats_print_table(const nprt_report *r, FILE *f);
/* --stats: per element packets, bytes, drops, cycles per packet and share,
 * then per core utilisation and channel occupancy. */
void nprt_stats_print_profile(const nprt_report *r, FILE *f);
void nprt_stats_write_json(const nprt_report *r, FILE *f);
/* Table, leak warning and JSON file as the options ask; -1 if the JSON file
 * cannot be written. */
int nprt_stats_report(const nprt_report *r);

#endif /* NPRT_STATS_H */
