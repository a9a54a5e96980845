/*===- executor.c - single-threaded green-thread executor --------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * The instances' green threads: their stacks, the switches between them
 * and the scheduler's stack, blocking, hand-overs and termination; and the
 * executor's life (set-up, a run, wind-down). Which stack runs next, and
 * when the run ends, is the scheduler's (sched.c).
 *
 * Each instance gets an mmap'd stack with a guard page. The first entry goes
 * through makecontext/setcontext; every later switch is a _setjmp/_longjmp
 * pair, which (unlike swapcontext) does not save the signal mask and so
 * makes no system call.
 *
 * Termination rules (also in docs/runtime.md):
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
 * have not terminated, it is a deadlock, unless a timer-driven source (a
 * source waiting for its timer, NPRT_WAIT_TIMER) still runs: then time
 * moves on to the next deadline (virtual time; --live: a sleep).
 *
 * Stopping (SIGINT/SIGTERM, or an output device that failed): input devices
 * read as ended and instances without connected inputs end at their next
 * iteration, so what is in flight drains through the graph and is written.
 * A second signal abandons the drain (what is queued is counted as drops);
 * a third one kills the process.
 *
 * Under AddressSanitizer every stack switch is announced with
 * __sanitizer_start_switch_fiber / __sanitizer_finish_switch_fiber, else it
 * takes an instance's stack for an overflow of the scheduler's. Under
 * ThreadSanitizer each instance's stack is a fiber of its own
 * (__tsan_create_fiber), entered with __tsan_switch_to_fiber between the
 * _setjmp that saves the side left and the jump: each side's jump buffers
 * then belong to its own fiber, and a switch orders what the two sides do
 * as the one thread runs them.
 *
 *===----------------------------------------------------------------------===*/
#include "runtime/nprt/executor.h"

#include "runtime/nprt/clock.h"
#include "runtime/nprt/profile.h"

#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#ifdef NPRT_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif
#ifdef NPRT_TSAN
#include <sanitizer/tsan_interface.h>
#endif

/* Pushed handlers run as calls on the sender's stack, up to
 * NPRT_MAX_NEST deep: the stacks are larger than one element needs (the
 * memory is reserved, not committed). */
#define NPRT_STACK_BYTES (1024u * 1024u)

/*--- Fiber annotations ---------------------------------------------------*/

/* Leaving an instance's stack for the scheduler's. `fake` saves the
 * instance's fake stack; NULL when the instance ends (ASan frees it). */
static inline void nprt_fiber_leave_inst(nprt_exec *ex, void **fake) {
  NPRT_SIM_DO(ex->sim, npsim_on_stack(ex->sim, NULL, 0, NULL));
#ifdef NPRT_ASAN
  __sanitizer_start_switch_fiber(fake, ex->sched.stack_base,
                                 ex->sched.stack_bytes);
#else
  (void)ex;
  (void)fake;
#endif
}

/* Arrived on an instance's stack; learns the scheduler's stack bounds. */
static inline void nprt_fiber_enter_inst(nprt_exec *ex, void *fake) {
#ifdef NPRT_ASAN
  __sanitizer_finish_switch_fiber(fake, &ex->sched.stack_base,
                                  &ex->sched.stack_bytes);
#else
  (void)ex;
  (void)fake;
#endif
}

/* Leaving the scheduler's stack for instance `in`'s. */
static inline void nprt_fiber_leave_sched(nprt_inst *in, void **fake) {
  NPRT_SIM_DO(in->ex->sim,
              npsim_on_stack(in->ex->sim, in->uc.uc_stack.ss_sp,
                             in->uc.uc_stack.ss_size, in->tsan_fiber));
#ifdef NPRT_ASAN
  __sanitizer_start_switch_fiber(fake, in->uc.uc_stack.ss_sp,
                                 in->uc.uc_stack.ss_size);
#else
  (void)in;
  (void)fake;
#endif
}

/* Back on the scheduler's stack. */
static inline void nprt_fiber_enter_sched(void *fake) {
#ifdef NPRT_ASAN
  __sanitizer_finish_switch_fiber(fake, NULL, NULL);
#else
  (void)fake;
#endif
}

/* ThreadSanitizer: the next jump lands on `in`'s stack, or on the
 * scheduler's (NULL). */
static inline void nprt_tsan_switch(nprt_exec *ex, nprt_inst *in) {
#ifdef NPRT_TSAN
  __tsan_switch_to_fiber(in ? in->tsan_fiber : ex->sched.tsan_fiber, 0);
#else
  (void)ex;
  (void)in;
#endif
}

/*--- Context switching ---------------------------------------------------*/

static void nprt_yield(nprt_inst *self) {
  nprt_prof_leave(&self->ex->prof);
  void *fake = NULL;
  nprt_fiber_leave_inst(self->ex, &fake);
  if (_setjmp(self->jb) == 0) {
    nprt_tsan_switch(self->ex, NULL);
    _longjmp(self->ex->sched.jb, 1);
  }
  nprt_fiber_enter_inst(self->ex, fake);
}

static void nprt_barrier(nprt_inst *self, uint32_t phase) {
  nprt_exec_wait(self, NPRT_WAIT_PHASE, phase, 0);
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
  nprt_fiber_enter_inst(self->ex, NULL);
  if (self->init)
    self->init(self);
  nprt_barrier(self, NPRT_PHASE_SIGNALS);
  for (uint32_t i = 0; i < self->n_signals; ++i)
    self->signal(self, self->signals[i]);
  nprt_barrier(self, NPRT_PHASE_RUN);
  self->batch = 0;
  /* Once per packet of a source: the tests in the order that lets a
   * source through with the fewest (it has no inputs). */
  nprt_exec *ex = self->ex;
  for (;;) {
    if (__builtin_expect(nprt_status_stopping(&ex->status), 0) &&
        !self->relay && !nprt_inst_has_inputs(self))
      nprt_exec_terminate(self);
    if (self->n_in && self->open_inputs == 0 && self->iterations &&
        !self->used_device && nprt_inputs_exhausted(self))
      nprt_exec_terminate(self);
    self->progress = false;
    ++self->iterations;
    nprt_prof_iteration(&ex->prof, self);
    self->handler(self);
    nprt_prof_iteration_end(&ex->prof, self);
    if (!self->progress && self->timer && !nprt_inst_has_inputs(self)) {
      /* A source with a timer that moved nothing has nothing to do until
       * its timer ran: it waits for that instead of polling, which also
       * lets the clock move on to the deadline. */
      nprt_exec_wait(self, NPRT_WAIT_TIMER, 0, (uint64_t)self->timer_deadline);
      continue;
    }
    if (!self->progress || ++self->batch >= NPRT_MAX_BATCH) {
      self->batch = 0;
      nprt_yield(self);
    }
  }
}

static void nprt_trampoline(unsigned lo, unsigned hi) {
  nprt_inst *self = (nprt_inst *)(((uintptr_t)hi << 32) | lo);
  nprt_inst_main(self);
}

static int nprt_inst_prepare(nprt_inst *in, size_t stack) {
  long page = sysconf(_SC_PAGESIZE);
  size_t bytes = stack + (size_t)page;
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
  in->uc.uc_stack.ss_size = stack;
  in->uc.uc_link = NULL;
  uintptr_t self = (uintptr_t)in;
  makecontext(&in->uc, (void (*)(void))nprt_trampoline, 2,
              (unsigned)(self & 0xffffffffu), (unsigned)(self >> 32));
#ifdef NPRT_TSAN
  in->tsan_fiber = __tsan_create_fiber(0);
#endif
  return 0;
}

void nprt_exec_release_stack(nprt_inst *in) {
#ifdef NPRT_ASAN
  /* Frames abandoned on this stack leave poisoned shadow behind; a later
   * mapping at the same address must not inherit it. */
  if (in->stack)
    __asan_unpoison_memory_region(in->stack, in->stack_bytes);
#endif
  if (in->stack)
    munmap(in->stack, in->stack_bytes);
  in->stack = NULL;
#ifdef NPRT_TSAN
  if (in->tsan_fiber)
    __tsan_destroy_fiber(in->tsan_fiber);
#endif
  in->tsan_fiber = NULL;
}

/* Runs `in` until it blocks, yields or terminates. */
void nprt_exec_resume(nprt_exec *ex, nprt_inst *in) {
  nprt_prof_resume(&ex->prof, in);
  in->state = NPRT_READY;
  ex->sched.running = in;
  void *fake = NULL;
  nprt_fiber_leave_sched(in, &fake);
  if (_setjmp(ex->sched.jb) == 0) {
    nprt_tsan_switch(ex, in);
    if (!in->started) {
      in->started = true;
      setcontext(&in->uc);
    }
    _longjmp(in->jb, 1);
  }
  nprt_fiber_enter_sched(fake);
}

void nprt_exec_block(nprt_inst *self) {
  /* An instance that blocks lets others run: its batch starts over. */
  self->batch = 0;
  for (;;) {
    self->state = NPRT_BLOCKED;
    nprt_yield(self);
    if (!self->timer_due || self->in_timer)
      break;
    /* Woken for its timer: run it, then wait on as before. */
    nprt_clock_run_timer(self);
    if (nprt_sched_ready(self->ex, self))
      break;
  }
  self->wait = NPRT_WAIT_NONE;
}

void nprt_exec_wait(nprt_inst *self, nprt_wait_kind kind, uint32_t port,
                    uint64_t arg) {
  /* A pushed handler runs on its sender's stack: that stack waits. */
  nprt_inst *f = self->ex->sched.running;
  f->wait = kind;
  f->wait_on = self;
  f->wait_port = port;
  f->wait_mask = arg;
  f->wait_ticket = arg;
  nprt_exec_block(f);
}

void nprt_exec_handoff(nprt_inst *self, const nprt_chan *c) {
  nprt_exec *ex = self->ex;
  nprt_inst *to = ex->graph->insts[c->dst];
  nprt_inst *f = ex->sched.running;
  if (c->dst_port < 64 && (to->push_ports >> c->dst_port & 1u) &&
      to->state != NPRT_DONE && ex->sched.phase == NPRT_PHASE_RUN &&
      (c->uncounted || f->nest < NPRT_MAX_NEST)) {
    /* Push: the consumer's handler takes the value now, on this stack,
     * even if the consumer is suspended in its own handler (a cycle
     * re-enters it, as Click's push() does). */
    f->nest += !c->uncounted;
    ++to->iterations;
    nprt_prof_call(&ex->prof, to);
    to->handler(to);
    nprt_prof_switch(&ex->prof, self);
    f->nest -= !c->uncounted;
    return;
  }
  /* The value stays in the channel for now. */
  nprt_link_disarm_into(to);
  if (to->state != NPRT_BLOCKED || to->wait_on != to)
    return;
  bool waits = (to->wait == NPRT_WAIT_RECV && to->wait_port == c->dst_port) ||
               (to->wait == NPRT_WAIT_SELECT && c->dst_port < 64 &&
                (to->wait_mask >> c->dst_port & 1u));
  if (!waits)
    return;
  ex->sched.stack[ex->sched.stack_n++] = f;
  ex->sched.next = to;
  nprt_yield(f);
}

void nprt_finish(nprt_inst *self) { nprt_exec_terminate(self); }

void nprt_exec_yield(nprt_inst *self) { nprt_yield(self); }

void nprt_exec_terminate(nprt_inst *self) {
  nprt_exec *ex = self->ex;
  if (self != ex->sched.running) {
    /* pushPortMask admits no handler that can end its instance. */
    fprintf(ex->opts->err,
            "%s: internal error: instance '%s' ended inside a pushed call\n",
            ex->opts->prog, self->name);
    abort();
  }
  for (uint32_t i = 0; i < self->n_out; ++i) {
    nprt_chan *c = self->out[i].ch;
    if (c) {
      nprt_chan_close(c);
      --ex->graph->insts[c->dst]->open_inputs;
    }
  }
  for (uint32_t i = 0; i < self->n_in; ++i) {
    nprt_chan *c = self->in[i].ch;
    if (c) {
      nprt_chan_abandon(c, &ex->pool);
      /* Its producer's fused sends become counted drops. */
      nprt_link_disarm(ex->graph->insts[c->src], c->src_port);
    }
  }
  self->state = NPRT_DONE;
  ++ex->sched.n_done;
  nprt_devices_sender_ended(&ex->devices, self->name);
  nprt_prof_iteration_end(&ex->prof, self);
  nprt_prof_leave(&ex->prof);
  nprt_fiber_leave_inst(ex, NULL);
  nprt_tsan_switch(ex, NULL);
  _longjmp(ex->sched.jb, 1);
}

/*--- Running -------------------------------------------------------------*/

static bool nprt_host_stopping(void *ctx) {
  const nprt_exec *ex = ctx;
  return nprt_status_stopping(&ex->status);
}

static bool nprt_host_interrupted(void *ctx) {
  (void)ctx;
  return nprt_stop_signal != 0;
}

static int64_t nprt_host_clock(void *ctx) {
  const nprt_exec *ex = ctx;
  return ex->clock.started ? ex->clock.now : INT64_MIN;
}

static void nprt_host_failed(void *ctx, bool stop) {
  nprt_exec *ex = ctx;
  nprt_status_failed(&ex->status, stop);
}

void nprt_exec_init(nprt_exec *ex, nprt_graph *g, const nprt_options *opts) {
  memset(ex, 0, sizeof(*ex));
  ex->graph = g;
  ex->opts = opts;
  nprt_clock_init(&ex->clock, opts->live);
  ex->role.reports = true;
  nprt_pool_init(&ex->pool);
  nprt_dev_host host = {.pool = &ex->pool,
                        .opts = opts,
                        .ctx = ex,
                        .stopping = nprt_host_stopping,
                        .interrupted = nprt_host_interrupted,
                        .clock = nprt_host_clock,
                        .failed = nprt_host_failed};
  nprt_devices_init(&ex->devices, &host);
}

void nprt_exec_free(nprt_exec *ex) {
  nprt_devices_free(&ex->devices);
  nprt_pool_destroy(&ex->pool);
}

int nprt_exec_attach_signals(nprt_exec *ex) {
  const nprt_options *o = ex->opts;
  for (uint32_t i = 0; i < o->n_signals; ++i) {
    /* Every copy of the instance (a multicore core's graph may hold two,
     * or none: run_cores.c checks the name against the program). */
    bool found = false;
    for (uint32_t id = 0; id < ex->graph->n_insts; ++id) {
      nprt_inst *in = ex->graph->insts[id];
      if (strcmp(in->name, o->signals[i].inst) != 0)
        continue;
      found = true;
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
    if (!found && !ex->role.part) {
      fprintf(o->err, "%s: error: --signal: no instance named '%s'\n", o->prog,
              o->signals[i].inst);
      return -1;
    }
  }
  return 0;
}

int nprt_exec_schedule(nprt_exec *ex) {
  nprt_graph *g = ex->graph;
  const nprt_options *o = ex->opts;
#ifdef NPRT_TSAN
  ex->sched.tsan_fiber = __tsan_get_current_fiber();
#endif
  for (uint32_t i = 0; i < g->n_insts; ++i) {
    nprt_inst *in = g->insts[i];
    in->ex = ex;
    for (uint32_t p = 0; p < in->n_in; ++p)
      in->open_inputs += in->in[p].ch != NULL;
    if (nprt_inst_prepare(in, o->stack_bytes ? o->stack_bytes
                                             : NPRT_STACK_BYTES) != 0) {
      fprintf(o->err, "%s: error: cannot allocate a stack for '%s'\n", o->prog,
              in->name);
      return NPRT_EXIT_ERROR;
    }
  }
  ex->sched.stack =
      calloc(g->n_insts ? g->n_insts : 1, sizeof(*ex->sched.stack));
  if (!ex->sched.stack) {
    fprintf(o->err, "%s: error: out of memory\n", o->prog);
    return NPRT_EXIT_ERROR;
  }
  if (ex->clock.live) /* the clock and the timers start now */
    nprt_clock_start(ex, nprt_clock_live_now(&ex->clock));
  nprt_prof_start(&ex->prof, g, o->stats || o->stats_json);
  int sched = nprt_sched_run(ex);
  nprt_prof_finish(&ex->prof);
  free(ex->sched.stack);
  ex->sched.stack = NULL;
  int rc = sched == -1 ? NPRT_EXIT_DEADLOCK : NPRT_EXIT_OK;
  if (sched == -1) {
    ex->status.deadlock = true;
    nprt_sched_report_deadlock(ex, o->err);
  }
  nprt_sched_take_signals(ex);
  /* A multicore run says it once, for all cores. */
  if (ex->status.signo && ex->role.reports)
    nprt_exec_report_signal(ex, sched == -2);
  return rc;
}

void nprt_exec_wind_down(nprt_exec *ex) {
  nprt_graph *g = ex->graph;
  /* Packets the instances' state still holds (their queues) are dropped
   * and counted by the instances themselves. */
  for (uint32_t i = 0; i < g->n_insts; ++i)
    if (g->insts[i]->fini)
      g->insts[i]->fini(g->insts[i]);
  /* Whatever is still queued (after a deadlock) is freed and counted. */
  for (uint32_t i = 0; i < g->n_chans; ++i)
    nprt_chan_abandon(g->chans[i], &ex->pool);
  for (uint32_t i = 0; i < g->n_insts; ++i)
    nprt_exec_release_stack(g->insts[i]);
}
