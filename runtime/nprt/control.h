/*===- control.h - Click's ControlSocket protocol, single-threaded -*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * `--control PORT` (TCP on 127.0.0.1) or `--control unix:PATH` opens a
 * listening socket before the run. Clients speak Click's ControlSocket
 * text protocol (version 1.3): READ/GET, WRITE/SET, CHECKREAD, CHECKWRITE,
 * QUIT/CLOSE and HELP, with Click's response codes.
 *
 * There is no thread: every socket is non-blocking and the scheduler
 * services them between rounds (nprt_control_tick, at most once a
 * millisecond, so the packet path pays one branch per round without
 * --control and one clock read per round with it), and blocks in poll()
 * on them once the graph cannot move (nprt_control_wait). Handlers thus
 * run between activations, on the scheduler's stack. A multicore run
 * serves them from the thread that started the cores, which hands each
 * handler call to the cores (core_control.c).
 *
 *===----------------------------------------------------------------------===*/
#ifndef NPRT_CONTROL_H
#define NPRT_CONTROL_H

#include "runtime/nprt/executor.h"
#include "runtime/nprt/handlers.h"
#include "runtime/nprt/strbuf.h"

#include <time.h>

typedef struct nprt_control nprt_control;

/* Listens on `spec` ("PORT" or "unix:PATH", checked by the option
 * parser). NULL with one line in `err` (no newline) on failure. */
nprt_control *nprt_control_open(const char *spec, nprt_strbuf *err);
/* Sends what is still queued for the clients (without waiting), closes
 * every socket and removes the Unix socket file. NULL is ignored. */
void nprt_control_close(nprt_control *c);
/* While the graph runs: accepts clients and runs their complete commands
 * (on `hc`) if a millisecond passed since the last time. Never blocks. */
void nprt_control_tick(nprt_control *c, nprt_handler_ctx *hc);
/* While the graph cannot move: blocks until a client did something, a
 * SIGINT/SIGTERM arrived or `timeout` passed (NULL: no timeout; --live
 * sets the next timer's), then serves the clients. */
void nprt_control_wait(nprt_control *c, nprt_handler_ctx *hc,
                       const struct timespec *timeout);

/* `ex`'s scheduler serves the clients between rounds and waits on them
 * while the graph cannot move (its hooks), the handlers on its own graph:
 * the run then ends only at `stop` or a signal. */
void nprt_control_serve(nprt_control *c, nprt_exec *ex);

/* The greeting a client gets on connecting. */
#define NPRT_CONTROL_GREETING "Click::ControlSocket/1.3\r\n"

/* Runs one command line (`len` bytes, its line ending removed) and
 * appends the response to `out` (control_proto.c). Sets *quit after
 * QUIT/CLOSE: the connection closes once `out` is sent. */
void nprt_control_command(nprt_handler_ctx *hc, const char *line, size_t len,
                          nprt_strbuf *out, bool *quit);

#endif /* NPRT_CONTROL_H */
