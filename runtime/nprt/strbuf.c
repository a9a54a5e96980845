/*===- strbuf.c - growable byte strings --------------------------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 *===----------------------------------------------------------------------===*/
#include "runtime/nprt/strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void nprt_strbuf_free(nprt_strbuf *b) {
  free(b->data);
  memset(b, 0, sizeof(*b));
}

void nprt_strbuf_clear(nprt_strbuf *b) {
  b->len = 0;
  if (b->data)
    b->data[0] = 0;
}

/* Room for `n` more bytes and the terminator; false once failed. */
static bool nprt_strbuf_reserve(nprt_strbuf *b, size_t n) {
  if (b->failed)
    return false;
  if (b->len + n + 1 <= b->cap)
    return true;
  size_t cap = b->cap ? b->cap : 64;
  while (cap < b->len + n + 1)
    cap *= 2;
  char *d = realloc(b->data, cap);
  if (!d) {
    b->failed = true;
    return false;
  }
  b->data = d;
  b->cap = cap;
  return true;
}

void nprt_strbuf_append(nprt_strbuf *b, const char *s, size_t n) {
  if (!nprt_strbuf_reserve(b, n))
    return;
  memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = 0;
}

void nprt_strbuf_puts(nprt_strbuf *b, const char *s) {
  nprt_strbuf_append(b, s, strlen(s));
}

void nprt_strbuf_printf(nprt_strbuf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0 || !nprt_strbuf_reserve(b, (size_t)n))
    return;
  va_start(ap, fmt);
  vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->len += (size_t)n;
}

void nprt_strbuf_consume(nprt_strbuf *b, size_t n) {
  if (n >= b->len) {
    nprt_strbuf_clear(b);
    return;
  }
  memmove(b->data, b->data + n, b->len - n + 1);
  b->len -= n;
}

const char *nprt_strbuf_str(const nprt_strbuf *b) {
  return b->data ? b->data : "";
}
