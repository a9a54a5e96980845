/*===- handlers.h - read and write handlers by name ---------------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Click's handlers: named values of an element that can be read (a read
 * handler) or set (a write handler) while the program runs, from `-h` and
 * the control socket. An element's own handlers come from its
 * nprt_handler_desc table; every element also has the read handlers
 * `name`, `class` and `handlers`, and the program has the global handlers
 * `version`, `list`, `classes`, `handlers` (read) and `stop` (write).
 *
 * Handlers run on the scheduler's stack between activations: every
 * instance is then either not started, parked in a port operation, or
 * finished, never in the middle of a stretch of its body. They must not
 * block (nprt/abi.def).
 *
 *===----------------------------------------------------------------------===*/
#ifndef NPRT_HANDLERS_H
#define NPRT_HANDLERS_H

#include "runtime/nprt/executor.h"
#include "runtime/nprt/strbuf.h"

typedef enum nprt_handler_kind {
  NPRT_HANDLER_OWN,      /* the element's own: `read` and/or `write` */
  NPRT_HANDLER_NAME,     /* every element: its instance name */
  NPRT_HANDLER_CLASS,    /* every element: its element (class) */
  NPRT_HANDLER_HANDLERS, /* every element, and global: the handler list */
  NPRT_HANDLER_VERSION,  /* global: the npcc version */
  NPRT_HANDLER_LIST,     /* global: the number of instances, then names */
  NPRT_HANDLER_CLASSES,  /* global: the elements the program uses */
  NPRT_HANDLER_STOP,     /* global write: end the run */
} nprt_handler_kind;

/* A handler found by name: of instance `inst`, or global (`inst` NULL). */
typedef struct nprt_handler {
  nprt_inst *inst;
  nprt_handler_kind kind;
  const nprt_handler_desc *read, *write; /* NPRT_HANDLER_OWN only */
} nprt_handler;

/* What handlers run on: a graph, and where its calls go. A run on one
 * core calls its graph's own instances and stops its executor
 * (nprt_handler_ctx_exec); a multicore run's control thread holds the
 * program's graph and relays each call to the cores' copies
 * (run_cores.c), no executor behind it. */
typedef struct nprt_handler_ctx {
  nprt_graph *graph;
  void *ctx;
  /* Relay an instance's own write (read) handler, index `handler` of
   * program instance `inst`, to where it runs; NULL: call the graph's
   * instance itself. */
  void (*write_handler)(void *ctx, uint32_t inst, uint32_t handler,
                        const uint64_t *args);
  uint64_t (*read_handler)(void *ctx, uint32_t inst, uint32_t handler);
  /* `WRITE stop`: ingress ends as on SIGTERM, a normal end of the run.
   * May be NULL. */
  void (*stop)(void *ctx);
  bool stopped; /* `WRITE stop` ran */
} nprt_handler_ctx;

/* Handlers on `ex`'s own graph; `WRITE stop` stops `ex`. */
void nprt_handler_ctx_exec(nprt_handler_ctx *hc, nprt_exec *ex);

/* The handler called `name` (`len` bytes) of `inst` (NULL: a global one);
 * false if there is none. */
bool nprt_handler_find(nprt_inst *inst, const char *name, size_t len,
                       nprt_handler *h);
bool nprt_handler_readable(const nprt_handler *h);
bool nprt_handler_writable(const nprt_handler *h);

/* Calls a readable handler and appends its value as text. Values of the
 * element's own handlers have no trailing newline; lists end every line
 * with one. */
void nprt_handler_read(const nprt_handler_ctx *hc, const nprt_handler *h,
                       nprt_strbuf *out);
/* Parses `text` for a writable handler (`name` as the user wrote it, for
 * messages) and calls it. Returns 0, or -1 with a one-line message in
 * `err`. */
int nprt_handler_write(nprt_handler_ctx *hc, const nprt_handler *h,
                       const char *name, const char *text, size_t len,
                       nprt_strbuf *err);

/* What `-h` prints, collected while the graph is still as the run left it
 * (before fini) and printed after the statistics. Entry i holds the
 * output and the error lines of the i-th `-h`. */
typedef struct nprt_handler_report {
  nprt_strbuf *out, *err;
  uint32_t n;
  bool failed; /* some handler could not be read */
} nprt_handler_report;

/* Reads the handlers of `o->handlers` on graph `g` (after its run: its
 * instances hold the state to report) as Click's driver does:
 * ELEMENT.HANDLER names an instance, or every instance whose name matches
 * a glob pattern (* ? [) or whose element is ELEMENT; HANDLER alone is a
 * global handler. With one `-h` the value is printed alone; with several,
 * or with a pattern, each value comes as `NAME:\nVALUE\n\n`. */
void nprt_handler_report_collect(const nprt_graph *g, const nprt_options *o,
                                 nprt_handler_report *r);
/* Prints the report to opts->out and opts->err; -1 if a handler failed or
 * stdout could not be written (reported). */
int nprt_handler_report_print(const nprt_handler_report *r,
                              const nprt_options *o);
void nprt_handler_report_free(nprt_handler_report *r);

#endif /* NPRT_HANDLERS_H */
