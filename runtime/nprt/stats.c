/*===- stats.c - run statistics: table and JSON ------------------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Counters live where they are updated (instances, ports, channels, devices,
 * the pool); this file only reads and prints them, deterministically.
 *
 *===----------------------------------------------------------------------===*/
#include "runtime/nprt/stats.h"

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

void nprt_stats_print_table(const nprt_exec *ex, FILE *f) {
  const nprt_graph *g = ex->graph;
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
  for (uint32_t i = 0; i < ex->n_in_devs; ++i)
    if (ex->in_devs[i].path || ex->in_devs[i].packets)
      fprintf(f, "device %u rx: %" PRIu64 " packets, %" PRIu64 " bytes\n", i,
              ex->in_devs[i].packets, ex->in_devs[i].bytes);
  for (uint32_t i = 0; i < ex->n_out_devs; ++i) {
    const nprt_pcap_out *d = &ex->out_devs[i];
    if (d->path || d->packets)
      fprintf(f, "device %u tx: %" PRIu64 " packets, %" PRIu64 " bytes%s\n", i,
              d->packets, d->bytes, d->path ? "" : " (no --out: discarded)");
  }
  fprintf(
      f, "pool: %" PRIu64 " allocated, %" PRIu64 " freed, %" PRIu64 " leaked\n",
      ex->pool.allocated, ex->pool.freed, ex->pool.live);
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
          "}",
          in->drops, in->faults, in->allocs, in->alloc_failures);
}

/* One rx or tx device; `path` is NULL for a device with no capture file. */
static void nprt_json_device(FILE *f, uint32_t i, const char *path,
                             uint64_t packets, uint64_t bytes) {
  fprintf(f, "%s{\"device\": %u, \"file\": ", i ? ", " : "", i);
  if (path)
    nprt_json_str(f, path);
  else
    fputs("null", f);
  fprintf(f, ", \"packets\": %" PRIu64 ", \"bytes\": %" PRIu64 "}", packets,
          bytes);
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
          ", \"drops\": %" PRIu64 ", \"max_occupancy\": %" PRIu64 "}",
          c->depth, c->lossy ? "true" : "false", c->packets,
          c->drops + c->consumer_drops, c->max_occupancy);
}

void nprt_stats_write_json(const nprt_exec *ex, FILE *f) {
  const nprt_graph *g = ex->graph;
  fputs("{\n  \"program\": ", f);
  nprt_json_str(f, ex->opts->program ? ex->opts->program : "");
  fprintf(f, ",\n  \"status\": \"%s\",\n  \"elements\": [\n",
          ex->io_error   ? "error"
          : ex->signo    ? "interrupted"
          : ex->deadlock ? "deadlock"
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
  for (uint32_t i = 0; i < ex->n_in_devs; ++i) {
    const nprt_pcap_in *d = &ex->in_devs[i];
    nprt_json_device(f, i, d->path, d->packets, d->bytes);
  }
  fputs("],\n    \"tx\": [", f);
  for (uint32_t i = 0; i < ex->n_out_devs; ++i) {
    const nprt_pcap_out *d = &ex->out_devs[i];
    nprt_json_device(f, i, d->path, d->packets, d->bytes);
  }
  fprintf(
      f,
      "]\n  },\n  \"pool\": {\"allocated\": %" PRIu64 ", \"freed\": %" PRIu64
      ", \"leaked\": %" PRIu64 ", \"high_water\": %" PRIu64 "}\n}\n",
      ex->pool.allocated, ex->pool.freed, ex->pool.live, ex->pool.high_water);
}

/* errno of a failed flush or an earlier failed write of `f`, else 0. */
static int nprt_stream_error(FILE *f) {
  errno = 0;
  if (fflush(f) == 0 && !ferror(f))
    return 0;
  return errno ? errno : EIO;
}

int nprt_stats_report(const nprt_exec *ex) {
  const nprt_options *o = ex->opts;
  int rc = 0;
  if (!o->quiet) {
    nprt_stats_print_table(ex, o->out);
    int e = nprt_stream_error(o->out);
    if (e) {
      fprintf(o->err, "%s: error: cannot write the statistics table: %s\n",
              o->prog, strerror(e));
      rc = -1;
    }
  }
  if (ex->pool.live)
    fprintf(o->err, "%s: warning: %" PRIu64 " packets leaked\n", o->prog,
            ex->pool.live);
  if (!o->stats_json)
    return rc;
  FILE *f = fopen(o->stats_json, "w");
  if (!f) {
    fprintf(o->err, "%s: error: %s: %s\n", o->prog, o->stats_json,
            strerror(errno));
    return -1;
  }
  nprt_stats_write_json(ex, f);
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
