/*===- signals.c - SIGINT and SIGTERM stop a run -------------------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * The first stop signal stops ingress (the graph drains), the second
 * abandons the drain, the third kills the process (executor.h).
 *
 *===----------------------------------------------------------------------===*/
#include "runtime/nprt/executor.h"

#include <stdio.h>
#include <string.h>

volatile sig_atomic_t nprt_stop_signal;
static volatile sig_atomic_t nprt_signals_seen;

int nprt_exec_signals_seen(void) { return nprt_signals_seen; }

void nprt_exec_report_signal(const nprt_exec *ex, bool abandoned) {
  const nprt_options *o = ex->opts;
  fprintf(o->err, "%s: %s: %s\n", o->prog,
          ex->status.signo == SIGINT    ? "interrupted (SIGINT)"
          : ex->status.signo == SIGTERM ? "terminated (SIGTERM)"
                                        : "stopped by a signal",
          abandoned ? "drain abandoned, queued packets counted as drops"
                    : "input stopped, packets in flight drained");
}

static void nprt_on_stop_signal(int sig) {
  if (!nprt_stop_signal)
    nprt_stop_signal = sig;
  if (++nprt_signals_seen >= 2) {
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
  }
}

/* Installs the stop handler for SIGINT and SIGTERM, unless the signal was
 * ignored when the program started (as `nohup` and background jobs of
 * non-interactive shells arrange). No SA_RESTART: a read blocked on a FIFO
 * returns, and the input counts as ended. */
void nprt_exec_catch_signals(struct sigaction old[3]) {
  static const int sigs[2] = {SIGINT, SIGTERM};
  nprt_stop_signal = 0;
  nprt_signals_seen = 0;
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = nprt_on_stop_signal;
  sigemptyset(&sa.sa_mask);
  for (int i = 0; i < 2; ++i) {
    sigaction(sigs[i], NULL, &old[i]);
    if (old[i].sa_handler != SIG_IGN)
      sigaction(sigs[i], &sa, NULL);
  }
  /* A write past the file size limit (ulimit -f) fails with EFBIG and is
   * reported like a full disk, instead of killing the run unreported. */
  struct sigaction ign;
  memset(&ign, 0, sizeof(ign));
  ign.sa_handler = SIG_IGN;
  sigemptyset(&ign.sa_mask);
  sigaction(SIGXFSZ, &ign, &old[2]);
}

void nprt_exec_restore_signals(const struct sigaction old[3]) {
  sigaction(SIGINT, &old[0], NULL);
  sigaction(SIGTERM, &old[1], NULL);
  sigaction(SIGXFSZ, &old[2], NULL);
}
