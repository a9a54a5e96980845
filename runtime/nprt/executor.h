/*===- executor.h - single-threaded green-thread executor --------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Every instance runs as a green thread on its own stack: init() once, then
 * handler() forever. A port operation that cannot complete records what the
 * instance waits for and switches to the scheduler, which resumes, round
 * robin, instances whose wait is satisfied. See README.md in this directory
 * for the termination rules and exit codes.
 *
 *===----------------------------------------------------------------------===*/
#ifndef NPRT_EXECUTOR_H
#define NPRT_EXECUTOR_H

#include "runtime/nprt/graph.h"
#include "runtime/nprt/options.h"
#include "runtime/nprt/pcap_io.h"
#include "runtime/nprt/pool.h"

#include <signal.h>

/* Exit codes of a run. An error takes precedence over an interruption,
 * which takes precedence over a deadlock found while draining. */
enum {
  NPRT_EXIT_OK = 0,
  NPRT_EXIT_ERROR = 1,
  NPRT_EXIT_DEADLOCK = 3,
  NPRT_EXIT_SIGNAL = 128, /* + the signal number: 130 SIGINT, 143 SIGTERM */
};

/* Set by the SIGINT/SIGTERM handler nprt_run installs: the number of the
 * first signal, 0 while none arrived. */
extern volatile sig_atomic_t nprt_stop_signal;

/* Run phases; instances wait at a barrier between them. */
enum {
  NPRT_PHASE_INIT = 0,    /* init() of every instance */
  NPRT_PHASE_SIGNALS = 1, /* --signal handlers */
  NPRT_PHASE_RUN = 2,     /* handler() loops */
};

/* Handler iterations an instance may run before it yields even though it
 * did not block, so that polling instances cannot starve the others. */
#define NPRT_MAX_BATCH 64u
/* Pushed handler calls one stack may hold; a deeper push leaves the value
 * in its channel for the consumer's own stack (a packet cycling without
 * end would otherwise overflow the stack, as it does Click's). */
#define NPRT_MAX_NEST 64u

struct nprt_control;

/* A charge made in the open profiling window, kept until it closes: a
 * window in which the thread was preempted is dropped. */
typedef struct nprt_prof_entry {
  nprt_inst *inst;
  uint64_t cycles;
  uint64_t iters;
} nprt_prof_entry;
#define NPRT_PROF_LOG 128u

/* One core's utilisation in a multicore run, in nprt_prof_clock units. */
typedef struct nprt_core_prof {
  uint64_t cycles;  /* from the start of its schedule to its end */
  uint64_t wait;    /* spent waiting for other cores */
  uint64_t windows; /* sampled windows */
  uint64_t dropped; /* of which dropped (preempted) */
} nprt_core_prof;

typedef struct nprt_pcie nprt_pcie;

struct nprt_exec {
  nprt_graph *graph;
  const nprt_options *opts;
  nprt_pool pool;
  nprt_pcap_in *in_devs;
  nprt_pcap_out *out_devs;
  uint32_t n_in_devs, n_out_devs;
  uint32_t phase;
  uint32_t n_done;
  bool io_error; /* a device or a table file failed: exit 1 */
  /* --fpga: the PCIe slots to the FPGA's C simulation (pcie.h), or NULL. */
  nprt_pcie *pcie;
  /* An init could not load a table file (nprt_handler_load): the run ends
   * at the init barrier, before any packet moves. */
  bool init_failed;
  bool deadlock;
  /* Ingress stopped: input devices read as ended and instances without
   * connected inputs end at their next iteration, so the graph drains. Set
   * by a signal (`signo`) or a failed output device. */
  bool stop;
  int signo;
  /* The global `stop` handler ended ingress: a normal end of the run. */
  bool stop_requested;
  /* --control: the listening socket and its clients, or NULL. While it is
   * open the run does not end when the graph cannot move; it ends at
   * `stop` or a signal. */
  struct nprt_control *control;
  /* The program's clock (nprt_now), in ns: the time stamp of the last
   * packet read, or a timer's deadline while it runs; with --live the
   * host's clock when it was last read. */
  int64_t now;
  bool clock_started;
  bool has_timers; /* some instance has a timer (set when the clock starts) */
  /* --live: the time of day at the start minus CLOCK_MONOTONIC then, so
   * that live time reads as time of day but never goes back. */
  int64_t live_base;
  /* --duration: the clock reading at which ingress stops (set when the
   * clock starts); INT64_MAX without a limit. */
  int64_t end;
  /* Depth-first order, as in Click's push processing: a send runs a push
   * consumer's handler as a call (nest deep), or switches to a consumer
   * waiting for the value while the sender waits on `stack` and resumes
   * when its consumers block again; each packet goes down its whole path
   * before the next one enters. The depth of the calls is the `nest` of
   * the instance whose stack holds them. */
  nprt_inst *running; /* whose stack the processor is on (not the
                       * scheduler's) */
  nprt_inst *next;    /* to run next, or NULL */
  /* The core this executor runs in a multicore run (cores.c); NULL on one
   * core. */
  struct nprt_core *core;
  /* The control thread's view of a multicore run (cores.c): its own
   * handlers' calls go to the copies on the cores; NULL otherwise. */
  struct nprt_multi *multi;
  /* Profiling (--stats, --stats-json; profile.h). */
  bool prof;               /* measuring */
  bool prof_window;        /* a sampled window is open */
  nprt_inst *prof_owner;   /* whose handler iteration opened it */
  nprt_inst *prof_cur;     /* charged now; NULL: the scheduler */
  uint64_t prof_t;         /* the clock when prof_cur was last charged */
  uint32_t prof_countdown; /* iterations until the next window */
  uint64_t prof_windows;
  uint64_t prof_dropped; /* windows dropped: the thread was preempted */
  long prof_preempted;   /* involuntary context switches at the opening */
  nprt_prof_entry prof_log[NPRT_PROF_LOG];
  uint32_t prof_log_n;
  /* The clock when the schedule started and ended, and the time spent
   * waiting for other cores (spinning or yielding the CPU). */
  uint64_t prof_start, prof_end, prof_wait;
  /* A multicore run's summary: each core's schedule time, wait and
   * windows (NULL on one core: the fields above). */
  const struct nprt_core_prof *core_prof;
  uint32_t n_core_prof;
  nprt_inst **stack; /* senders that handed a value over, innermost last */
  uint32_t stack_n;
  jmp_buf sched_jb;
#ifdef NPRT_ASAN
  const void *sched_stack; /* the scheduler's stack, for fiber switches */
  size_t sched_stack_bytes;
#endif
#ifdef NPRT_TSAN
  void *tsan_sched; /* the scheduler's fiber: the thread's own */
#endif
};

/* Runs `g` to completion with `opts` (devices, signals, stats). Prints only
 * to opts->out / opts->err. Returns an NPRT_EXIT_* code. */
int nprt_run(nprt_graph *g, const nprt_options *opts);

/* The steps of nprt_run, for the multicore runner (cores.c). */
int nprt_exec_check_output_paths(const nprt_options *o);
int nprt_exec_attach_signals(nprt_exec *ex);
/* --control: opens the socket into ex->control; reports and returns -1 on
 * failure. */
int nprt_exec_open_control(nprt_exec *ex);
/* Opens the --in files into ex->in_devs, and with `outputs` the --out
 * files into ex->out_devs; reports and returns -1 on failure. */
int nprt_exec_open_devices(nprt_exec *ex, bool outputs);
int nprt_exec_close_devices(nprt_exec *ex);
/* Prepares the stacks and runs the scheduler to the end; an
 * NPRT_EXIT_* code. */
int nprt_exec_schedule(nprt_exec *ex);
/* After nprt_exec_schedule (and any report): runs fini, frees what the
 * channels still hold, releases the stacks. */
void nprt_exec_wind_down(nprt_exec *ex);
/* Says on stderr that ex->signo stopped the run (and whether its drain was
 * abandoned). */
void nprt_exec_report_signal(const nprt_exec *ex, bool abandoned);
void nprt_exec_catch_signals(struct sigaction old[3]);
void nprt_exec_restore_signals(const struct sigaction old[3]);
/* A multicore run: `cores` workers, `mapping` NPRT_MAPPING_*. */
int nprt_run_cores(const nprt_program *program, const nprt_options *opts,
                   uint32_t cores, uint32_t mapping);
/* Whether this core prints the run's one-per-run messages (core 0). */
bool nprt_core_reports(const struct nprt_core *core);

/* Ingress is to stop: a signal arrived (the scheduler has not seen it yet,
 * or has) or an output failed. */
static inline bool nprt_exec_stopping(const nprt_exec *ex) {
  return ex->stop || nprt_stop_signal != 0;
}

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
/* --live: the host's clock, in ns since the epoch (monotonic). */
int64_t nprt_exec_live_now(const nprt_exec *ex);
/* `self` just put a value into `c`: a consumer of push shape (push_ports)
 * runs its handler now as a call; any other consumer that waits for the
 * value runs now on its own stack, and `self` resumes when it blocks. */
void nprt_exec_handoff(nprt_inst *self, const nprt_chan *c);
_Noreturn void nprt_exec_terminate(nprt_inst *self);
/* Gives the processor back to the scheduler; `self` stays runnable. */
void nprt_exec_yield(nprt_inst *self);
/* Whether no instance but the `n` in `skip` can run: each terminated or
 * waits for what has not come. */
bool nprt_exec_idle_but(const nprt_exec *ex, nprt_inst *const *skip,
                        uint32_t n);
/* Reports the first failed write of output device `d` and stops ingress. */
void nprt_exec_output_failed(nprt_exec *ex, const nprt_pcap_out *d);
/* Device state for `dev`, growing the tables; NULL past NPRT_MAX_DEVICES. */
nprt_pcap_in *nprt_exec_in_dev(nprt_exec *ex, uint32_t dev);
nprt_pcap_out *nprt_exec_out_dev(nprt_exec *ex, uint32_t dev);

#endif /* NPRT_EXECUTOR_H */
