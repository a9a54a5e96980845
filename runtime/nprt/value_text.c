/*===- value_text.c - handler values as text ----------------------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 *===----------------------------------------------------------------------===*/
#include "runtime/nprt/value_text.h"

#include <inttypes.h>
#include <string.h>

static uint32_t nprt_kind(uint32_t kind) { return kind & NPRT_VAL_KIND_MASK; }

/* Widths outside 1..64 (a table that left it 0) mean 64. */
static uint32_t nprt_width(uint32_t kind) {
  uint32_t w = kind & NPRT_VAL_WIDTH_MASK;
  return w == 0 || w > 64 ? 64 : w;
}

static uint64_t nprt_umax(uint32_t w) {
  return w >= 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1;
}

static void nprt_format_ipv4(uint32_t a, nprt_strbuf *out) {
  nprt_strbuf_printf(out, "%u.%u.%u.%u", a >> 24, (a >> 16) & 255u,
                     (a >> 8) & 255u, a & 255u);
}

void nprt_value_format(uint32_t kind, uint64_t v, nprt_strbuf *out) {
  uint32_t w = nprt_width(kind);
  switch (nprt_kind(kind)) {
  case NPRT_VAL_INT: {
    /* Sign-extend from the width: the handler may leave the high bits of
     * a narrow value either way. */
    uint64_t bits = v & nprt_umax(w);
    if (w < 64 && (bits >> (w - 1) & 1u))
      bits |= ~nprt_umax(w);
    nprt_strbuf_printf(out, "%" PRId64, (int64_t)bits);
    return;
  }
  case NPRT_VAL_BOOL:
    nprt_strbuf_puts(out, v ? "true" : "false");
    return;
  case NPRT_VAL_PREFIX:
    nprt_format_ipv4((uint32_t)v, out);
    nprt_strbuf_printf(out, "/%u", (unsigned)(v >> 32));
    return;
  default:
    nprt_strbuf_printf(out, "%" PRIu64, v & nprt_umax(w));
    return;
  }
}

/*--- Parsing -------------------------------------------------------------*/

static int nprt_hex_digit(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/* Decimal or 0x hex magnitude; RANGE when it does not fit 64 bits. */
static nprt_value_status nprt_parse_magnitude(const char *s, size_t n,
                                              uint64_t *v) {
  unsigned base = 10;
  if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s += 2;
    n -= 2;
  }
  if (n == 0)
    return NPRT_VALUE_SYNTAX;
  uint64_t acc = 0;
  bool overflow = false;
  for (size_t i = 0; i < n; ++i) {
    int d = base == 16 ? nprt_hex_digit(s[i])
                       : (s[i] >= '0' && s[i] <= '9' ? s[i] - '0' : -1);
    if (d < 0)
      return NPRT_VALUE_SYNTAX;
    if (acc > (UINT64_MAX - (uint64_t)d) / base)
      overflow = true;
    acc = acc * base + (uint64_t)d;
  }
  *v = acc;
  return overflow ? NPRT_VALUE_RANGE : NPRT_VALUE_OK;
}

/* One to four dot-separated parts 0..255 in decimal, left-aligned into
 * *addr (Click's "10/8" names 10.0.0.0); *parts says how many. */
static bool nprt_parse_ipv4_parts(const char *s, size_t n, uint32_t *addr,
                                  int *parts) {
  uint32_t a = 0;
  size_t i = 0;
  int part = 0;
  for (; part < 4 && (part == 0 || i < n); ++part) {
    if (part > 0) {
      if (s[i] != '.')
        return false;
      ++i;
    }
    size_t start = i;
    uint32_t x = 0;
    while (i < n && s[i] >= '0' && s[i] <= '9' && i - start < 3)
      x = x * 10 + (uint32_t)(s[i++] - '0');
    if (i == start || x > 255)
      return false;
    a = a << 8 | x;
  }
  if (i != n)
    return false;
  *addr = part == 4 ? a : a << (8 * (4 - part));
  *parts = part;
  return true;
}

/* a.b.c.d, each part 0..255 in decimal. */
static bool nprt_parse_ipv4(const char *s, size_t n, uint32_t *addr) {
  int parts;
  return nprt_parse_ipv4_parts(s, n, addr, &parts) && parts == 4;
}

/* Six groups of one or two hex digits separated by ':'. */
static bool nprt_parse_ether(const char *s, size_t n, uint64_t *v) {
  uint64_t acc = 0;
  size_t i = 0;
  for (int part = 0; part < 6; ++part) {
    if (part > 0) {
      if (i >= n || s[i] != ':')
        return false;
      ++i;
    }
    size_t start = i;
    uint64_t x = 0;
    while (i < n && nprt_hex_digit(s[i]) >= 0 && i - start < 2)
      x = x * 16 + (uint64_t)nprt_hex_digit(s[i++]);
    if (i == start)
      return false;
    acc = acc << 8 | x;
  }
  if (i != n)
    return false;
  *v = acc;
  return true;
}

static bool nprt_word_is(const char *s, size_t n, const char *lit) {
  return strlen(lit) == n && memcmp(s, lit, n) == 0;
}

static bool nprt_all_digits(const char *s, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (s[i] < '0' || s[i] > '9')
      return false;
  return n > 0;
}

static nprt_value_status nprt_parse_prefix(const char *s, size_t n,
                                           uint64_t *v) {
  const char *slash = memchr(s, '/', n);
  size_t alen = slash ? (size_t)(slash - s) : n;
  uint32_t addr, len = 32;
  int parts;
  /* With a length, the address may be short, as in Click: 0/0, 10/8. */
  if (!nprt_parse_ipv4_parts(s, alen, &addr, &parts) || (!slash && parts != 4))
    return NPRT_VALUE_SYNTAX;
  if (slash) {
    const char *m = slash + 1;
    size_t mlen = n - alen - 1;
    uint32_t mask;
    uint64_t l;
    if (memchr(m, '.', mlen)) {
      if (!nprt_parse_ipv4(m, mlen, &mask))
        return NPRT_VALUE_SYNTAX;
      /* Only contiguous masks are prefixes: ~mask is 2^k - 1. */
      uint32_t inv = ~mask;
      if (inv & (inv + 1u))
        return NPRT_VALUE_SYNTAX;
      len = 0;
      for (; mask; mask <<= 1)
        ++len;
    } else {
      if (!nprt_all_digits(m, mlen))
        return NPRT_VALUE_SYNTAX;
      if (nprt_parse_magnitude(m, mlen, &l) != NPRT_VALUE_OK || l > 32)
        return NPRT_VALUE_RANGE;
      len = (uint32_t)l;
    }
    if (len > 8u * (uint32_t)parts)
      return NPRT_VALUE_SYNTAX;
  }
  *v = (uint64_t)len << 32 | addr;
  return NPRT_VALUE_OK;
}

nprt_value_status nprt_value_parse(uint32_t kind, const char *word, size_t len,
                                   uint64_t *v) {
  uint32_t w = nprt_width(kind);
  switch (nprt_kind(kind)) {
  case NPRT_VAL_BOOL:
    if (nprt_word_is(word, len, "true") || nprt_word_is(word, len, "yes") ||
        nprt_word_is(word, len, "1")) {
      *v = 1;
      return NPRT_VALUE_OK;
    }
    if (nprt_word_is(word, len, "false") || nprt_word_is(word, len, "no") ||
        nprt_word_is(word, len, "0")) {
      *v = 0;
      return NPRT_VALUE_OK;
    }
    return NPRT_VALUE_SYNTAX;
  case NPRT_VAL_PREFIX:
    return nprt_parse_prefix(word, len, v);
  case NPRT_VAL_INT: {
    bool neg = len > 0 && word[0] == '-';
    uint64_t mag;
    nprt_value_status s =
        nprt_parse_magnitude(word + neg, len - (size_t)neg, &mag);
    if (s != NPRT_VALUE_OK)
      return s;
    /* -2^(w-1) .. 2^(w-1)-1 */
    uint64_t limit = UINT64_C(1) << (w - 1);
    if (neg ? mag > limit : mag >= limit)
      return NPRT_VALUE_RANGE;
    *v = neg ? (uint64_t)0 - mag : mag;
    return NPRT_VALUE_OK;
  }
  default: {
    uint32_t a;
    if (w >= 32 && memchr(word, '.', len)) {
      if (!nprt_parse_ipv4(word, len, &a))
        return NPRT_VALUE_SYNTAX;
      *v = a;
      return NPRT_VALUE_OK;
    }
    if (w == 48 && memchr(word, ':', len))
      return nprt_parse_ether(word, len, v) ? NPRT_VALUE_OK : NPRT_VALUE_SYNTAX;
    if (len > 0 && word[0] == '-') {
      uint64_t mag;
      /* A negative number is a number out of range, not a typo. */
      return nprt_parse_magnitude(word + 1, len - 1, &mag) == NPRT_VALUE_SYNTAX
                 ? NPRT_VALUE_SYNTAX
                 : NPRT_VALUE_RANGE;
    }
    nprt_value_status s = nprt_parse_magnitude(word, len, v);
    if (s == NPRT_VALUE_OK && *v > nprt_umax(w))
      return NPRT_VALUE_RANGE;
    return s;
  }
  }
}

/*--- Argument lists ------------------------------------------------------*/

/* "a u16", "a u32 or an IPv4 address", ...: what a word should have been. */
static void nprt_describe_kind(uint32_t kind, nprt_strbuf *out) {
  uint32_t w = nprt_width(kind);
  switch (nprt_kind(kind)) {
  case NPRT_VAL_BOOL:
    nprt_strbuf_puts(out, "a bool (true/false, yes/no, 1/0)");
    return;
  case NPRT_VAL_PREFIX:
    nprt_strbuf_puts(out, "an IPv4 prefix (a.b.c.d/len)");
    return;
  case NPRT_VAL_INT:
    nprt_strbuf_printf(out, "an i%u", w);
    return;
  default:
    nprt_strbuf_printf(out, "a u%u", w);
    if (w == 48)
      nprt_strbuf_puts(out, ", an IPv4 address or an Ethernet address");
    else if (w >= 32)
      nprt_strbuf_puts(out, " or an IPv4 address");
    return;
  }
}

static void nprt_describe_range(uint32_t kind, nprt_strbuf *out) {
  uint32_t w = nprt_width(kind);
  switch (nprt_kind(kind)) {
  case NPRT_VAL_PREFIX:
    nprt_strbuf_puts(out, "a prefix length (0..32)");
    return;
  case NPRT_VAL_INT:
    nprt_strbuf_printf(out, "i%u (%" PRId64 "..%" PRId64 ")", w,
                       w >= 64 ? INT64_MIN : -((int64_t)1 << (w - 1)),
                       w >= 64 ? INT64_MAX : ((int64_t)1 << (w - 1)) - 1);
    return;
  default:
    nprt_strbuf_printf(out, "u%u (0..%" PRIu64 ")", w, nprt_umax(w));
    return;
  }
}

static bool nprt_is_separator(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
         c == '\f' || c == ',';
}

/* The next word at or after *pos; false at the end. */
static bool nprt_next_word(const char *text, size_t len, size_t *pos,
                           const char **word, size_t *wlen) {
  size_t i = *pos;
  while (i < len && nprt_is_separator(text[i]))
    ++i;
  if (i == len) {
    *pos = i;
    return false;
  }
  size_t start = i;
  while (i < len && !nprt_is_separator(text[i]))
    ++i;
  *word = text + start;
  *wlen = i - start;
  *pos = i;
  return true;
}

int nprt_args_parse(const nprt_handler_desc *h, const char *name,
                    const char *text, size_t len, uint64_t *args,
                    nprt_strbuf *err) {
  uint32_t n_params =
      h->n_params < NPRT_MAX_HANDLER_ARGS ? h->n_params : NPRT_MAX_HANDLER_ARGS;
  uint32_t n_defaulted = 0;
  for (uint32_t k = 0; k < n_params; ++k)
    n_defaulted += (h->params[k] & NPRT_VAL_DEFAULT) != 0;
  uint32_t n_words = 0;
  const char *word = NULL;
  size_t wlen = 0;
  for (size_t pos = 0; nprt_next_word(text, len, &pos, &word, &wlen);)
    ++n_words;
  if (n_words > n_params || n_words < n_params - n_defaulted) {
    nprt_strbuf_printf(err, "write handler '%s' takes ", name);
    if (n_params == 0)
      nprt_strbuf_puts(err, "no arguments");
    else if (n_defaulted == 0)
      nprt_strbuf_printf(err, "%u argument%s", n_params,
                         n_params == 1 ? "" : "s");
    else
      nprt_strbuf_printf(err, "%u to %u arguments", n_params - n_defaulted,
                         n_params);
    nprt_strbuf_printf(err, ", got %u", n_words);
    return -1;
  }
  memset(args, 0, NPRT_MAX_HANDLER_ARGS * sizeof(*args));
  /* The first `omit` defaulted parameters take their defaults. */
  uint32_t omit = n_params - n_words;
  size_t pos = 0;
  for (uint32_t k = 0; k < n_params; ++k) {
    if (omit && (h->params[k] & NPRT_VAL_DEFAULT)) {
      args[k] = h->defaults ? h->defaults[k] : 0;
      --omit;
      continue;
    }
    nprt_next_word(text, len, &pos, &word, &wlen);
    nprt_value_status s = nprt_value_parse(h->params[k], word, wlen, &args[k]);
    if (s == NPRT_VALUE_OK)
      continue;
    nprt_strbuf_printf(err, "write handler '%s': argument %u '%.*s' is ", name,
                       k + 1, (int)wlen, word);
    if (s == NPRT_VALUE_RANGE) {
      nprt_strbuf_puts(err, "out of range for ");
      nprt_describe_range(h->params[k], err);
    } else {
      nprt_strbuf_puts(err, "not ");
      nprt_describe_kind(h->params[k], err);
    }
    return -1;
  }
  return 0;
}
