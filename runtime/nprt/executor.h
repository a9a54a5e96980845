/*===- executor.h - single-threaded green-thread executor --------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Every instance runs as a green thread on its own stack: init() once, then
 * handler() forever. A port operation that cannot complete records what the
 * instance waits for and switches to the scheduler, which resumes, round
 * robin, instances whose wait is satisfied. See README.md in this directory
 * for the layers and docs/runtime.md for the termination rules and exit
 * codes.
 *
 *===----------------------------------------------------------------------===*/
#ifndef NPRT_EXECUTOR_H
#define NPRT_EXECUTOR_H

#include "runtime/nprt/clock.h"
#include "runtime/nprt/devices.h"
#include "runtime/nprt/graph.h"
#include "runtime/nprt/options.h"
#include "runtime/nprt/pool.h"
#include "runtime/nprt/profile.h"
#include "runtime/nprt/run_status.h"
#include "runtime/nprt/sched.h"

#include <signal.h>
#include <time.h>

/* The executor's place in the run. */
typedef struct nprt_exec_role {
  /* It prints the run's once-per-run messages (a multicore run's core 0,
   * or the only one). */
  bool reports;
  /* Its graph holds part of the program (a core's): --signal names that
   * are not in it are another core's. */
  bool part;
} nprt_exec_role;

/* What the layers above the executor (a multicore run's cores, the
 * control socket) do at its points of rest; every member may be NULL. */
typedef struct nprt_exec_hooks {
  void *ctx;
  /* Between two scheduler rounds, when no instance is in the middle of a
   * stretch of its body (a control client's commands, a core's mailbox). */
  void (*round)(void *ctx);
  /* The run phase begins: init and the signals ran, no packet moved. */
  void (*run_phase)(void *ctx);
  /* While the graph cannot move: waits for something from outside until
   * `timeout` passes (NULL: no limit) or a stop signal comes. Without it
   * the run ends once the graph cannot move. */
  void (*idle)(void *ctx, const struct timespec *timeout);
} nprt_exec_hooks;

struct nprt_exec {
  nprt_graph *graph;
  const nprt_options *opts;
  nprt_pool pool;
  nprt_devices devices; /* the devices by number (devices.h) */
  nprt_exec_hooks hooks;
  nprt_exec_role role;
  nprt_run_status status; /* stop control and exit status (run_status.h) */
  nprt_clock clock;       /* the program's clock and the timers (clock.c) */
  nprt_sched sched;       /* the scheduler (sched.c) */
  nprt_prof prof;         /* profiling (profile.c) */
  /* npsim's context this executor runs as (sim.h); NULL on the host. */
  struct npsim_ctx *sim;
};

/* An executor for `g` with `opts`: its pool, its devices (pcap files
 * until made otherwise), no hooks; it reports the run's messages. */
void nprt_exec_init(nprt_exec *ex, nprt_graph *g, const nprt_options *opts);
/* Frees the devices and the pool (after nprt_exec_wind_down). */
void nprt_exec_free(nprt_exec *ex);
/* Adds --signal values to the instances they name; reports and returns -1
 * if one has no signal handler, or (unless ex->role.part) does not exist. */
int nprt_exec_attach_signals(nprt_exec *ex);
/* Prepares the stacks and runs the scheduler to the end; an
 * NPRT_EXIT_* code. */
int nprt_exec_schedule(nprt_exec *ex);
/* After nprt_exec_schedule (and any report): runs fini, frees what the
 * channels still hold, releases the stacks. */
void nprt_exec_wind_down(nprt_exec *ex);

/* signals.c: says on stderr that ex->status.signo stopped the run (and whether
 * its drain was abandoned). */
void nprt_exec_report_signal(const nprt_exec *ex, bool abandoned);
void nprt_exec_catch_signals(struct sigaction old[3]);
void nprt_exec_restore_signals(const struct sigaction old[3]);
/* Stop signals seen since nprt_exec_catch_signals. */
int nprt_exec_signals_seen(void);

/* Waits on the stack it runs on for self->wait (set by nprt_exec_wait). */
void nprt_exec_block(nprt_inst *self);
/* Called from port operations: `self` waits for `kind` on its port `port`
 * (`arg`: the select mask, or the rendezvous ticket). When `self` runs as
 * a pushed call, the instance whose stack it runs on waits for it. */
void nprt_exec_wait(nprt_inst *self, nprt_wait_kind kind, uint32_t port,
                    uint64_t arg);
/* An input device read a packet stamped `t`: timers that fall due up to
 * `t` run first, in deadline order, then the clock reads `t`. */
void nprt_exec_advance(nprt_inst *self, int64_t t);
/* One step of it: runs the earliest timer due up to `t` and returns true,
 * or, when none is due, sets the clock to `t` and returns false. For a
 * caller that has something to deliver between two timers (a multicore
 * lane-in, what the timer before sent through its own queue). */
bool nprt_exec_advance_one(nprt_inst *self, int64_t t);
/* `self` just put a value into `c`: a consumer of push shape (push_ports)
 * runs its handler now as a call; any other consumer that waits for the
 * value runs now on its own stack, and `self` resumes when it blocks. */
void nprt_exec_handoff(nprt_inst *self, const nprt_chan *c);
_Noreturn void nprt_exec_terminate(nprt_inst *self);
/* ports.c: the next fused send on `port` asks nprt_fused_enter_* again
 * (nprt/link.h): what the link relied on may no longer hold. */
void nprt_link_disarm(nprt_inst *self, uint32_t port);
/* ... and every fused send into `to`: a value waits in one of its input
 * channels, which a call would overtake. */
void nprt_link_disarm_into(nprt_inst *to);
/* Gives the processor back to the scheduler; `self` stays runnable. */
void nprt_exec_yield(nprt_inst *self);
/* Whether no instance but the `n` in `skip` can run: each terminated or
 * waits for what has not come. */
bool nprt_exec_idle_but(const nprt_exec *ex, nprt_inst *const *skip,
                        uint32_t n);

/* For the executor's own files (sched.c, clock.c): runs `in` if it can
 * run (true if it ran), then the instances values were handed to,
 * depth-first. */
bool nprt_exec_step(nprt_exec *ex, nprt_inst *in);
bool nprt_exec_run_handoffs(nprt_exec *ex);
/* executor.c, for sched.c: switches to `in`'s stack until it blocks,
 * yields or terminates; unmaps the stack of an instance that ended. */
void nprt_exec_resume(nprt_exec *ex, nprt_inst *in);
void nprt_exec_release_stack(nprt_inst *in);

#endif /* NPRT_EXECUTOR_H */
