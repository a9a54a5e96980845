/*===- value_text.h - handler values as text ----------------------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Read handlers give a 64-bit value of a kind (NPRT_VAL_* in nprt.h); the
 * user sees text. Write handlers take text; each word becomes a value of
 * its parameter's kind. The syntax follows Click's argument parsers for
 * the kinds NPL has:
 *
 *   uN    decimal or 0x hex, 0 .. 2^N-1; for N >= 32 also an IPv4 address
 *         (18.26.4.1), for N == 48 also an Ethernet address (0:0:c0:ae:67:ef)
 *   iN    the same with an optional '-', -2^(N-1) .. 2^(N-1)-1; the value is
 *         sign-extended to 64 bits
 *   bool  true/false, yes/no, 1/0; printed as true/false
 *   prefix  a.b.c.d/len, a.b.c.d/m.m.m.m (a contiguous mask) or a.b.c.d
 *         (/32); the address bits past the length are kept as written;
 *         the value is len << 32 | addr, printed as a.b.c.d/len
 *
 * Nothing here knows about instances: these are pure functions, tested on
 * their own.
 *
 *===----------------------------------------------------------------------===*/
#ifndef NPRT_VALUE_TEXT_H
#define NPRT_VALUE_TEXT_H

#include "nprt/nprt.h"
#include "runtime/nprt/strbuf.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Appends the text of `v` as a value of `kind` (no newline). */
void nprt_value_format(uint32_t kind, uint64_t v, nprt_strbuf *out);

typedef enum nprt_value_status {
  NPRT_VALUE_OK,
  NPRT_VALUE_SYNTAX, /* not a value of the kind at all */
  NPRT_VALUE_RANGE,  /* a number, but outside the kind's range */
} nprt_value_status;

/* Parses the `len` bytes at `word` as one value of `kind`. */
nprt_value_status nprt_value_parse(uint32_t kind, const char *word, size_t len,
                                   uint64_t *v);

/* Parses the argument text of write handler `h` (called `name` in
 * messages) into `args` (NPRT_MAX_HANDLER_ARGS entries; those past its
 * parameters are 0). Words are separated by white space and commas. With
 * fewer words than parameters, defaulted parameters (NPRT_VAL_DEFAULT)
 * take their defaults, first ones first, until the counts match; the words
 * go to the others in order. Returns 0, or -1 with one line (no newline)
 * in `err` naming the handler, the argument's position and the word. */
int nprt_args_parse(const nprt_handler_desc *h, const char *name,
                    const char *text, size_t len, uint64_t *args,
                    nprt_strbuf *err);

#ifdef __cplusplus
}
#endif

#endif /* NPRT_VALUE_TEXT_H */
