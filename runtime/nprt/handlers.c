/*===- handlers.c - read and write handlers by name ---------------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Lookup order within an element: its own handlers first, so an element
 * that defines `name` (say) shadows the generic one. A read and a write
 * handler may share a name (two table entries); the name is then both
 * readable and writable, as Click's `rw` handlers are.
 *
 *===----------------------------------------------------------------------===*/
#include "runtime/nprt/handlers.h"

#include "runtime/nprt/value_text.h"

#include "nprt/version.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

static bool nprt_name_is(const char *s, size_t len, const char *lit) {
  return strlen(lit) == len && memcmp(s, lit, len) == 0;
}

/* The generic handlers of every element, in the order `handlers` lists
 * them, and the global ones. */
static const struct {
  const char *name;
  nprt_handler_kind kind;
} nprt_generic[] = {{"name", NPRT_HANDLER_NAME},
                    {"class", NPRT_HANDLER_CLASS},
                    {"handlers", NPRT_HANDLER_HANDLERS}},
  nprt_global[] = {{"version", NPRT_HANDLER_VERSION},
                   {"list", NPRT_HANDLER_LIST},
                   {"classes", NPRT_HANDLER_CLASSES},
                   {"handlers", NPRT_HANDLER_HANDLERS},
                   {"stop", NPRT_HANDLER_STOP}};

#define NPRT_COUNT(a) (sizeof(a) / sizeof(*(a)))

/* The own handlers of `inst` called `name`, read and write. */
static bool nprt_find_own(const nprt_inst *inst, const char *name, size_t len,
                          const nprt_handler_desc **read,
                          const nprt_handler_desc **write) {
  *read = *write = NULL;
  for (uint32_t i = 0; i < inst->n_handlers; ++i) {
    const nprt_handler_desc *d = &inst->handlers[i];
    if (!d->name || !nprt_name_is(name, len, d->name))
      continue;
    if (d->write && !*write)
      *write = d;
    else if (!d->write && !*read)
      *read = d;
  }
  return *read || *write;
}

bool nprt_handler_find(nprt_inst *inst, const char *name, size_t len,
                       nprt_handler *h) {
  memset(h, 0, sizeof(*h));
  h->inst = inst;
  if (!inst) {
    for (size_t i = 0; i < NPRT_COUNT(nprt_global); ++i)
      if (nprt_name_is(name, len, nprt_global[i].name)) {
        h->kind = nprt_global[i].kind;
        return true;
      }
    return false;
  }
  if (nprt_find_own(inst, name, len, &h->read, &h->write)) {
    h->kind = NPRT_HANDLER_OWN;
    return true;
  }
  for (size_t i = 0; i < NPRT_COUNT(nprt_generic); ++i)
    if (nprt_name_is(name, len, nprt_generic[i].name)) {
      h->kind = nprt_generic[i].kind;
      return true;
    }
  return false;
}

bool nprt_handler_readable(const nprt_handler *h) {
  return h->kind == NPRT_HANDLER_OWN ? h->read != NULL
                                     : h->kind != NPRT_HANDLER_STOP;
}

bool nprt_handler_writable(const nprt_handler *h) {
  return h->kind == NPRT_HANDLER_OWN ? h->write != NULL
                                     : h->kind == NPRT_HANDLER_STOP;
}

/* Click's format: one `name\tr`, `name\tw` or `name\trw` line each. */
static void nprt_list_handlers(const nprt_inst *inst, nprt_strbuf *out) {
  if (!inst) {
    for (size_t i = 0; i < NPRT_COUNT(nprt_global); ++i)
      nprt_strbuf_printf(out, "%s\t%s\n", nprt_global[i].name,
                         nprt_global[i].kind == NPRT_HANDLER_STOP ? "w" : "r");
    return;
  }
  const nprt_handler_desc *r, *w;
  for (size_t i = 0; i < NPRT_COUNT(nprt_generic); ++i) {
    const char *name = nprt_generic[i].name;
    if (!nprt_find_own(inst, name, strlen(name), &r, &w))
      nprt_strbuf_printf(out, "%s\tr\n", name);
  }
  for (uint32_t i = 0; i < inst->n_handlers; ++i) {
    const char *name = inst->handlers[i].name;
    if (!name)
      continue;
    /* A name listed once, at its first entry. */
    nprt_find_own(inst, name, strlen(name), &r, &w);
    if (&inst->handlers[i] != (r && (!w || r < w) ? r : w))
      continue;
    nprt_strbuf_printf(out, "%s\t%s%s\n", name, r ? "r" : "", w ? "w" : "");
  }
}

/* Reads `h` of graph `g`, an instance's own handler through `relay` if it
 * relays them (nprt_handler_ctx.read_handler). */
static void nprt_handler_read_in(const nprt_graph *g,
                                 const nprt_handler_ctx *relay,
                                 const nprt_handler *h, nprt_strbuf *out) {
  nprt_inst *in = h->inst;
  switch (h->kind) {
  case NPRT_HANDLER_OWN:
    in->handler_result = 0;
    if (relay && relay->read_handler)
      in->handler_result = relay->read_handler(
          relay->ctx, in->id, (uint32_t)(h->read - in->handlers));
    else if (h->read->fn)
      h->read->fn(in);
    nprt_value_format(h->read->result, in->handler_result, out);
    return;
  case NPRT_HANDLER_NAME:
    nprt_strbuf_puts(out, in->name);
    return;
  case NPRT_HANDLER_CLASS:
    nprt_strbuf_puts(out, in->element);
    return;
  case NPRT_HANDLER_HANDLERS:
    nprt_list_handlers(in, out);
    return;
  case NPRT_HANDLER_VERSION:
    nprt_strbuf_puts(out, NPCC_VERSION_STRING);
    return;
  case NPRT_HANDLER_LIST:
    nprt_strbuf_printf(out, "%u\n", g->n_insts);
    for (uint32_t i = 0; i < g->n_insts; ++i)
      nprt_strbuf_printf(out, "%s\n", g->insts[i]->name);
    return;
  case NPRT_HANDLER_CLASSES:
    /* Each element once, in the order of its first instance. */
    for (uint32_t i = 0; i < g->n_insts; ++i) {
      uint32_t k = 0;
      while (k < i && strcmp(g->insts[k]->element, g->insts[i]->element) != 0)
        ++k;
      if (k == i)
        nprt_strbuf_printf(out, "%s\n", g->insts[i]->element);
    }
    return;
  case NPRT_HANDLER_STOP:
    return;
  }
}

static void nprt_handler_stop_exec(void *ctx) {
  nprt_exec *ex = ctx;
  nprt_status_stop(&ex->status);
}

void nprt_handler_ctx_exec(nprt_handler_ctx *hc, nprt_exec *ex) {
  *hc = (nprt_handler_ctx){
      .graph = ex->graph, .ctx = ex, .stop = nprt_handler_stop_exec};
}

void nprt_handler_read(const nprt_handler_ctx *hc, const nprt_handler *h,
                       nprt_strbuf *out) {
  nprt_handler_read_in(hc->graph, hc, h, out);
}

int nprt_handler_write(nprt_handler_ctx *hc, const nprt_handler *h,
                       const char *name, const char *text, size_t len,
                       nprt_strbuf *err) {
  static const nprt_handler_desc no_args = {"stop", true, NULL, 0,
                                            0,      NULL, NULL};
  uint64_t args[NPRT_MAX_HANDLER_ARGS];
  const nprt_handler_desc *d =
      h->kind == NPRT_HANDLER_OWN ? h->write : &no_args;
  if (nprt_args_parse(d, name, text, len, args, err) != 0)
    return -1;
  if (h->kind == NPRT_HANDLER_STOP) {
    /* Ends ingress as SIGTERM would, but as a normal end of the run: the
     * graph drains, every instance finishes, the exit code stays 0. */
    hc->stopped = true;
    if (hc->stop)
      hc->stop(hc->ctx);
    return 0;
  }
  if (hc->write_handler) {
    /* Where the instance runs (a multicore run's copies on the cores). */
    hc->write_handler(hc->ctx, h->inst->id, (uint32_t)(d - h->inst->handlers),
                      args);
    return 0;
  }
  memcpy(h->inst->handler_args, args, sizeof(args));
  if (d->fn)
    d->fn(h->inst);
  return 0;
}

/*--- -h ------------------------------------------------------------------*/

/* One handler of one instance (or a global one) for `-h`. */
static void nprt_report_one(const nprt_graph *g, const char *prog,
                            nprt_inst *inst, const char *hname, bool print_name,
                            nprt_strbuf *out, nprt_strbuf *err) {
  const char *ename = inst ? inst->name : "";
  const char *dot = inst ? "." : "";
  nprt_handler h;
  if (!nprt_handler_find(inst, hname, strlen(hname), &h)) {
    nprt_strbuf_printf(err, "%s: error: no '%s%s%s' handler\n", prog, ename,
                       dot, hname);
    return;
  }
  if (!nprt_handler_readable(&h)) {
    nprt_strbuf_printf(err, "%s: error: '%s%s%s' is a write handler\n", prog,
                       ename, dot, hname);
    return;
  }
  if (print_name)
    nprt_strbuf_printf(out, "%s%s%s:\n", ename, dot, hname);
  size_t start = out->len;
  nprt_handler_read_in(g, NULL, &h, out);
  if (out->len > start && out->data[out->len - 1] != '\n')
    nprt_strbuf_puts(out, "\n");
  if (print_name)
    nprt_strbuf_puts(out, "\n");
}

static void nprt_report_name(const nprt_graph *g, const char *prog,
                             const char *full, bool print_names,
                             nprt_strbuf *out, nprt_strbuf *err) {
  const char *dot = strchr(full, '.');
  if (!dot) {
    nprt_report_one(g, prog, NULL, full, print_names, out, err);
    return;
  }
  size_t elen = (size_t)(dot - full);
  for (uint32_t i = 0; i < g->n_insts; ++i)
    if (nprt_name_is(full, elen, g->insts[i]->name)) {
      nprt_report_one(g, prog, g->insts[i], dot + 1, print_names, out, err);
      return;
    }
  /* Not an instance: a glob pattern over instance names, or an element
   * (class) name; either reads every match that has the handler. */
  char *pattern = malloc(elen + 1);
  if (!pattern) {
    nprt_strbuf_printf(err, "%s: error: out of memory\n", prog);
    return;
  }
  memcpy(pattern, full, elen);
  pattern[elen] = 0;
  bool is_pattern = strpbrk(pattern, "*?[") != NULL, any = false;
  for (uint32_t i = 0; i < g->n_insts; ++i) {
    nprt_inst *in = g->insts[i];
    if (is_pattern ? fnmatch(pattern, in->name, 0) != 0
                   : strcmp(pattern, in->element) != 0)
      continue;
    any = true;
    nprt_handler h;
    if (nprt_handler_find(in, dot + 1, strlen(dot + 1), &h) &&
        nprt_handler_readable(&h))
      nprt_report_one(g, prog, in, dot + 1, true, out, err);
  }
  if (!any)
    nprt_strbuf_printf(err, "%s: error: no element %s'%s'\n", prog,
                       is_pattern ? "matching " : "", pattern);
  free(pattern);
}

void nprt_handler_report_collect(const nprt_graph *g, const nprt_options *o,
                                 nprt_handler_report *r) {
  memset(r, 0, sizeof(*r));
  if (!o->n_handlers)
    return;
  r->out = calloc(o->n_handlers, sizeof(*r->out));
  r->err = calloc(o->n_handlers, sizeof(*r->err));
  if (!r->out || !r->err) {
    r->failed = true;
    return;
  }
  r->n = o->n_handlers;
  for (uint32_t i = 0; i < r->n; ++i)
    nprt_report_name(g, o->prog, o->handlers[i], r->n > 1, &r->out[i],
                     &r->err[i]);
}

int nprt_handler_report_print(const nprt_handler_report *r,
                              const nprt_options *o) {
  int rc = r->failed ? -1 : 0;
  if (r->failed && !r->n)
    fprintf(o->err, "%s: error: out of memory for the -h values\n", o->prog);
  for (uint32_t i = 0; i < r->n; ++i) {
    fwrite(nprt_strbuf_str(&r->out[i]), 1, r->out[i].len, o->out);
    if (r->out[i].failed || r->err[i].failed) {
      fprintf(o->err, "%s: error: out of memory for the -h values\n", o->prog);
      rc = -1;
    }
    if (r->err[i].len) {
      /* Errors between the values, as Click's driver reports them. */
      fflush(o->out);
      fputs(nprt_strbuf_str(&r->err[i]), o->err);
      rc = -1;
    }
  }
  errno = 0;
  if (r->n && (fflush(o->out) != 0 || ferror(o->out))) {
    fprintf(o->err, "%s: error: cannot write the handler values: %s\n", o->prog,
            strerror(errno ? errno : EIO));
    rc = -1;
  }
  return rc;
}

void nprt_handler_report_free(nprt_handler_report *r) {
  for (uint32_t i = 0; i < r->n; ++i) {
    nprt_strbuf_free(&r->out[i]);
    nprt_strbuf_free(&r->err[i]);
  }
  free(r->out);
  free(r->err);
  memset(r, 0, sizeof(*r));
}
