/*===- run_status.h - how a run ends: stop control and exit code --*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * A run's status: whether ingress stopped and why (a stop signal, a failed
 * output, `WRITE stop`, the end of --duration), whether something failed,
 * and the exit code that follows. The executor keeps one (nprt_exec.status);
 * the devices, the handlers, the control relay and the timers set it
 * through these helpers, and a multicore run merges its cores' into one
 * for its report.
 *
 *===----------------------------------------------------------------------===*/
#ifndef NPRT_RUN_STATUS_H
#define NPRT_RUN_STATUS_H

#include <signal.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Exit codes of a run. An error takes precedence over an interruption,
 * which takes precedence over a deadlock found while draining. */
enum {
  NPRT_EXIT_OK = 0,
  NPRT_EXIT_ERROR = 1,
  NPRT_EXIT_DEADLOCK = 3,
  NPRT_EXIT_SIGNAL = 128, /* + the signal number: 130 SIGINT, 143 SIGTERM */
};

/* Set by the SIGINT/SIGTERM handler nprt_run installs (signals.c): the
 * number of the first signal, 0 while none arrived. */
extern volatile sig_atomic_t nprt_stop_signal;

typedef struct nprt_run_status {
  bool io_error; /* a device or a table file failed: exit 1 */
  /* An init could not load a table file (nprt_handler_load): the run ends
   * at the init barrier, before any packet moves. */
  bool init_failed;
  bool deadlock;
  /* Ingress stopped: input devices read as ended and instances without
   * connected inputs end at their next iteration, so the graph drains. Set
   * by a signal (`signo`), a failed output device, the global `stop`
   * handler or the end of --duration. */
  bool stop;
  int signo; /* the stop signal the run saw, 0 if none */
} nprt_run_status;

/* Ingress is to stop: a signal arrived (the scheduler has not seen it yet,
 * or has) or the run was stopped. */
static inline bool nprt_status_stopping(const nprt_run_status *s) {
  return s->stop || nprt_stop_signal != 0;
}

/* Ingress stops as on SIGTERM, but as a normal end of the run (`WRITE
 * stop`, the end of --duration): the exit code stays 0. */
static inline void nprt_status_stop(nprt_run_status *s) { s->stop = true; }

/* A device or a file failed (reported by the caller): exit 1 and, with
 * `stop`, ingress stops. */
static inline void nprt_status_failed(nprt_run_status *s, bool stop) {
  s->io_error = true;
  s->stop |= stop;
}

/* A stop signal that arrived becomes the run's (the first one only), and
 * stops ingress. */
static inline void nprt_status_take_signal(nprt_run_status *s) {
  if (nprt_stop_signal && !s->signo) {
    s->signo = nprt_stop_signal;
    s->stop = true;
  }
}

/* A multicore run's status from its cores': any failure, stop or
 * deadlock, and the first core's signal that saw one. */
static inline void nprt_status_merge(nprt_run_status *into,
                                     const nprt_run_status *from) {
  into->io_error |= from->io_error;
  into->init_failed |= from->init_failed;
  into->deadlock |= from->deadlock;
  into->stop |= from->stop;
  if (!into->signo)
    into->signo = from->signo;
}

/* The run's exit code, from its status and `rc`, what the scheduler
 * returned (NPRT_EXIT_*): an error, else the signal, else `rc`. */
static inline int nprt_status_exit_code(const nprt_run_status *s, int rc) {
  if (s->io_error || rc == NPRT_EXIT_ERROR)
    return NPRT_EXIT_ERROR;
  if (s->signo)
    return NPRT_EXIT_SIGNAL + s->signo;
  return rc;
}

#ifdef __cplusplus
}
#endif

#endif /* NPRT_RUN_STATUS_H */
