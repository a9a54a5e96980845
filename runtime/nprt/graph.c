/*===- graph.c - graph construction API --------------------------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * nprt_graph_load turns a compiled program's description into instances
 * and channels (nprt_graph_add_instance, nprt_graph_connect). Construction
 *errors (bad ids, a port connected twice) do not abort: the first one is kept
 *in the graph and nprt_run reports it.
 *
 *===----------------------------------------------------------------------===*/
#include "runtime/nprt/graph.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* nprt/link.h reads an instance through nprt_inst_head. */
#define NPRT_SAME_OFFSET(field, head_field)                                    \
  _Static_assert(offsetof(nprt_inst, field) ==                                 \
                     offsetof(nprt_inst_head, head_field),                     \
                 "nprt_inst." #field " is not nprt_inst_head." #head_field)
NPRT_SAME_OFFSET(links, links);
NPRT_SAME_OFFSET(standin_ptr, standin);
NPRT_SAME_OFFSET(iterations, iterations);
NPRT_SAME_OFFSET(nest, nest);
NPRT_SAME_OFFSET(progress, progress);

static void nprt_graph_error(nprt_graph *g, const char *fmt, ...) {
  if (g->error[0])
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(g->error, sizeof(g->error), fmt, ap);
  va_end(ap);
}

static char *nprt_strdup(const char *s) {
  size_t n = strlen(s ? s : "") + 1;
  char *d = malloc(n);
  if (d)
    memcpy(d, s ? s : "", n);
  return d;
}

/* Splits "a, b,c" into trimmed names; returns how many. */
static uint32_t nprt_split_ports(const char *list, char ***names) {
  *names = NULL;
  if (!list)
    return 0;
  const char *s = list;
  while (*s == ' ')
    ++s;
  if (!*s)
    return 0;
  uint32_t n = 1;
  for (const char *c = s; *c; ++c)
    n += *c == ',';
  char **v = calloc(n, sizeof(char *));
  if (!v)
    return 0;
  for (uint32_t i = 0; i < n; ++i) {
    while (*s == ' ')
      ++s;
    const char *e = strchr(s, ',');
    size_t len = e ? (size_t)(e - s) : strlen(s);
    while (len && s[len - 1] == ' ')
      --len;
    v[i] = malloc(len + 1);
    if (v[i]) {
      memcpy(v[i], s, len);
      v[i][len] = 0;
    }
    s = e ? e + 1 : s + len;
  }
  *names = v;
  return n;
}

nprt_graph *nprt_graph_create(void) { return calloc(1, sizeof(nprt_graph)); }

uint32_t nprt_graph_add_instance(nprt_graph *g, const char *name,
                                 const char *element, const char *in_ports,
                                 const char *out_ports, nprt_fn init,
                                 nprt_fn handler, nprt_signal_fn signal,
                                 const char *placement) {
  if (g->n_insts == g->cap_insts) {
    uint32_t cap = g->cap_insts ? 2 * g->cap_insts : 16;
    nprt_inst **v = realloc(g->insts, cap * sizeof(*v));
    if (!v) {
      nprt_graph_error(g, "out of memory");
      return UINT32_MAX;
    }
    g->insts = v;
    g->cap_insts = cap;
  }
  nprt_inst *in = calloc(1, sizeof(nprt_inst));
  if (!in) {
    nprt_graph_error(g, "out of memory");
    return UINT32_MAX;
  }
  if (!g->copies && nprt_graph_find(g, name) != UINT32_MAX)
    nprt_graph_error(g, "instance '%s' is declared twice", name);
  if (!handler)
    nprt_graph_error(g, "instance '%s' has no handler", name);
  in->id = g->n_insts;
  in->standin_ptr = &in->standin;
  in->wait_on = in;
  in->name = nprt_strdup(name);
  in->element = nprt_strdup(element);
  in->placement = nprt_strdup(placement ? placement : "host");
  in->init = init;
  in->handler = handler;
  in->signal = signal;
  char **names;
  in->n_in = nprt_split_ports(in_ports, &names);
  in->in = calloc(in->n_in ? in->n_in : 1, sizeof(nprt_in_port));
  for (uint32_t i = 0; i < in->n_in; ++i)
    in->in[i].name = names[i];
  free(names);
  in->n_out = nprt_split_ports(out_ports, &names);
  in->out = calloc(in->n_out ? in->n_out : 1, sizeof(nprt_out_port));
  in->links = calloc(in->n_out ? in->n_out : 1, sizeof(nprt_link));
  if (!in->out || !in->links) {
    nprt_graph_error(g, "out of memory");
    in->n_out = 0;
  }
  for (uint32_t i = 0; i < in->n_out; ++i) {
    in->out[i].name = names[i];
    in->links[i].select_next = &in->links[i].spare;
  }
  free(names);
  g->insts[g->n_insts] = in;
  return g->n_insts++;
}

void nprt_graph_connect(nprt_graph *g, uint32_t src, uint32_t src_port,
                        uint32_t dst, uint32_t dst_port, uint32_t depth,
                        bool lossy) {
  if (src >= g->n_insts || dst >= g->n_insts) {
    nprt_graph_error(g, "connection refers to instance %u of %u",
                     src >= g->n_insts ? src : dst, g->n_insts);
    return;
  }
  nprt_inst *s = g->insts[src], *d = g->insts[dst];
  if (src_port >= s->n_out) {
    nprt_graph_error(g, "instance '%s' has no output port %u", s->name,
                     src_port);
    return;
  }
  if (dst_port >= d->n_in) {
    nprt_graph_error(g, "instance '%s' has no input port %u", d->name,
                     dst_port);
    return;
  }
  if (s->out[src_port].ch) {
    nprt_graph_error(g, "output port '%s' of '%s' is connected twice",
                     s->out[src_port].name, s->name);
    return;
  }
  if (d->in[dst_port].ch) {
    nprt_graph_error(g, "input port '%s' of '%s' is connected twice",
                     d->in[dst_port].name, d->name);
    return;
  }
  if (depth > NPRT_CHAN_MAX_DEPTH) {
    nprt_graph_error(g, "channel '%s.%s' -> '%s.%s' is deeper than %u", s->name,
                     s->out[src_port].name, d->name, d->in[dst_port].name,
                     NPRT_CHAN_MAX_DEPTH);
    return;
  }
  if (g->n_chans == g->cap_chans) {
    uint32_t cap = g->cap_chans ? 2 * g->cap_chans : 16;
    nprt_chan **v = realloc(g->chans, cap * sizeof(*v));
    if (!v) {
      nprt_graph_error(g, "out of memory");
      return;
    }
    g->chans = v;
    g->cap_chans = cap;
  }
  nprt_chan *c = nprt_chan_create(depth, lossy);
  if (!c) {
    nprt_graph_error(g, "out of memory");
    return;
  }
  c->src = src;
  c->src_port = src_port;
  c->dst = dst;
  c->dst_port = dst_port;
  s->out[src_port].ch = c;
  d->in[dst_port].ch = c;
  s->links[src_port].push = d->push_fns ? d->push_fns[dst_port] : NULL;
  g->chans[g->n_chans++] = c;
}

void nprt_graph_set_state(nprt_graph *g, uint32_t id, size_t size,
                          const void *init) {
  if (id >= g->n_insts || size == 0)
    return;
  nprt_inst *in = g->insts[id];
  /* malloc's alignment suits every type a state struct holds. */
  void *state = init ? malloc(size) : calloc(1, size);
  if (!state) {
    nprt_graph_error(g, "out of memory for the state of '%s'", in->name);
    return;
  }
  if (init)
    memcpy(state, init, size);
  free(in->state_obj);
  in->state_obj = state;
}

void nprt_graph_set_timer(nprt_graph *g, uint32_t id, nprt_fn fn,
                          uint64_t period) {
  if (id >= g->n_insts || !fn || !period)
    return;
  g->insts[id]->timer = fn;
  g->insts[id]->timer_period = period;
}

/* A pushed handler that has to wait makes the stack it runs on wait, and
 * with it every sender on that stack: a Queue pushed to from its source
 * and blocked behind a stalled consumer would stop the source too. So a
 * handler is pushed to only if nothing it sends to can refuse a value for
 * long: each lossless output channel leads to an instance that is pushed
 * to itself (on that channel's port). The largest such set, by removing
 * offenders until none is left. */
static void nprt_graph_settle_push(nprt_graph *g) {
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t i = 0; i < g->n_insts; ++i) {
      nprt_inst *in = g->insts[i];
      if (!in->push_ports)
        continue;
      for (uint32_t k = 0; k < in->n_out; ++k) {
        const nprt_chan *c = in->out[k].ch;
        if (!c || c->lossy)
          continue;
        const nprt_inst *to = g->insts[c->dst];
        if (c->dst_port >= 64 || !(to->push_ports >> c->dst_port & 1u)) {
          in->push_ports = 0;
          changed = true;
          break;
        }
      }
    }
  }
}

/* One object per entry of the program's `shared` table, each filled from
 * its image; the graph owns them. */
static bool nprt_graph_alloc_shared(nprt_graph *g,
                                    const nprt_program *program) {
  if (!program->n_shared)
    return true;
  g->shared = calloc(program->n_shared, sizeof(void *));
  if (!g->shared) {
    nprt_graph_error(g, "out of memory for shared state");
    return false;
  }
  g->n_shared = program->n_shared;
  for (uint32_t k = 0; k < program->n_shared; ++k) {
    const nprt_shared_desc *d = &program->shared[k];
    if (d->size == 0)
      continue;
    /* malloc's alignment suits every type a shared struct holds. */
    void *obj = d->init ? malloc(d->size) : calloc(1, d->size);
    if (!obj) {
      nprt_graph_error(g, "out of memory for shared state");
      return false;
    }
    if (d->init)
      memcpy(obj, d->init, d->size);
    g->shared[k] = obj;
  }
  return true;
}

/* The shared object of the instance described by `d`: NULL without one;
 * an entry outside the program's table is an error. */
static void *nprt_graph_shared_of(nprt_graph *g, const nprt_program *program,
                                  const nprt_instance_desc *d) {
  if (!d->shared)
    return NULL;
  for (uint32_t k = 0; k < program->n_shared; ++k)
    if (d->shared == &program->shared[k])
      return g->shared[k];
  nprt_graph_error(g, "instance '%s' names shared state outside the program",
                   d->name);
  return NULL;
}

uint32_t nprt_graph_add_program_instance(nprt_graph *g,
                                         const nprt_program *program,
                                         uint32_t i) {
  if (program->n_shared && !g->shared && !nprt_graph_alloc_shared(g, program))
    return UINT32_MAX;
  const nprt_instance_desc *d = &program->instances[i];
  uint32_t id =
      nprt_graph_add_instance(g, d->name, d->element, d->in_ports, d->out_ports,
                              d->init, d->handler, d->signal, d->placement);
  if (id == UINT32_MAX)
    return id;
  nprt_graph_set_state(g, id, d->state_size, d->state_init);
  g->insts[id]->shared_obj = nprt_graph_shared_of(g, program, d);
  nprt_graph_set_timer(g, id, d->timer, d->timer_period);
  g->insts[id]->fini = d->fini;
  g->insts[id]->handlers = d->handlers;
  g->insts[id]->n_handlers = d->n_handlers;
  g->insts[id]->push_ports = d->push_ports;
  g->insts[id]->select_ports = d->select_ports;
  g->insts[id]->push_fns = d->push_fns;
  return id;
}

void nprt_graph_settle(nprt_graph *g) { nprt_graph_settle_push(g); }

void nprt_graph_load(nprt_graph *g, const nprt_program *program) {
  for (uint32_t i = 0; i < program->n_instances; ++i)
    if (nprt_graph_add_program_instance(g, program, i) == UINT32_MAX)
      return;
  for (uint32_t i = 0; i < program->n_channels; ++i) {
    const nprt_channel_desc *c = &program->channels[i];
    uint32_t n = g->n_chans;
    nprt_graph_connect(g, c->src, c->src_port, c->dst, c->dst_port, c->depth,
                       c->lossy);
    if (g->n_chans > n)
      g->chans[n]->uncounted = c->uncounted;
  }
  nprt_graph_settle_push(g);
  /* np-fuse decides with the same rule: a fused channel whose consumer is
   * not pushed to means the compiler and the runtime disagree. */
  for (uint32_t i = 0; i < program->n_channels && !g->error[0]; ++i) {
    const nprt_channel_desc *c = &program->channels[i];
    const nprt_inst *to = g->insts[c->dst];
    if (c->fused && (c->lossy || c->dst_port >= 64 ||
                     !(to->push_ports >> c->dst_port & 1u)))
      nprt_graph_error(g,
                       "channel '%s.%s' -> '%s.%s' is fused, but its "
                       "consumer is not pushed to",
                       g->insts[c->src]->name,
                       g->insts[c->src]->out[c->src_port].name, to->name,
                       to->in[c->dst_port].name);
  }
}

uint32_t nprt_graph_find(const nprt_graph *g, const char *name) {
  for (uint32_t i = 0; i < g->n_insts; ++i)
    if (strcmp(g->insts[i]->name, name) == 0)
      return i;
  return UINT32_MAX;
}

void nprt_graph_destroy(nprt_graph *g) {
  if (!g)
    return;
  for (uint32_t i = 0; i < g->n_insts; ++i) {
    nprt_inst *in = g->insts[i];
    for (uint32_t p = 0; p < in->n_in; ++p)
      free(in->in[p].name);
    for (uint32_t p = 0; p < in->n_out; ++p)
      free(in->out[p].name);
    free(in->in);
    free(in->out);
    free(in->links);
    free(in->name);
    free(in->element);
    free(in->placement);
    free(in->signals);
    free(in->state_obj);
    free(in);
  }
  for (uint32_t i = 0; i < g->n_chans; ++i)
    nprt_chan_destroy(g->chans[i]);
  for (uint32_t k = 0; k < g->n_shared; ++k)
    free(g->shared[k]);
  free(g->shared);
  free(g->insts);
  free(g->chans);
  free(g);
}
