/*===- stats.c - run statistics: table and JSON ------------------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Counters live where they are updated (instances, ports, channels, devices,
 * the pool); this file only reads and prints them, deterministically.
 *
 *===----------------------------------------------------------------------===*/
#include "runtime/nprt/stats.h"

#include "runtime/nprt/profile.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

static uint64_t nprt_sum_in(const nprt_inst *in) {
  uint64_t n = 0;
  for (uint32_t i = 0; i < in->n_in; ++i)
    n += nprt_in_packets(&in->in[i]);
  return n;
}

static uint64_t nprt_sum_out(const nprt_inst *in) {
  uint64_t n = 0;
  for (uint32_t i = 0; i < in->n_out; ++i)
    n += nprt_out_packets(&in->out[i]);
  return n;
}

static int nprt_width(const char *s, int w) {
  int n = (int)strlen(s);
  return n > w ? n : w;
}

void nprt_stats_print_table(const nprt_report *r, FILE *f) {
  const nprt_graph *g = r->graph;
  int wn = 8, we = 7;
  for (uint32_t i = 0; i < g->n_insts; ++i) {
    wn = nprt_width(g->insts[i]->name, wn);
    we = nprt_width(g->insts[i]->element, we);
  }
  fprintf(f, "%-*s  %-*s  %-10s  %-10s  %s\n", wn, "instance", we, "element",
          "in", "out", "drops");
  for (uint32_t i = 0; i < g->n_insts; ++i) {
    const nprt_inst *in = g->insts[i];
    fprintf(f, "%-*s  %-*s  %-10" PRIu64 "  %-10" PRIu64 "  %" PRIu64 "\n", wn,
            in->name, we, in->element, nprt_sum_in(in), nprt_sum_out(in),
            in->drops);
  }
  for (uint32_t i = 0; i < r->n_rx; ++i)
    if (r->rx[i].path || r->rx[i].packets)
      fprintf(f, "device %u rx: %" PRIu64 " packets, %" PRIu64 " bytes\n", i,
              r->rx[i].packets, r->rx[i].bytes);
  for (uint32_t i = 0; i < r->n_tx; ++i) {
    const nprt_dev_stats *d = &r->tx[i];
    if (d->path || d->packets) {
      fprintf(f, "device %u tx: %" PRIu64 " packets, %" PRIu64 " bytes%s", i,
              d->packets, d->bytes, d->path ? "" : " (no --out: discarded)");
      if (d->unwritten)
        fprintf(f, ", %" PRIu64 " not written (the write failed)",
                d->unwritten);
      fputc('\n', f);
    }
  }
  fprintf(
      f, "pool: %" PRIu64 " allocated, %" PRIu64 " freed, %" PRIu64 " leaked\n",
      r->pool.allocated, r->pool.freed, r->pool.live);
}

/*--- Profile (--stats) ----------------------------------------------------*/

/* The instance's cycles over the whole run, estimated from the sampled
 * windows: its sampled cycles times its activations over its sampled
 * activations (a stretch it ran in a window without an activation begun
 * there counts as one window's share). */
static uint64_t nprt_est_cycles(const nprt_inst *in) {
  if (!in->prof_cycles)
    return 0;
  if (!in->prof_iters)
    return in->prof_cycles * NPRT_PROF_EVERY;
  return (uint64_t)((double)in->prof_cycles * (double)in->iterations /
                        (double)in->prof_iters +
                    0.5);
}

static uint64_t nprt_total_cycles(const nprt_graph *g) {
  uint64_t n = 0;
  for (uint32_t i = 0; i < g->n_insts; ++i)
    n += nprt_est_cycles(g->insts[i]);
  return n;
}

/* Core `q`'s schedule time, wait and windows. */
static nprt_core_prof nprt_core_at(const nprt_report *r, uint32_t q) {
  return q < r->n_cores ? r->cores[q] : (nprt_core_prof){0, 0, 0, 0};
}

static uint32_t nprt_n_cores(const nprt_report *r) { return r->n_cores; }

static double nprt_percent(uint64_t part, uint64_t whole) {
  return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* "a.o->b.i" into `buf`. */
static void nprt_chan_name(const nprt_graph *g, const nprt_chan *c, char *buf,
                           size_t n) {
  const nprt_inst *s = g->insts[c->src], *d = g->insts[c->dst];
  snprintf(buf, n, "%s.%s->%s.%s", s->name, s->out[c->src_port].name, d->name,
           d->in[c->dst_port].name);
}

void nprt_stats_print_profile(const nprt_report *r, FILE *f) {
  const nprt_graph *g = r->graph;
  int wn = 8, we = 7;
  uint64_t rx = 0, rx_bytes = 0, drops = 0;
  for (uint32_t i = 0; i < g->n_insts; ++i) {
    wn = nprt_width(g->insts[i]->name, wn);
    we = nprt_width(g->insts[i]->element, we);
    drops += g->insts[i]->drops;
  }
  for (uint32_t i = 0; i < r->n_rx; ++i) {
    rx += r->rx[i].packets;
    rx_bytes += r->rx[i].bytes;
  }
  uint64_t total = nprt_total_cycles(g);
  fprintf(f,
          "profile: cycles (" NPRT_PROF_CLOCK_NAME
          ") per element, exclusive of nested calls, from %" PRIu64
          " sampled windows (one handler iteration in %u; %" PRIu64
          " dropped: preempted)\n",
          r->prof_windows - r->prof_dropped, NPRT_PROF_EVERY, r->prof_dropped);
  fprintf(f, "%-*s  %-*s  %-10s  %-12s  %-10s  %-10s  %s\n", wn, "instance", we,
          "element", "packets", "bytes", "drops", "cycles/pkt", "share");
  for (uint32_t i = 0; i < g->n_insts; ++i) {
    const nprt_inst *in = g->insts[i];
    uint64_t c = nprt_est_cycles(in);
    char cpp[32] = "-";
    if (in->rx_pkts && c)
      snprintf(cpp, sizeof(cpp), "%.1f", (double)c / (double)in->rx_pkts);
    fprintf(f,
            "%-*s  %-*s  %-10" PRIu64 "  %-12" PRIu64 "  %-10" PRIu64
            "  %-10s  %.1f%%\n",
            wn, in->name, we, in->element, in->rx_pkts, in->rx_bytes, in->drops,
            cpp, nprt_percent(c, total));
  }
  char cpp[32] = "-";
  if (rx && total)
    snprintf(cpp, sizeof(cpp), "%.1f", (double)total / (double)rx);
  fprintf(f,
          "%-*s  %-*s  %-10" PRIu64 "  %-12" PRIu64 "  %-10" PRIu64
          "  %-10s  %.1f%%\n",
          wn, "total", we, "(read)", rx, rx_bytes, drops, cpp,
          total ? 100.0 : 0.0);
  fprintf(f, "core  %-14s  %-14s  %-14s  %s\n", "cycles", "busy", "wait",
          "utilisation");
  for (uint32_t q = 0; q < nprt_n_cores(r); ++q) {
    nprt_core_prof p = nprt_core_at(r, q);
    uint64_t busy = p.cycles > p.wait ? p.cycles - p.wait : 0;
    fprintf(f, "%-4u  %-14" PRIu64 "  %-14" PRIu64 "  %-14" PRIu64 "  %.1f%%\n",
            q, p.cycles, busy, p.wait, nprt_percent(busy, p.cycles));
  }
  int wc = 7;
  char name[512];
  for (uint32_t i = 0; i < g->n_chans; ++i) {
    nprt_chan_name(g, g->chans[i], name, sizeof(name));
    wc = nprt_width(name, wc);
  }
  fprintf(f, "%-*s  %-10s  %-10s  %s\n", wc, "channel", "depth", "occupancy",
          "mean (sampled)");
  for (uint32_t i = 0; i < g->n_chans; ++i) {
    const nprt_chan *c = g->chans[i];
    nprt_chan_name(g, c, name, sizeof(name));
    char mean[32] = "-";
    if (c->occ_samples)
      snprintf(mean, sizeof(mean), "%.3f",
               (double)c->occ_sum / (double)c->occ_samples);
    fprintf(f, "%-*s  %-10u  max %-6" PRIu64 "  %s\n", wc, name, c->depth,
            c->max_occupancy, mean);
  }
}

/* Writes `s` JSON-escaped, without the quotes. */
static void nprt_json_chars(FILE *f, const char *s) {
  for (const unsigned char *c = (const unsigned char *)s; c && *c; ++c) {
    if (*c == '"' || *c == '\\')
      fprintf(f, "\\%c", *c);
    else if (*c < 0x20)
      fprintf(f, "\\u%04x", *c);
    else
      fputc(*c, f);
  }
}

static void nprt_json_str(FILE *f, const char *s) {
  fputc('"', f);
  nprt_json_chars(f, s);
  fputc('"', f);
}

/* "instance.port" */
static void nprt_json_endpoint(FILE *f, const nprt_inst *in, const char *port) {
  fputc('"', f);
  nprt_json_chars(f, in->name);
  fputc('.', f);
  nprt_json_chars(f, port);
  fputc('"', f);
}

static void nprt_json_element(FILE *f, const nprt_inst *in) {
  fputs("    {\"name\": ", f);
  nprt_json_str(f, in->name);
  fputs(", \"element\": ", f);
  nprt_json_str(f, in->element);
  fputs(", \"placement\": ", f);
  nprt_json_str(f, in->placement);
  fprintf(f, ", \"iterations\": %" PRIu64 ",\n     \"in\": [", in->iterations);
  for (uint32_t p = 0; p < in->n_in; ++p) {
    fputs(p ? ", {\"port\": " : "{\"port\": ", f);
    nprt_json_str(f, in->in[p].name);
    fprintf(f, ", \"packets\": %" PRIu64 "}", nprt_in_packets(&in->in[p]));
  }
  fputs("],\n     \"out\": [", f);
  for (uint32_t p = 0; p < in->n_out; ++p) {
    fputs(p ? ", {\"port\": " : "{\"port\": ", f);
    nprt_json_str(f, in->out[p].name);
    fprintf(f, ", \"packets\": %" PRIu64 ", \"drops\": %" PRIu64 "}",
            nprt_out_packets(&in->out[p]), in->out[p].drops);
  }
  fprintf(f,
          "],\n     \"drops\": %" PRIu64 ", \"faults\": %" PRIu64
          ", \"allocations\": %" PRIu64 ", \"allocation_failures\": %" PRIu64
          ",\n     \"packets\": %" PRIu64 ", \"bytes\": %" PRIu64
          ", \"cycles\": %" PRIu64 ", \"sampled\": %" PRIu64 "}",
          in->drops, in->faults, in->allocs, in->alloc_failures, in->rx_pkts,
          in->rx_bytes, nprt_est_cycles(in), in->prof_iters);
}

/* One rx or tx device; `path` is NULL for a device with no capture file.
 * An output that lost packets to a failed write says how many. */
static void nprt_json_device(FILE *f, uint32_t i, const char *path,
                             uint64_t packets, uint64_t bytes,
                             uint64_t unwritten) {
  fprintf(f, "%s{\"device\": %u, \"file\": ", i ? ", " : "", i);
  if (path)
    nprt_json_str(f, path);
  else
    fputs("null", f);
  fprintf(f, ", \"packets\": %" PRIu64 ", \"bytes\": %" PRIu64, packets, bytes);
  if (unwritten)
    fprintf(f, ", \"unwritten\": %" PRIu64, unwritten);
  fputc('}', f);
}

static void nprt_json_channel(FILE *f, const nprt_graph *g,
                              const nprt_chan *c) {
  const nprt_inst *s = g->insts[c->src], *d = g->insts[c->dst];
  fputs("    {\"src\": ", f);
  nprt_json_endpoint(f, s, s->out[c->src_port].name);
  fputs(", \"dst\": ", f);
  nprt_json_endpoint(f, d, d->in[c->dst_port].name);
  fprintf(f,
          ", \"depth\": %u, \"lossy\": %s, \"packets\": %" PRIu64
          ", \"drops\": %" PRIu64 ", \"max_occupancy\": %" PRIu64
          ", \"occupancy_samples\": %" PRIu64 ", \"mean_occupancy\": %.3f}",
          c->depth, c->lossy ? "true" : "false", c->packets,
          c->drops + c->consumer_drops, c->max_occupancy, c->occ_samples,
          c->occ_samples ? (double)c->occ_sum / (double)c->occ_samples : 0.0);
}

void nprt_stats_write_json(const nprt_report *r, FILE *f) {
  const nprt_graph *g = r->graph;
  fputs("{\n  \"program\": ", f);
  nprt_json_str(f, r->opts->program ? r->opts->program : "");
  fprintf(f, ",\n  \"status\": \"%s\",\n  \"elements\": [\n",
          r->status.io_error   ? "error"
          : r->status.signo    ? "interrupted"
          : r->status.deadlock ? "deadlock"
                               : "ok");
  for (uint32_t i = 0; i < g->n_insts; ++i) {
    nprt_json_element(f, g->insts[i]);
    fputs(i + 1 < g->n_insts ? ",\n" : "\n", f);
  }
  fputs("  ],\n  \"channels\": [\n", f);
  for (uint32_t i = 0; i < g->n_chans; ++i) {
    nprt_json_channel(f, g, g->chans[i]);
    fputs(i + 1 < g->n_chans ? ",\n" : "\n", f);
  }
  fputs("  ],\n  \"devices\": {\n    \"rx\": [", f);
  for (uint32_t i = 0; i < r->n_rx; ++i) {
    const nprt_dev_stats *d = &r->rx[i];
    nprt_json_device(f, i, d->path, d->packets, d->bytes, 0);
  }
  fputs("],\n    \"tx\": [", f);
  for (uint32_t i = 0; i < r->n_tx; ++i) {
    const nprt_dev_stats *d = &r->tx[i];
    nprt_json_device(f, i, d->path, d->packets, d->bytes, d->unwritten);
  }
  fprintf(f,
          "]\n  },\n  \"pool\": {\"allocated\": %" PRIu64
          ", \"freed\": %" PRIu64 ", \"leaked\": %" PRIu64
          ", \"high_water\": %" PRIu64 "},\n",
          r->pool.allocated, r->pool.freed, r->pool.live, r->pool.high_water);
  fprintf(
      f,
      "  \"profile\": {\"clock\": \"" NPRT_PROF_CLOCK_NAME
      "\", \"sample_every\": %u, \"windows\": %" PRIu64
      ", \"dropped\": %" PRIu64 ", \"cycles\": %" PRIu64 "},\n  \"cores\": [\n",
      NPRT_PROF_EVERY, r->prof_windows, r->prof_dropped, nprt_total_cycles(g));
  for (uint32_t q = 0; q < nprt_n_cores(r); ++q) {
    nprt_core_prof p = nprt_core_at(r, q);
    fprintf(f,
            "    {\"core\": %u, \"cycles\": %" PRIu64 ", \"busy\": %" PRIu64
            ", \"wait\": %" PRIu64 "}%s\n",
            q, p.cycles, p.cycles > p.wait ? p.cycles - p.wait : 0, p.wait,
            q + 1 < nprt_n_cores(r) ? "," : "");
  }
  fputs("  ]\n}\n", f);
}

/* errno of a failed flush or an earlier failed write of `f`, else 0. */
static int nprt_stream_error(FILE *f) {
  errno = 0;
  if (fflush(f) == 0 && !ferror(f))
    return 0;
  return errno ? errno : EIO;
}

/* Prints table `what` with `print` on opts->out; -1 if it cannot be
 * written (reported). */
static int nprt_stats_print(const nprt_report *r, const char *what,
                            void (*print)(const nprt_report *, FILE *)) {
  const nprt_options *o = r->opts;
  print(r, o->out);
  int e = nprt_stream_error(o->out);
  if (!e)
    return 0;
  fprintf(o->err, "%s: error: cannot write the %s table: %s\n", o->prog, what,
          strerror(e));
  return -1;
}

int nprt_stats_report(const nprt_report *r) {
  const nprt_options *o = r->opts;
  int rc = 0;
  if (!o->quiet &&
      nprt_stats_print(r, "statistics", nprt_stats_print_table) != 0)
    rc = -1;
  if (o->stats && nprt_stats_print(r, "profile", nprt_stats_print_profile) != 0)
    rc = -1;
  if (r->pool.live)
    fprintf(o->err, "%s: warning: %" PRIu64 " packets leaked\n", o->prog,
            r->pool.live);
  if (!o->stats_json)
    return rc;
  FILE *f = fopen(o->stats_json, "w");
  if (!f) {
    fprintf(o->err, "%s: error: %s: %s\n", o->prog, o->stats_json,
            strerror(errno));
    return -1;
  }
  nprt_stats_write_json(r, f);
  int e = nprt_stream_error(f);
  errno = 0;
  if (fclose(f) != 0 && !e)
    e = errno ? errno : EIO;
  if (e) {
    fprintf(o->err, "%s: error: %s: cannot write: %s\n", o->prog, o->stats_json,
            strerror(e));
    return -1;
  }
  return rc;
}
