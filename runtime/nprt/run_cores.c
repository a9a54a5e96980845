/*===- run_cores.c - a run on several cores ------------------------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * What nprt_run (run.c) is for one core: checks the options, builds the
 * cores (cores.h), opens the control socket and the devices, runs the
 * cores' threads while the control thread serves the clients, then
 * reports the run as one graph with its statistics summed over the cores.
 *
 *===----------------------------------------------------------------------===*/
#include "runtime/nprt/run.h"

#include "runtime/nprt/cores.h"
#include "runtime/nprt/handlers.h"
#include "runtime/nprt/pcap_dev.h"
#include "runtime/nprt/sim.h"
#include "runtime/nprt/stats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Serves the clients while the cores run: a poll of the sockets at least
 * every 2 ms, to see the cores end. */
static void nprt_multi_serve(nprt_multi *m, nprt_control *ctl,
                             nprt_handler_ctx *hc) {
  for (;;) {
    bool all = true;
    for (uint32_t q = 0; q < m->n && all; ++q)
      all = atomic_load_explicit(&m->cores[q].finished, memory_order_acquire);
    if (all)
      return;
    struct timespec ts = {0, 2000000};
    if (nprt_stop_signal)
      nanosleep(&ts, NULL); /* the cores drain */
    else
      nprt_control_wait(ctl, hc, &ts);
  }
}

/* Once every core finished: as one core whose graph cannot move, serves
 * the clients until `stop`, a signal or, with --live, the end of
 * --duration (handlers now run on the cores' graphs from this thread),
 * unless the run already stopped or failed. A
 * signal that ends it is the run's, as if the cores had seen it. */
static void nprt_multi_linger(nprt_multi *m, nprt_control *ctl,
                              nprt_handler_ctx *hc, int rc) {
  bool ended = rc == NPRT_EXIT_ERROR ||
               atomic_load_explicit(&m->stop, memory_order_acquire);
  for (uint32_t q = 0; q < m->n; ++q)
    ended |= m->cores[q].ex.status.stop || m->cores[q].ex.status.init_failed ||
             m->cores[q].ex.status.io_error;
  if (ended)
    return;
  /* With --live, the end of --duration is one too. */
  const nprt_exec *ex = &m->cores[0].ex;
  bool timed = ex->clock.live && ex->clock.end != INT64_MAX;
  while (!hc->stopped && !nprt_stop_signal) {
    int64_t d = timed ? ex->clock.end + 1 - nprt_clock_live_now(&ex->clock) : 0;
    if (timed && d <= 0)
      break;
    struct timespec ts = {(time_t)(d / 1000000000), (long)(d % 1000000000)};
    nprt_control_wait(ctl, hc, timed ? &ts : NULL);
  }
  if (nprt_stop_signal) {
    m->cores[0].ex.status.signo = nprt_stop_signal;
    nprt_exec_report_signal(&m->cores[0].ex, false);
  }
}

/* What the control thread's handlers run on: the program's graph, which
 * never runs (its instances name the handlers), with every call relayed
 * to the cores' copies (core_control.c), and the buffers reads need. */
static int nprt_multi_handlers(nprt_multi *m, nprt_handler_ctx *hc) {
  const nprt_program *p = m->program;
  size_t size = 1;
  for (uint32_t i = 0; i < p->n_instances; ++i)
    if (p->instances[i].state_size > size)
      size = p->instances[i].state_size;
  m->cmd_acc = malloc(size);
  m->cmd_save = malloc(size);
  *hc = (nprt_handler_ctx){.graph = nprt_graph_create(),
                           .ctx = m,
                           .write_handler = nprt_multi_write,
                           .read_handler = nprt_multi_read,
                           .stop = nprt_multi_stop};
  if (hc->graph)
    nprt_graph_load(hc->graph, p);
  if (!m->cmd_acc || !m->cmd_save || !hc->graph || hc->graph->error[0]) {
    fprintf(m->opts->err, "%s: error: out of memory\n", m->opts->prog);
    return -1;
  }
  return 0;
}

/* Adds the input statistics of `t` (a core's devices) into `sum`'s;
 * -1 when memory is out. */
static int nprt_multi_sum_rx(nprt_report *sum, const nprt_devices *t) {
  uint32_t n;
  nprt_dev_stats *s = nprt_devices_stats(t, false, &n);
  if (n > sum->n_rx) {
    nprt_dev_stats *v = realloc(sum->rx, n * sizeof(*v));
    if (!v) {
      free(s);
      return -1;
    }
    memset(v + sum->n_rx, 0, (n - sum->n_rx) * sizeof(*v));
    sum->rx = v;
    sum->n_rx = n;
  }
  for (uint32_t d = 0; d < n; ++d) {
    sum->rx[d].path = s[d].path;
    sum->rx[d].packets += s[d].packets;
    sum->rx[d].bytes += s[d].bytes;
  }
  free(s);
  return 0;
}

/* The summary's instance that local instance `l` of core `c` is a copy
 * of; NULL for a lane end. */
static nprt_inst *nprt_summary_inst(const nprt_core *c, const nprt_graph *g,
                                    uint32_t l) {
  return c->prog[l] == UINT32_MAX ? NULL : g->insts[c->prog[l]];
}

/* The packets still live: allocated minus freed over the cores' pools
 * (one core may free what another allocated). */
static void nprt_sum_pool_live(nprt_report *sum) {
  sum->pool.live = sum->pool.allocated > sum->pool.freed
                       ? sum->pool.allocated - sum->pool.freed
                       : 0;
}

/* The run as one graph and its statistics, for the report and -h:
 * counters summed over the copies, merged state combined, the rest from
 * the primary copy; each core's devices, pool and profile summed. The
 * graph's handlers (which may call now() or print) run on the executor of
 * the core whose clock went furthest: the clock the run ended with. */
static nprt_graph *nprt_multi_summary(nprt_multi *m, nprt_report *sum) {
  const nprt_program *p = m->program;
  nprt_graph *g = nprt_graph_create();
  if (!g)
    return NULL;
  nprt_graph_load(g, p);
  if (g->error[0])
    return g;
  for (uint32_t q = 0; q < m->n; ++q) {
    nprt_core *c = &m->cores[q];
    for (uint32_t l = 0; l < c->n_local; ++l) {
      nprt_inst *to = nprt_summary_inst(c, g, l), *from = c->graph->insts[l];
      if (!to)
        continue;
      uint32_t i = c->prog[l];
      to->iterations += from->iterations;
      to->rx_pkts += from->rx_pkts;
      to->rx_bytes += from->rx_bytes;
      to->prof_cycles += from->prof_cycles;
      to->prof_iters += from->prof_iters;
      to->drops += from->drops;
      to->faults += from->faults;
      to->allocs += from->allocs;
      to->alloc_failures += from->alloc_failures;
      for (uint32_t o = 0; o < from->n_out && o < to->n_out; ++o)
        to->out[o].drops += from->out[o].drops;
      size_t size = p->instances[i].state_size;
      if (c->primary[l] && size && from->state_obj && to->state_obj)
        memcpy(to->state_obj, from->state_obj, size);
      /* Shared state: the copy of the core the primary runs on (every
       * instance writing it per packet runs on one core). */
      const nprt_shared_desc *sd = p->instances[i].shared;
      if (c->primary[l] && sd && from->shared_obj && to->shared_obj)
        memcpy(to->shared_obj, from->shared_obj, sd->size);
    }
  }
  /* Merged fields of the other copies. */
  nprt_exec *last = &m->cores[0].ex;
  for (uint32_t q = 0; q < m->n; ++q) {
    nprt_core *c = &m->cores[q];
    for (uint32_t l = 0; l < c->n_local; ++l) {
      uint32_t i = c->prog[l];
      if (i != UINT32_MAX && !c->primary[l])
        nprt_merge_into(&p->instances[i], g->insts[i]->state_obj,
                        c->graph->insts[l]->state_obj);
    }
    for (uint32_t k = 0; k < c->graph->n_chans; ++k) {
      const nprt_chan_ref *r = &c->chans[k];
      const nprt_chan *from = c->graph->chans[k];
      nprt_chan *to = g->chans[r->prog];
      if (r->src) {
        to->packets += from->packets;
        to->drops += from->drops;
        to->occ_sum += from->occ_sum;
        to->occ_samples += from->occ_samples;
        if (from->max_occupancy > to->max_occupancy)
          to->max_occupancy = from->max_occupancy;
        atomic_fetch_add(&to->tail, atomic_load(&from->tail));
      }
      if (r->dst) {
        atomic_fetch_add(&to->head, atomic_load(&from->head));
        to->consumer_drops += from->consumer_drops;
      }
    }
    /* Input devices: each core counted its share. */
    nprt_exec *ex = &c->ex;
    if (nprt_multi_sum_rx(sum, &ex->devices) != 0)
      return g;
    sum->cores[q] =
        (nprt_core_prof){ex->prof.end - ex->prof.start, ex->prof.wait,
                         ex->prof.windows, ex->prof.dropped};
    sum->prof_windows += ex->prof.windows;
    sum->prof_dropped += ex->prof.dropped;
    sum->pool.allocated += ex->pool.allocated;
    sum->pool.freed += ex->pool.freed;
    /* The busiest core's: on one core (a simulated one) the run's. */
    if (ex->pool.high_water > sum->pool.high_water)
      sum->pool.high_water = ex->pool.high_water;
    nprt_status_merge(&sum->status, &ex->status);
    if (ex->clock.now > last->clock.now)
      last = ex;
  }
  nprt_sum_pool_live(sum);
  for (uint32_t i = 0; i < g->n_insts; ++i)
    g->insts[i]->ex = last;
  return g;
}

/* After the cores wound down: the drops their fini counted (packets the
 * instances' queues still held when the run ended), the values their
 * channels still held, and the frees that followed join the summary, as on one
 * core, where the report follows the wind-down. The state is left as -h read
 * it. */
static void nprt_multi_sum_wind_down(nprt_multi *m, nprt_graph *g,
                                     nprt_report *sum) {
  for (uint32_t i = 0; i < g->n_insts; ++i) {
    g->insts[i]->drops = 0;
    for (uint32_t o = 0; o < g->insts[i]->n_out; ++o)
      g->insts[i]->out[o].drops = 0;
  }
  for (uint32_t k = 0; k < g->n_chans; ++k) {
    g->chans[k]->consumer_drops = 0;
    atomic_store(&g->chans[k]->head, 0);
  }
  sum->pool.allocated = sum->pool.freed = 0;
  for (uint32_t q = 0; q < m->n; ++q) {
    nprt_core *c = &m->cores[q];
    for (uint32_t l = 0; l < c->n_local; ++l) {
      nprt_inst *to = nprt_summary_inst(c, g, l);
      if (!to)
        continue;
      const nprt_inst *from = c->graph->insts[l];
      to->drops += from->drops;
      for (uint32_t o = 0; o < from->n_out && o < to->n_out; ++o)
        to->out[o].drops += from->out[o].drops;
    }
    /* What an instance received is what its channels gave it less what
     * they dropped as it ended (nprt_in_packets): both moved. */
    for (uint32_t k = 0; k < c->graph->n_chans; ++k) {
      if (!c->chans[k].dst)
        continue;
      nprt_chan *to = g->chans[c->chans[k].prog];
      const nprt_chan *from = c->graph->chans[k];
      to->consumer_drops += from->consumer_drops;
      atomic_fetch_add(&to->head, atomic_load(&from->head));
    }
    sum->pool.allocated += c->ex.pool.allocated;
    sum->pool.freed += c->ex.pool.freed;
  }
  nprt_sum_pool_live(sum);
}

int nprt_run_cores(const nprt_program *program, const nprt_options *o,
                   uint32_t cores, uint32_t mapping) {
  return nprt_run_cores_on(program, o, cores, mapping, NULL);
}

#ifdef NPRT_SIM
/* The names of the program's instances, for the simulator's report. */
static const char **nprt_instance_names(const nprt_program *p) {
  const char **v = calloc(p->n_instances + 1, sizeof(*v));
  for (uint32_t i = 0; v && i < p->n_instances; ++i)
    v[i] = p->instances[i].name;
  return v;
}
#endif

int nprt_run_cores_on(const nprt_program *program, const nprt_options *o,
                      uint32_t cores, uint32_t mapping,
                      struct npsim_machine *sim) {
  nprt_multi m;
  memset(&m, 0, sizeof(m));
  m.program = program;
  m.opts = o;
  m.sim = sim;
  /* The mapping tables cover NPRT_MAX_CORES (a simulated run may have
   * more contexts: then rtc). */
  bool tabled = cores <= NPRT_MAX_CORES;
  const uint8_t *stages =
      program->stages && tabled
          ? program->stages + (size_t)(cores - 1) * program->n_instances
          : NULL;
  m.pipeline = mapping == NPRT_MAPPING_PIPELINE ||
               (mapping == NPRT_MAPPING_AUTO && program->auto_pipeline &&
                tabled && program->auto_pipeline[cores - 1]);
  if (m.pipeline && !stages) {
    fprintf(o->err,
            "%s: error: --mapping=pipeline: the program was compiled "
            "without a mapping\n",
            o->prog);
    return NPRT_EXIT_ERROR;
  }
  m.n = cores;
  if (m.pipeline) {
    /* Cores past the last stage would idle. */
    uint32_t used = 1;
    for (uint32_t i = 0; i < program->n_instances; ++i)
      if (stages[i] + 1u > used)
        used = stages[i] + 1u;
    m.n = used;
  }
  m.oversubscribed = m.n > (uint32_t)sysconf(_SC_NPROCESSORS_ONLN);
  const char **names = NULL;
  m.cores = calloc(m.n, sizeof(nprt_core));
  pthread_mutex_init(&m.out_lock, NULL);
  int rc = NPRT_EXIT_ERROR;
  struct sigaction old[3];
  nprt_exec_catch_signals(old);
  nprt_handler_report report;
  memset(&report, 0, sizeof(report));
  nprt_report sum;
  memset(&sum, 0, sizeof(sum));
  sum.opts = o;
  nprt_graph *summary = NULL;
  /* With --control, what the control thread's handlers run on. */
  nprt_handler_ctx hc;
  memset(&hc, 0, sizeof(hc));
  nprt_control *ctl = NULL;
  if (!m.cores || nprt_multi_build(&m, stages) != 0) {
    if (!m.cores || !m.cores[0].graph || !m.cores[0].graph->error[0])
      fprintf(o->err, "%s: error: out of memory\n", o->prog);
    goto done;
  }
  nprt_multi_init_cores(&m);
  if (nprt_run_check_output_paths(o) != 0)
    goto done;
  for (uint32_t k = 0; k < o->n_signals; ++k) {
    bool known = false;
    for (uint32_t i = 0; i < program->n_instances && !known; ++i)
      known = strcmp(program->instances[i].name, o->signals[k].inst) == 0;
    if (!known) {
      fprintf(o->err, "%s: error: --signal: no instance named '%s'\n", o->prog,
              o->signals[k].inst);
      goto done;
    }
  }
  /* The control socket opens before any output file, as on one core. */
  if (o->control && (nprt_multi_handlers(&m, &hc) != 0 ||
                     nprt_run_open_control(o, &ctl) != 0))
    goto done;
  for (uint32_t q = 0; q < m.n; ++q)
    if (nprt_exec_attach_signals(&m.cores[q].ex) != 0 ||
        nprt_devices_open(&m.cores[q].ex.devices, q == 0) != 0)
      goto done;
  /* One mapping of each input file for every core. */
  const nprt_devices *d0 = &m.cores[0].ex.devices;
  for (uint32_t q = 1; q < m.n; ++q) {
    const nprt_devices *t = &m.cores[q].ex.devices;
    for (uint32_t d = 0; d < t->n_in && d < d0->n_in; ++d) {
      nprt_pcap_in *in = nprt_core_dev_pcap(&t->in[d]);
      const nprt_pcap_in *from = nprt_core_dev_pcap(&d0->in[d]);
      if (in && from)
        nprt_pcap_in_share(in, from);
    }
  }
  /* One ingress per input file: scanned once, each core handed its own
   * records (core_dev.c). */
  if (nprt_multi_open_ingress(&m) != 0)
    goto done;
  /* Core 0 opened the outputs (with its inputs' link types); all share
   * them. */
  nprt_devices *t0 = &m.cores[0].ex.devices;
  m.outs = *t0;
  m.outs.in = NULL;
  m.outs.n_in = 0;
  m.outs.out_kind = &nprt_pcap_out_ops;
  m.outs.kind_ctx = NULL;
  t0->out = NULL;
  t0->n_out = 0;
  m.outs_open = true;
#ifdef NPRT_SIM
  if (m.sim && nprt_sim_prepare(&m) != 0)
    goto done;
  if (m.sim && o->trace_json)
    npsim_trace_on(m.sim);
#endif
  if (nprt_multi_start(&m) != 0)
    goto done;
  if (ctl)
    nprt_multi_serve(&m, ctl, &hc);
  rc = nprt_multi_join(&m);
  nprt_multi_flush_outputs(&m);
  if (ctl) {
    nprt_multi_linger(&m, ctl, &hc, rc);
    nprt_control_close(ctl);
    ctl = NULL;
  }
  nprt_multi_drain(&m);
  sum.cores = calloc(m.n, sizeof(*sum.cores));
  sum.n_cores = m.n;
  summary = sum.cores ? nprt_multi_summary(&m, &sum) : NULL;
  if (!summary || summary->error[0]) {
    fprintf(o->err, "%s: error: out of memory\n", o->prog);
    rc = NPRT_EXIT_ERROR;
    goto done;
  }
  sum.graph = summary;
  /* -h reads the state the run left, before fini empties the queues. */
  nprt_handler_report_collect(summary, o, &report);
  for (uint32_t q = 0; q < m.n; ++q)
    nprt_exec_wind_down(&m.cores[q].ex);
  nprt_multi_sum_wind_down(&m, summary, &sum);
  m.outs_open = false;
  if (nprt_devices_close(&m.outs) != 0)
    nprt_status_failed(&sum.status, false);
  sum.tx = nprt_devices_stats(&m.outs, true, &sum.n_tx);
  rc = nprt_status_exit_code(&sum.status, rc);
  /* An init that could not load its table ended the run before any
   * packet moved: as on one core, no report. */
  if (!sum.status.init_failed && nprt_stats_report(&sum) != 0)
    rc = NPRT_EXIT_ERROR;
  if (!sum.status.init_failed && nprt_handler_report_print(&report, o) != 0)
    rc = NPRT_EXIT_ERROR;
#ifdef NPRT_SIM
  /* What the simulated machine measured, after the runtime's table. */
  if (m.sim && !sum.status.init_failed) {
    names = nprt_instance_names(program);
    if (!names || npsim_report(m.sim, names, program->n_instances,
                               o->quiet ? NULL : o->out, o->sim_json) != 0)
      rc = NPRT_EXIT_ERROR;
    if (names && o->trace_json &&
        npsim_write_trace(m.sim, names, program->n_instances, o->trace_json))
      rc = NPRT_EXIT_ERROR;
  }
#endif
done:
  free(names);
  if (m.outs_open)
    nprt_devices_close(&m.outs);
  for (uint32_t q = 0; m.cores && q < m.n; ++q)
    nprt_devices_close(&m.cores[q].ex.devices);
  nprt_handler_report_free(&report);
  free(sum.rx);
  free(sum.tx);
  free(sum.cores);
  nprt_graph_destroy(summary);
  nprt_control_close(ctl);
  nprt_graph_destroy(hc.graph);
  nprt_multi_free(&m);
  pthread_mutex_destroy(&m.out_lock);
  nprt_exec_restore_signals(old);
  return rc;
}
