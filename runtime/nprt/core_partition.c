/*===- core_partition.c - each core's graph ------------------------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Each core's graph: under a pipeline the instances of its stage; under
 * rtc a copy of every replicable instance, and on core 0 the run-once
 * instances and a second copy (the tail) of the replicable ones that
 * values from run-once instances reach. Channels within a core stay
 * channels; one crossing cores becomes a lane-out on the sender, a lane
 * (core_lanes.c) and an output of the receiver's lane-in. Each local
 * instance and channel remembers the program's it stands for, for the
 * report and the handlers.
 *===----------------------------------------------------------------------===*/
#include "runtime/nprt/cores.h"

#include "runtime/nprt/graph.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool nprt_core_note(nprt_core *c, uint32_t prog, bool primary) {
  if (c->n_local == c->cap_local) {
    uint32_t cap = c->cap_local ? 2 * c->cap_local : 16;
    uint32_t *p = realloc(c->prog, cap * sizeof(*p));
    if (!p)
      return false;
    c->prog = p;
    bool *q = realloc(c->primary, cap * sizeof(*q));
    if (!q)
      return false;
    c->primary = q;
    c->cap_local = cap;
  }
  c->prog[c->n_local] = prog;
  c->primary[c->n_local] = primary;
  ++c->n_local;
  return true;
}

static uint32_t nprt_core_add(nprt_core *c, uint32_t inst, bool primary) {
  uint32_t id = nprt_graph_add_program_instance(c->graph, c->m->program, inst);
  if (id != UINT32_MAX && !nprt_core_note(c, inst, primary))
    return UINT32_MAX;
  return id;
}

/* Records what the channel just connected in `c` stands for. */
static void nprt_core_chan(nprt_core *c, uint32_t prog, bool src, bool dst) {
  nprt_graph *g = c->graph;
  if (g->n_chans > c->cap_chans) {
    uint32_t cap = g->cap_chans;
    nprt_chan_ref *v = realloc(c->chans, cap * sizeof(*v));
    if (!v)
      return;
    c->chans = v;
    c->cap_chans = cap;
  }
  if (g->n_chans)
    c->chans[g->n_chans - 1] = (nprt_chan_ref){prog, src, dst};
}

static void nprt_core_connect(nprt_core *c, uint32_t k, uint32_t from,
                              uint32_t to, bool src, bool dst) {
  const nprt_channel_desc *d = &c->m->program->channels[k];
  uint32_t before = c->graph->n_chans;
  nprt_graph_connect(c->graph, from, d->src_port, to, d->dst_port, d->depth,
                     d->lossy);
  if (c->graph->n_chans > before) {
    /* The compiled code's calls along it count as the program says. */
    c->graph->chans[before]->uncounted = d->uncounted;
    nprt_core_chan(c, k, src, dst);
  }
}

/* A lane-out on core `c` for channel `k`, fed by local instance `from`. */
static void nprt_core_lane_out(nprt_core *c, uint32_t k, uint32_t from,
                               uint32_t to, bool main) {
  nprt_graph *g = c->graph;
  const nprt_channel_desc *d = &c->m->program->channels[k];
  char name[64];
  snprintf(name, sizeof(name), "(lane %u>%u ch%u)", c->id, to, k);
  uint32_t id = nprt_graph_add_instance(g, name, "(lane out)", "i", "", NULL,
                                        nprt_lane_out_handler, NULL, "npu");
  if (id == UINT32_MAX || !nprt_core_note(c, UINT32_MAX, false))
    return;
  nprt_lane_out *st = calloc(1, sizeof(*st));
  if (!st)
    return;
  st->edge = k;
  st->to = to;
  st->self = to == c->id;
  st->main = main;
  nprt_lane_dev_init(&st->dev, &st->lane, c, &nprt_lane_tx_ops);
  g->insts[id]->state_obj = st;
  g->insts[id]->push_ports = 1;
  g->insts[id]->runtime_added = true;
  g->insts[id]->fini = nprt_lane_out_fini;
  uint32_t before = g->n_chans;
  nprt_graph_connect(g, from, d->src_port, id, 0, d->depth, d->lossy);
  if (g->n_chans > before) {
    g->chans[before]->uncounted = d->uncounted;
    nprt_core_chan(c, k, true, false);
  }
}

int nprt_multi_build(nprt_multi *m, const uint8_t *stages) {
  const nprt_program *p = m->program;
  uint32_t n = m->n, ni = p->n_instances, nc = p->n_channels;
  m->replicate = calloc(ni ? ni : 1, sizeof(bool));
  m->tail = calloc(ni ? ni : 1, sizeof(bool));
  m->edges = calloc(nc ? nc : 1, sizeof(nprt_edge));
  m->local = calloc(n, sizeof(uint32_t *));
  m->tail_local = malloc((ni ? ni : 1) * sizeof(uint32_t));
  m->lanes = calloc((size_t)n * n, sizeof(nprt_lane *));
  if (!m->replicate || !m->tail || !m->edges || !m->local || !m->tail_local ||
      !m->lanes)
    return -1;
  for (uint32_t i = 0; i < ni; ++i) {
    /* One core (a simulated run of one context) runs every instance once:
     * as one core does, with no lane. */
    m->replicate[i] = p->instances[i].replicate || n == 1;
    m->tail_local[i] = UINT32_MAX;
    if (!m->pipeline && !m->replicate[i] && p->instances[i].timer)
      m->serial_core = true;
  }
  if (m->serial_core)
    atomic_store(&m->cores[0].done, UINT64_MAX);
  for (uint32_t i = 0; m->pipeline && i < ni; ++i)
    if (p->instances[i].timer && stages[i] > m->tick_to)
      m->tick_to = stages[i];
  if (!m->pipeline) {
    /* The tail: replicable instances that values from run-once ones
     * reach. */
    bool changed = true;
    while (changed) {
      changed = false;
      for (uint32_t k = 0; k < nc; ++k) {
        const nprt_channel_desc *c = &p->channels[k];
        bool from = !m->replicate[c->src] || m->tail[c->src];
        if (from && m->replicate[c->dst] && !m->tail[c->dst]) {
          m->tail[c->dst] = true;
          changed = true;
        }
      }
    }
  }
  for (uint32_t k = 0; k < n; ++k) {
    nprt_core *c = &m->cores[k];
    c->m = m;
    c->id = k;
    c->lane_in = UINT32_MAX;
    c->graph = nprt_graph_create();
    if (c->graph)
      c->graph->copies = !m->pipeline && k == 0;
    m->local[k] = malloc((ni ? ni : 1) * sizeof(uint32_t));
    c->records = calloc(NPRT_MAX_DEVICES, sizeof(uint64_t));
    if (!c->graph || !m->local[k] || !c->records)
      return -1;
    for (uint32_t i = 0; i < ni; ++i) {
      bool here = m->pipeline ? stages[i] == k : m->replicate[i] || k == 0;
      m->local[k][i] =
          here ? nprt_core_add(c, i, m->pipeline || k == 0) : UINT32_MAX;
      if (here && m->local[k][i] == UINT32_MAX)
        return -1;
    }
  }
  for (uint32_t i = 0; i < ni; ++i)
    if (m->tail[i] && (m->tail_local[i] =
                           nprt_core_add(&m->cores[0], i, false)) == UINT32_MAX)
      return -1;
  /* Channels: local ones, then lane ends. `ports[core]` collects the
   * channels each core's lane-in delivers. */
  uint32_t *in_count = calloc(n, sizeof(uint32_t));
  if (!in_count)
    return -1;
  for (uint32_t k = 0; k < nc; ++k) {
    const nprt_channel_desc *c = &p->channels[k];
    nprt_edge *e = &m->edges[k];
    if (m->pipeline) {
      uint32_t a = stages[c->src], b = stages[c->dst];
      if (a == b) {
        nprt_core_connect(&m->cores[a], k, m->local[a][c->src],
                          m->local[a][c->dst], true, true);
        continue;
      }
      *e = (nprt_edge){true, b, in_count[b]++};
      nprt_core_lane_out(&m->cores[a], k, m->local[a][c->src], a + 1, true);
      for (uint32_t s = a; s < b; ++s)
        if (!m->lanes[s * n + s + 1] &&
            !(m->lanes[s * n + s + 1] = nprt_lane_create()))
          return free(in_count), -1;
      continue;
    }
    bool rs = m->replicate[c->src], rd = m->replicate[c->dst];
    if (rs && rd) {
      for (uint32_t q = 0; q < n; ++q)
        nprt_core_connect(&m->cores[q], k, m->local[q][c->src],
                          m->local[q][c->dst], true, true);
      if (m->tail[c->src])
        nprt_core_connect(&m->cores[0], k, m->tail_local[c->src],
                          m->tail_local[c->dst], true, true);
    } else if (rs) {
      /* To a run-once instance: from every copy over a lane to core 0. */
      *e = (nprt_edge){true, 0, in_count[0]++};
      for (uint32_t q = 0; q < n; ++q) {
        nprt_core_lane_out(&m->cores[q], k, m->local[q][c->src], 0, true);
        if (q && !m->lanes[q * n] && !(m->lanes[q * n] = nprt_lane_create()))
          return free(in_count), -1;
      }
      if (m->tail[c->src])
        nprt_core_lane_out(&m->cores[0], k, m->tail_local[c->src], 0, false);
    } else if (rd) {
      nprt_core_connect(&m->cores[0], k, m->local[0][c->src],
                        m->tail_local[c->dst], true, true);
    } else {
      nprt_core_connect(&m->cores[0], k, m->local[0][c->src],
                        m->local[0][c->dst], true, true);
    }
  }
  /* The lanes that carry the ticks to the stages with timers. */
  for (uint32_t q = 0; q < m->tick_to; ++q)
    if (!m->lanes[q * n + q + 1] &&
        !(m->lanes[q * n + q + 1] = nprt_lane_create()))
      return free(in_count), -1;
  /* Lane-ins: one output per channel delivered on the core. */
  for (uint32_t q = 0; q < n; ++q) {
    nprt_core *c = &m->cores[q];
    bool relays = m->pipeline && q && m->lanes[(q - 1) * n + q];
    /* A serial core 0 always has one: it passes the clock ticks. */
    bool ticks = m->serial_core && q == 0;
    if (!in_count[q] && !relays && !ticks)
      continue;
    size_t len = 1;
    for (uint32_t k = 0; k < nc; ++k)
      if (m->edges[k].lane && m->edges[k].dst_core == q)
        len += 12;
    char *ports = calloc(1, len);
    if (!ports)
      return free(in_count), -1;
    for (uint32_t k = 0; k < nc; ++k)
      if (m->edges[k].lane && m->edges[k].dst_core == q)
        snprintf(ports + strlen(ports), len - strlen(ports), "%sch%u",
                 *ports ? "," : "", k);
    uint32_t id =
        nprt_graph_add_instance(c->graph, "(lane in)", "(lane in)", "", ports,
                                NULL, nprt_lane_in_handler, NULL, "npu");
    free(ports);
    if (id == UINT32_MAX || !nprt_core_note(c, UINT32_MAX, false))
      return free(in_count), -1;
    nprt_lane_in *st = calloc(1, sizeof(*st));
    if (!st)
      return free(in_count), -1;
    nprt_lane_dev_init(&st->dev, &st->lane, c, &nprt_lane_rx_ops);
    c->lane_in = id;
    c->graph->insts[id]->state_obj = st;
    c->graph->insts[id]->runtime_added = true;
    c->graph->insts[id]->relay = true;
    for (uint32_t k = 0; k < nc; ++k) {
      const nprt_channel_desc *d = &p->channels[k];
      if (!m->edges[k].lane || m->edges[k].dst_core != q)
        continue;
      uint32_t before = c->graph->n_chans;
      nprt_graph_connect(c->graph, id, m->edges[k].in_port, m->local[q][d->dst],
                         d->dst_port, d->depth, d->lossy);
      if (c->graph->n_chans > before) {
        c->graph->chans[before]->uncounted = d->uncounted;
        nprt_core_chan(c, k, false, true);
      }
    }
  }
  free(in_count);
  for (uint32_t q = 0; q < n; ++q) {
    if (m->cores[q].graph->error[0]) {
      fprintf(m->opts->err, "%s: error: %s\n", m->opts->prog,
              m->cores[q].graph->error);
      return -1;
    }
    nprt_graph_settle(m->cores[q].graph);
  }
  return 0;
}
