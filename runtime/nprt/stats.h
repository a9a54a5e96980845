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

#include "runtime/nprt/executor.h"

#include <stdio.h>

void nprt_stats_print_table(const nprt_exec *ex, FILE *f);
/* --stats: per element packets, bytes, drops, cycles per packet and share,
 * then per core utilisation and channel occupancy. */
void nprt_stats_print_profile(const nprt_exec *ex, FILE *f);
void nprt_stats_write_json(const nprt_exec *ex, FILE *f);
/* Table, leak warning and JSON file as the options ask; -1 if the JSON file
 * cannot be written. */
int nprt_stats_report(const nprt_exec *ex);

#endif /* NPRT_STATS_H */
