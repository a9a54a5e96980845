/*===- strbuf.h - growable byte strings --------------------------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Handler values, error messages and the control socket's input and
 * output queues are text of unknown length. A failed allocation makes the
 * buffer "failed" instead of aborting: later appends are ignored and the
 * caller reports "out of memory" once, where it can.
 *
 *===----------------------------------------------------------------------===*/
#ifndef NPRT_STRBUF_H
#define NPRT_STRBUF_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct nprt_strbuf {
  char *data; /* NUL-terminated when not NULL */
  size_t len, cap;
  bool failed; /* an allocation failed; the contents are incomplete */
} nprt_strbuf;

void nprt_strbuf_free(nprt_strbuf *b);
void nprt_strbuf_clear(nprt_strbuf *b);
void nprt_strbuf_append(nprt_strbuf *b, const char *s, size_t n);
void nprt_strbuf_puts(nprt_strbuf *b, const char *s);
void nprt_strbuf_printf(nprt_strbuf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Removes the first `n` bytes. */
void nprt_strbuf_consume(nprt_strbuf *b, size_t n);
/* The contents, "" when empty. */
const char *nprt_strbuf_str(const nprt_strbuf *b);

#ifdef __cplusplus
}
#endif

#endif /* NPRT_STRBUF_H */
