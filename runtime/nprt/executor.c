/*===- executor.c - single-threaded green-thread executor --------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Each instance gets an mmap'd stack with a guard page. The first entry goes
 * through makecontext/setcontext; every later switch is a _setjmp/_longjmp
 * pair, which (unlike swapcontext) does not save the signal mask and so
 * makes no system call.
 *
 * Termination rules (also in README.md):
 *  - a blocking receive or select on closed-and-empty ports, or
 *    nprt_device_recv at the end of its input, terminates the instance;
 *  - idle rule: an instance with at least one input port, all of them closed
 *    (or unconnected) and empty, that never called nprt_device_recv, is
 *    terminated at the start of its next handler iteration. This ends
 *    instances that only poll (nprt_poll, nprt_try_recv_*);
 *  - a terminated instance closes its output channels and abandons its input
 *    channels (what is left in them, and what is sent later, is freed and
 *    counted as drops of that channel).
 * The run ends when every instance terminated; when none can move and some
 * have not terminated, it is a deadlock.
 *
 *===----------------------------------------------------------------------===*/
#include "runtime/nprt/executor.h"

#include "runtime/nprt/stats.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define NPRT_STACK_BYTES (256u * 1024u)

/*--- Context switching ---------------------------------------------------*/

static void nprt_yield(nprt_inst *self) {
  if (_setjmp(self->jb) == 0)
    _longjmp(self->ex->sched_jb, 1);
}

static void nprt_barrier(nprt_inst *self, uint32_t phase) {
  self->wait = NPRT_WAIT_PHASE;
  self->wait_port = phase;
  nprt_exec_block(self);
}

static bool nprt_inputs_exhausted(nprt_inst *self) {
  for (uint32_t i = 0; i < self->n_in; ++i) {
    nprt_chan *c = self->in[i].ch;
    if (c && (!nprt_chan_closed(c) || nprt_chan_occupancy(c) != 0))
      return false;
  }
  return true;
}

static void nprt_inst_main(nprt_inst *self) {
  if (self->init)
    self->init(self);
  nprt_barrier(self, NPRT_PHASE_SIGNALS);
  for (uint32_t i = 0; i < self->n_signals; ++i)
    self->signal(self, self->signals[i]);
  nprt_barrier(self, NPRT_PHASE_RUN);
  uint32_t batch = 0;
  for (;;) {
    if (self->open_inputs == 0 && self->n_in && self->iterations &&
        !self->used_device && nprt_inputs_exhausted(self))
      nprt_exec_terminate(self);
    self->progress = false;
    ++self->iterations;
    self->handler(self);
    if (!self->progress || ++batch >= NPRT_MAX_BATCH) {
      batch = 0;
      nprt_yield(self);
    }
  }
}

static void nprt_trampoline(unsigned lo, unsigned hi) {
  nprt_inst *self = (nprt_inst *)(((uintptr_t)hi << 32) | lo);
  nprt_inst_main(self);
}

static int nprt_inst_prepare(nprt_inst *in) {
  long page = sysconf(_SC_PAGESIZE);
  size_t bytes = NPRT_STACK_BYTES + (size_t)page;
  void *m =
      mmap(NULL, bytes, PROT_READ | PROT_WRITE,
           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (m == MAP_FAILED)
    return -1;
  if (mprotect(m, (size_t)page, PROT_NONE) != 0) {
    munmap(m, bytes);
    return -1;
  }
  in->stack = m;
  in->stack_bytes = bytes;
  if (getcontext(&in->uc) != 0)
    return -1;
  in->uc.uc_stack.ss_sp = (char *)m + page;
  in->uc.uc_stack.ss_size = NPRT_STACK_BYTES;
  in->uc.uc_link = NULL;
  uintptr_t self = (uintptr_t)in;
  makecontext(&in->uc, (void (*)(void))nprt_trampoline, 2,
              (unsigned)(self & 0xffffffffu), (unsigned)(self >> 32));
  return 0;
}

static void nprt_inst_release(nprt_inst *in) {
  if (in->stack)
    munmap(in->stack, in->stack_bytes);
  in->stack = NULL;
}

/* Runs `in` until it blocks, yields or terminates. */
static void nprt_resume(nprt_exec *ex, nprt_inst *in) {
  in->state = NPRT_READY;
  if (_setjmp(ex->sched_jb) == 0) {
    if (!in->started) {
      in->started = true;
      setcontext(&in->uc);
    }
    _longjmp(in->jb, 1);
  }
}

void nprt_exec_block(nprt_inst *self) {
  self->state = NPRT_BLOCKED;
  nprt_yield(self);
  self->wait = NPRT_WAIT_NONE;
}

void nprt_exec_terminate(nprt_inst *self) {
  nprt_exec *ex = self->ex;
  for (uint32_t i = 0; i < self->n_out; ++i) {
    nprt_chan *c = self->out[i].ch;
    if (c) {
      nprt_chan_close(c);
      --ex->graph->insts[c->dst]->open_inputs;
    }
  }
  for (uint32_t i = 0; i < self->n_in; ++i)
    if (self->in[i].ch)
      nprt_chan_abandon(self->in[i].ch, &ex->pool);
  self->state = NPRT_DONE;
  ++ex->n_done;
  _longjmp(ex->sched_jb, 1);
}

/*--- Scheduling ----------------------------------------------------------*/

static bool nprt_port_ended(const nprt_chan *c) {
  return !c || (nprt_chan_closed(c) && nprt_chan_occupancy(c) == 0);
}

static bool nprt_wait_satisfied(const nprt_exec *ex, const nprt_inst *in) {
  const nprt_chan *c;
  switch (in->wait) {
  case NPRT_WAIT_RECV:
    c = in->in[in->wait_port].ch;
    return !c || nprt_chan_occupancy(c) != 0 || nprt_chan_closed(c);
  case NPRT_WAIT_SEND:
    c = in->out[in->wait_port].ch;
    return !c || nprt_chan_consumer_gone(c) || nprt_chan_occupancy(c) < c->cap;
  case NPRT_WAIT_TAKEN:
    c = in->out[in->wait_port].ch;
    return !c || nprt_chan_consumer_gone(c) ||
           nprt_chan_taken(c, in->wait_ticket);
  case NPRT_WAIT_SELECT: {
    bool all_ended = true;
    for (uint32_t i = 0; i < in->n_in && i < 64; ++i) {
      if (!(in->wait_mask >> i & 1u))
        continue;
      c = in->in[i].ch;
      if (c && nprt_chan_occupancy(c) != 0)
        return true;
      all_ended = all_ended && nprt_port_ended(c);
    }
    return all_ended;
  }
  case NPRT_WAIT_PHASE:
    return ex->phase >= in->wait_port;
  case NPRT_WAIT_NONE:
    break;
  }
  return true;
}

/* Round-robin over runnable instances until all terminated (0) or none can
 * move (-1, deadlock). */
static int nprt_schedule(nprt_exec *ex) {
  nprt_graph *g = ex->graph;
  for (;;) {
    bool ran = false;
    for (uint32_t i = 0; i < g->n_insts; ++i) {
      nprt_inst *in = g->insts[i];
      if (in->state == NPRT_DONE)
        continue;
      if (in->state == NPRT_BLOCKED && !nprt_wait_satisfied(ex, in))
        continue;
      nprt_resume(ex, in);
      ran = true;
      if (in->state == NPRT_DONE)
        nprt_inst_release(in);
    }
    if (ex->n_done == g->n_insts)
      return 0;
    if (ran)
      continue;
    /* Nobody could run: either everyone waits at the next barrier, or the
     * graph is stuck. */
    bool at_barrier = ex->phase < NPRT_PHASE_RUN;
    for (uint32_t i = 0; i < g->n_insts && at_barrier; ++i) {
      nprt_inst *in = g->insts[i];
      at_barrier = in->state == NPRT_DONE || in->wait == NPRT_WAIT_PHASE;
    }
    if (!at_barrier)
      return -1;
    ++ex->phase;
  }
}

static void nprt_report_deadlock(const nprt_exec *ex, FILE *err) {
  const nprt_graph *g = ex->graph;
  for (uint32_t i = 0; i < g->n_insts; ++i) {
    const nprt_inst *in = g->insts[i];
    if (in->state != NPRT_BLOCKED)
      continue;
    switch (in->wait) {
    case NPRT_WAIT_RECV:
      fprintf(err,
              "deadlock: instance '%s' (%s) blocked in recv on port '%s'\n",
              in->name, in->element, in->in[in->wait_port].name);
      break;
    case NPRT_WAIT_SEND:
    case NPRT_WAIT_TAKEN:
      fprintf(err,
              "deadlock: instance '%s' (%s) blocked in send on port '%s'\n",
              in->name, in->element, in->out[in->wait_port].name);
      break;
    case NPRT_WAIT_SELECT: {
      fprintf(err, "deadlock: instance '%s' (%s) blocked in select on ports",
              in->name, in->element);
      const char *sep = " ";
      for (uint32_t p = 0; p < in->n_in && p < 64; ++p)
        if (in->wait_mask >> p & 1u) {
          fprintf(err, "%s'%s'", sep, in->in[p].name);
          sep = ", ";
        }
      fputc('\n', err);
      break;
    }
    case NPRT_WAIT_PHASE:
    case NPRT_WAIT_NONE:
      fprintf(err,
              "deadlock: instance '%s' (%s) waits for the others to "
              "finish init\n",
              in->name, in->element);
      break;
    }
  }
}

/*--- Devices -------------------------------------------------------------*/

nprt_pcap_in *nprt_exec_in_dev(nprt_exec *ex, uint32_t dev) {
  if (dev >= NPRT_MAX_DEVICES)
    return NULL;
  if (dev >= ex->n_in_devs) {
    nprt_pcap_in *v = realloc(ex->in_devs, (dev + 1) * sizeof(*v));
    if (!v)
      return NULL;
    memset(v + ex->n_in_devs, 0, (dev + 1 - ex->n_in_devs) * sizeof(*v));
    ex->in_devs = v;
    ex->n_in_devs = dev + 1;
  }
  return &ex->in_devs[dev];
}

nprt_pcap_out *nprt_exec_out_dev(nprt_exec *ex, uint32_t dev) {
  if (dev >= NPRT_MAX_DEVICES)
    return NULL;
  if (dev >= ex->n_out_devs) {
    nprt_pcap_out *v = realloc(ex->out_devs, (dev + 1) * sizeof(*v));
    if (!v)
      return NULL;
    memset(v + ex->n_out_devs, 0, (dev + 1 - ex->n_out_devs) * sizeof(*v));
    ex->out_devs = v;
    ex->n_out_devs = dev + 1;
  }
  return &ex->out_devs[dev];
}

static int nprt_open_devices(nprt_exec *ex) {
  const nprt_options *o = ex->opts;
  char err[PCAP_ERRBUF_SIZE + 64];
  for (uint32_t i = 0; i < o->n_ins; ++i) {
    nprt_pcap_in *d = nprt_exec_in_dev(ex, o->ins[i].dev);
    if (!d || nprt_pcap_in_open(d, o->ins[i].path, err, sizeof(err)) != 0) {
      fprintf(o->err, "%s: error: %s: %s\n", o->prog, o->ins[i].path,
              d ? err : "out of memory");
      return -1;
    }
  }
  for (uint32_t i = 0; i < o->n_outs; ++i) {
    uint32_t dev = o->outs[i].dev;
    const nprt_pcap_in *src = NULL;
    if (dev < ex->n_in_devs && ex->in_devs[dev].pcap)
      src = &ex->in_devs[dev];
    else if (ex->n_in_devs && ex->in_devs[0].pcap)
      src = &ex->in_devs[0];
    nprt_pcap_out *d = nprt_exec_out_dev(ex, dev);
    if (!d ||
        nprt_pcap_out_open(d, o->outs[i].path, src ? src->linktype : DLT_EN10MB,
                           src ? src->snaplen : 65535, src ? src->nano : false,
                           err, sizeof(err)) != 0) {
      fprintf(o->err, "%s: error: %s: %s\n", o->prog, o->outs[i].path,
              d ? err : "out of memory");
      return -1;
    }
  }
  return 0;
}

static int nprt_close_devices(nprt_exec *ex) {
  int rc = 0;
  char err[256];
  for (uint32_t i = 0; i < ex->n_in_devs; ++i)
    nprt_pcap_in_close(&ex->in_devs[i]);
  for (uint32_t i = 0; i < ex->n_out_devs; ++i) {
    const char *path = ex->out_devs[i].path;
    if (nprt_pcap_out_close(&ex->out_devs[i], err, sizeof(err)) != 0) {
      fprintf(ex->opts->err, "%s: error: %s: %s\n", ex->opts->prog, path, err);
      rc = -1;
    }
  }
  free(ex->in_devs);
  free(ex->out_devs);
  return rc;
}

/*--- Running -------------------------------------------------------------*/

static int nprt_attach_signals(nprt_exec *ex) {
  const nprt_options *o = ex->opts;
  for (uint32_t i = 0; i < o->n_signals; ++i) {
    uint32_t id = nprt_graph_find(ex->graph, o->signals[i].inst);
    if (id == UINT32_MAX) {
      fprintf(o->err, "%s: error: --signal: no instance named '%s'\n", o->prog,
              o->signals[i].inst);
      return -1;
    }
    nprt_inst *in = ex->graph->insts[id];
    if (!in->signal) {
      fprintf(o->err,
              "%s: error: --signal: instance '%s' (%s) has no signal "
              "handler\n",
              o->prog, in->name, in->element);
      return -1;
    }
    uint64_t *v = realloc(in->signals, (in->n_signals + 1) * sizeof(*v));
    if (!v)
      return -1;
    v[in->n_signals++] = o->signals[i].value;
    in->signals = v;
  }
  return 0;
}

static int nprt_execute(nprt_exec *ex) {
  nprt_graph *g = ex->graph;
  const nprt_options *o = ex->opts;
  for (uint32_t i = 0; i < g->n_insts; ++i) {
    nprt_inst *in = g->insts[i];
    in->ex = ex;
    for (uint32_t p = 0; p < in->n_in; ++p)
      in->open_inputs += in->in[p].ch != NULL;
    if (nprt_inst_prepare(in) != 0) {
      fprintf(o->err, "%s: error: cannot allocate a stack for '%s'\n", o->prog,
              in->name);
      return NPRT_EXIT_ERROR;
    }
  }
  int rc = nprt_schedule(ex) == 0 ? NPRT_EXIT_OK : NPRT_EXIT_DEADLOCK;
  if (rc == NPRT_EXIT_DEADLOCK) {
    ex->deadlock = true;
    nprt_report_deadlock(ex, o->err);
  }
  /* Whatever is still queued (after a deadlock) is freed and counted. */
  for (uint32_t i = 0; i < g->n_chans; ++i)
    nprt_chan_abandon(g->chans[i], &ex->pool);
  for (uint32_t i = 0; i < g->n_insts; ++i)
    nprt_inst_release(g->insts[i]);
  return rc;
}

int nprt_run(nprt_graph *g, const nprt_options *o) {
  if (g->error[0]) {
    fprintf(o->err, "%s: error: %s\n", o->prog, g->error);
    return NPRT_EXIT_ERROR;
  }
  nprt_exec ex;
  memset(&ex, 0, sizeof(ex));
  ex.graph = g;
  ex.opts = o;
  nprt_pool_init(&ex.pool);
  int rc = NPRT_EXIT_ERROR;
  if (nprt_attach_signals(&ex) == 0 && nprt_open_devices(&ex) == 0) {
    rc = nprt_execute(&ex);
    if (rc == NPRT_EXIT_OK && ex.io_error)
      rc = NPRT_EXIT_ERROR;
    if (nprt_stats_report(&ex) != 0 && rc == NPRT_EXIT_OK)
      rc = NPRT_EXIT_ERROR;
  }
  if (nprt_close_devices(&ex) != 0 && rc == NPRT_EXIT_OK)
    rc = NPRT_EXIT_ERROR;
  nprt_pool_destroy(&ex.pool);
  return rc;
}
