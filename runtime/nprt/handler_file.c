/*===- handler_file.c - a write handler run once per line of a file *- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * NPL's `load(path, handler)` in init fills state (typically a table) from
 * a text file: each line is the argument text of the write handler, parsed
 * exactly as `WRITE` on the control socket parses it (value_text.c), so a
 * route file reads as the handler's arguments do on the command line.
 *
 * A file that cannot be read, or a line that does not parse, is reported
 * as `path:line: error: ...` and fails the run: the executor ends it at the
 * init barrier, before any packet moves, with exit code 1. The rest of that
 * file is not read; other instances still run their init, so every file
 * that fails is reported.
 *
 *===----------------------------------------------------------------------===*/
#include "runtime/nprt/executor.h"
#include "runtime/nprt/strbuf.h"
#include "runtime/nprt/value_text.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The write handler of `self` called `name`, or NULL. */
static const nprt_handler_desc *nprt_write_handler(const nprt_inst *self,
                                                   const char *name) {
  for (uint32_t i = 0; i < self->n_handlers; ++i) {
    const nprt_handler_desc *d = &self->handlers[i];
    if (d->write && d->name && strcmp(d->name, name) == 0)
      return d;
  }
  return NULL;
}

static bool nprt_blank(const char *s, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n' &&
        s[i] != '\v' && s[i] != '\f')
      return false;
  return true;
}

static void nprt_load_failed(nprt_inst *self) {
  self->ex->status.init_failed = true;
  nprt_status_failed(&self->ex->status, false);
}

/* Runs `d` on `self` once per line of `f` (`path` in messages); false
 * after reporting the first line that does not parse or cannot be read. */
static bool nprt_load_lines(nprt_inst *self, const nprt_handler_desc *d,
                            FILE *f, const char *path) {
  FILE *err = self->ex->opts->err;
  nprt_strbuf name = {0}, msg = {0};
  nprt_strbuf_printf(&name, "%s.%s", self->name, d->name);
  char *line = NULL;
  size_t cap = 0;
  uint64_t args[NPRT_MAX_HANDLER_ARGS];
  bool ok = true;
  ssize_t got;
  uint64_t lineno = 0;
  errno = 0;
  while ((got = getline(&line, &cap, f)) >= 0) {
    ++lineno;
    size_t len = (size_t)got;
    /* A comment runs to the end of the line; no value contains '#'. */
    const char *hash = memchr(line, '#', len);
    if (hash)
      len = (size_t)(hash - line);
    if (nprt_blank(line, len))
      continue;
    nprt_strbuf_clear(&msg);
    if (name.failed ||
        nprt_args_parse(d, nprt_strbuf_str(&name), line, len, args, &msg)) {
      fprintf(err, "%s:%llu: error: %s\n", path, (unsigned long long)lineno,
              name.failed || msg.failed ? "out of memory"
                                        : nprt_strbuf_str(&msg));
      ok = false;
      break;
    }
    memcpy(self->handler_args, args, sizeof(args));
    if (d->fn)
      d->fn(self);
    errno = 0;
  }
  /* getline fails at the end of the file and on a read error. */
  if (ok && ferror(f)) {
    int e = errno ? errno : EIO;
    if (lineno)
      fprintf(err, "%s:%llu: error: cannot read: %s\n", path,
              (unsigned long long)lineno + 1, strerror(e));
    else /* a directory */
      fprintf(err, "%s: error: cannot read: %s\n", path, strerror(e));
    ok = false;
  }
  free(line);
  nprt_strbuf_free(&name);
  nprt_strbuf_free(&msg);
  return ok;
}

void nprt_handler_load(nprt_inst *self, const char *handler, const char *path) {
  FILE *err = self->ex->opts->err;
  const nprt_handler_desc *d = nprt_write_handler(self, handler);
  if (!d) {
    /* npcc checks this; a hand-written program may not. */
    fprintf(err, "%s: error: instance '%s' (%s) has no write handler '%s'\n",
            path, self->name, self->element, handler);
    nprt_load_failed(self);
    return;
  }
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(err, "%s: error: cannot open: %s\n", path, strerror(errno));
    nprt_load_failed(self);
    return;
  }
  /* The handler's arguments live in the instance; whatever ran before
   * keeps its own. */
  uint64_t saved[NPRT_MAX_HANDLER_ARGS];
  memcpy(saved, self->handler_args, sizeof(saved));
  bool ok = nprt_load_lines(self, d, f, path);
  fclose(f);
  memcpy(self->handler_args, saved, sizeof(saved));
  if (!ok)
    nprt_load_failed(self);
}
