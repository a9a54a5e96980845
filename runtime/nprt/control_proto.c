/*===- control_proto.c - ControlSocket commands and responses -----*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Responses are Click's: lines `CODE MESSAGE\r\n`, with `CODE-` on every
 * line but the last of a multi-line response; a read's value follows its
 * status line as `DATA n\r\n` and exactly n bytes. Codes: 200 OK, 500
 * syntax, 501 unknown command, 510 no such element, 511 no such handler,
 * 520 write handler error, 530 wrong direction (read a write-only
 * handler, or the reverse). READDATA, WRITEDATA, READUNTIL, WRITEUNTIL and
 * LLRPC are not supported (501).
 *
 *===----------------------------------------------------------------------===*/
#include "runtime/nprt/control.h"

#include "runtime/nprt/handlers.h"

#include <ctype.h>
#include <string.h>

enum {
  NPRT_CS_OK = 200,
  NPRT_CS_SYNTAX = 500,
  NPRT_CS_UNIMPLEMENTED = 501,
  NPRT_CS_NO_SUCH_ELEMENT = 510,
  NPRT_CS_NO_SUCH_HANDLER = 511,
  NPRT_CS_HANDLER_ERROR = 520,
  NPRT_CS_PERMISSION = 530,
};

/* Message text with control and non-ASCII bytes escaped, so that a
 * response line never contains a line break: ^A for 1, ^? for 127, \ooo
 * above. */
static void nprt_printable(nprt_strbuf *out, const char *s, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    unsigned char c = (unsigned char)s[i];
    if (c >= 32 && c < 127)
      nprt_strbuf_append(out, (const char *)&c, 1);
    else if (c < 32)
      nprt_strbuf_printf(out, "^%c", c + 64);
    else if (c == 127)
      nprt_strbuf_puts(out, "^?");
    else
      nprt_strbuf_printf(out, "\\%03o", c);
  }
}

/* One response line; `more` when further lines of the response follow. */
static void nprt_reply(nprt_strbuf *out, int code, bool more, const char *msg,
                       size_t n) {
  nprt_strbuf_printf(out, "%d%c", code, more ? '-' : ' ');
  nprt_printable(out, msg, n);
  nprt_strbuf_puts(out, "\r\n");
}

/* `PREFIX'NAME'SUFFIX` as one line, NAME as the client typed it. */
static void nprt_reply_name(nprt_strbuf *out, int code, const char *prefix,
                            const char *name, size_t n, const char *suffix) {
  nprt_strbuf msg = {0};
  nprt_strbuf_printf(&msg, "%s'", prefix);
  nprt_strbuf_append(&msg, name, n);
  nprt_strbuf_printf(&msg, "'%s", suffix);
  nprt_reply(out, code, false, nprt_strbuf_str(&msg), msg.len);
  nprt_strbuf_free(&msg);
}

typedef struct nprt_word {
  const char *s;
  size_t n;
} nprt_word;

/* Splits at white space; at most `max` words, returns how many there
 * are. */
static size_t nprt_split(const char *line, size_t len, nprt_word *w,
                         size_t max) {
  size_t count = 0;
  for (size_t i = 0; i < len;) {
    while (i < len && isspace((unsigned char)line[i]))
      ++i;
    size_t start = i;
    while (i < len && !isspace((unsigned char)line[i]))
      ++i;
    if (i > start) {
      if (count < max)
        w[count] = (nprt_word){line + start, i - start};
      ++count;
    }
  }
  return count;
}

static bool nprt_word_is(nprt_word w, const char *upper) {
  size_t n = strlen(upper);
  if (w.n != n)
    return false;
  for (size_t i = 0; i < n; ++i)
    if (toupper((unsigned char)w.s[i]) != upper[i])
      return false;
  return true;
}

/* `elem.handler`, `N.handler` (N counts instances from 1) or a global
 * `handler`; a leading `.` or `0.` also names a global one. False after
 * replying 510 or 511. */
static bool nprt_parse_handler(nprt_handler_ctx *hc, nprt_word name,
                               nprt_strbuf *out, nprt_handler *h) {
  const char *s = name.s;
  size_t n = name.n;
  if (n > 0 && s[0] == '.') {
    ++s;
    --n;
  } else if (n > 1 && s[0] == '0' && s[1] == '.') {
    s += 2;
    n -= 2;
  }
  const char *dot = memchr(s, '.', n);
  nprt_inst *inst = NULL;
  if (dot) {
    size_t elen = (size_t)(dot - s);
    nprt_graph *g = hc->graph;
    for (uint32_t i = 0; i < g->n_insts && !inst; ++i)
      if (strlen(g->insts[i]->name) == elen &&
          memcmp(g->insts[i]->name, s, elen) == 0)
        inst = g->insts[i];
    if (!inst && elen > 0 && elen < 10 && strspn(s, "0123456789") >= elen) {
      uint32_t k = 0;
      for (size_t i = 0; i < elen; ++i)
        k = k * 10 + (uint32_t)(s[i] - '0');
      if (k >= 1 && k <= g->n_insts)
        inst = g->insts[k - 1];
    }
    if (!inst) {
      nprt_reply_name(out, NPRT_CS_NO_SUCH_ELEMENT, "No element named ", s,
                      elen, "");
      return false;
    }
    n -= elen + 1;
    s = dot + 1;
  }
  if (!nprt_handler_find(inst, s, n, h)) {
    nprt_reply_name(out, NPRT_CS_NO_SUCH_HANDLER, "No handler named ", name.s,
                    name.n, "");
    return false;
  }
  return true;
}

static void nprt_cmd_read(nprt_handler_ctx *hc, nprt_word name,
                          nprt_strbuf *out) {
  nprt_handler h;
  if (!nprt_parse_handler(hc, name, out, &h))
    return;
  if (!nprt_handler_readable(&h)) {
    nprt_reply_name(out, NPRT_CS_PERMISSION, "Handler ", name.s, name.n,
                    " write-only");
    return;
  }
  nprt_strbuf value = {0};
  nprt_handler_read(hc, &h, &value);
  nprt_reply_name(out, NPRT_CS_OK, "Read handler ", name.s, name.n, " OK");
  nprt_strbuf_printf(out, "DATA %zu\r\n", value.len);
  nprt_strbuf_append(out, nprt_strbuf_str(&value), value.len);
  nprt_strbuf_free(&value);
}

static void nprt_cmd_write(nprt_handler_ctx *hc, nprt_word name,
                           const char *text, size_t len, nprt_strbuf *out) {
  nprt_handler h;
  if (!nprt_parse_handler(hc, name, out, &h))
    return;
  if (!nprt_handler_writable(&h)) {
    nprt_reply_name(out, NPRT_CS_PERMISSION, "Handler ", name.s, name.n,
                    " read-only");
    return;
  }
  nprt_strbuf err = {0}, full = {0};
  nprt_strbuf_append(&full, name.s, name.n);
  if (nprt_handler_write(hc, &h, nprt_strbuf_str(&full), text, len, &err) ==
      0) {
    nprt_reply_name(out, NPRT_CS_OK, "Write handler ", name.s, name.n, " OK");
  } else {
    /* Click's form: the status line ends with ':' and continues with the
     * handler's messages under the same code. */
    nprt_strbuf head = {0};
    nprt_strbuf_puts(&head, "Write handler '");
    nprt_strbuf_append(&head, name.s, name.n);
    nprt_strbuf_puts(&head, "' error:");
    nprt_reply(out, NPRT_CS_HANDLER_ERROR, true, nprt_strbuf_str(&head),
               head.len);
    nprt_reply(out, NPRT_CS_HANDLER_ERROR, false, nprt_strbuf_str(&err),
               err.len);
    nprt_strbuf_free(&head);
  }
  nprt_strbuf_free(&err);
  nprt_strbuf_free(&full);
}

static void nprt_cmd_check(nprt_handler_ctx *hc, nprt_word name, bool write,
                           nprt_strbuf *out) {
  nprt_handler h;
  if (!nprt_parse_handler(hc, name, out, &h))
    return;
  if (write ? nprt_handler_writable(&h) : nprt_handler_readable(&h))
    nprt_reply_name(out, NPRT_CS_OK, write ? "Write handler " : "Read handler ",
                    name.s, name.n, " OK");
  else
    nprt_reply_name(out, NPRT_CS_NO_SUCH_HANDLER, "Handler ", name.s, name.n,
                    write ? " not writable" : " not readable");
}

static void nprt_cmd_help(nprt_strbuf *out) {
  static const char *const lines[] = {
      "Commands:",
      "READ HANDLER             value of a read handler, as DATA",
      "WRITE HANDLER [ARG...]   call a write handler with ARGs",
      "CHECKREAD HANDLER        whether HANDLER can be read",
      "CHECKWRITE HANDLER       whether HANDLER can be written",
      "QUIT                     close this connection",
      "HANDLER is ELEMENT.NAME or a global NAME (version, list, classes,",
      "handlers, stop); GET, SET and CLOSE are READ, WRITE and QUIT."};
  size_t n = sizeof(lines) / sizeof(*lines);
  for (size_t i = 0; i < n; ++i)
    nprt_reply(out, NPRT_CS_OK, i + 1 < n, lines[i], strlen(lines[i]));
}

void nprt_control_command(nprt_handler_ctx *hc, const char *line, size_t len,
                          nprt_strbuf *out, bool *quit) {
  nprt_word w[3];
  size_t n = nprt_split(line, len, w, 3);
  if (n == 0)
    return;
  static const char wrong[] = "Wrong number of arguments";
  if (nprt_word_is(w[0], "READ") || nprt_word_is(w[0], "GET") ||
      nprt_word_is(w[0], "WRITE") || nprt_word_is(w[0], "SET")) {
    if (n < 2) {
      nprt_reply(out, NPRT_CS_SYNTAX, false, wrong, sizeof(wrong) - 1);
      return;
    }
    bool read = toupper((unsigned char)w[0].s[0]) == 'R' ||
                toupper((unsigned char)w[0].s[0]) == 'G';
    if (read) {
      /* No read handler takes parameters: words after the name are
       * ignored. */
      nprt_cmd_read(hc, w[1], out);
      return;
    }
    /* The argument text: from the third word to the end of the last. */
    const char *text = n > 2 ? w[2].s : line + len;
    const char *end = line + len;
    while (end > text && isspace((unsigned char)end[-1]))
      --end;
    nprt_cmd_write(hc, w[1], text, (size_t)(end - text), out);
  } else if (nprt_word_is(w[0], "CHECKREAD") ||
             nprt_word_is(w[0], "CHECKWRITE")) {
    if (n != 2)
      nprt_reply(out, NPRT_CS_SYNTAX, false, wrong, sizeof(wrong) - 1);
    else
      nprt_cmd_check(hc, w[1], w[0].n == strlen("CHECKWRITE"), out);
  } else if (nprt_word_is(w[0], "QUIT") || nprt_word_is(w[0], "CLOSE")) {
    static const char bad[] = "Bad command syntax", bye[] = "Goodbye!";
    if (n != 1)
      nprt_reply(out, NPRT_CS_SYNTAX, false, bad, sizeof(bad) - 1);
    nprt_reply(out, NPRT_CS_OK, false, bye, sizeof(bye) - 1);
    *quit = true;
  } else if (nprt_word_is(w[0], "HELP")) {
    nprt_cmd_help(out);
  } else {
    nprt_strbuf msg = {0};
    nprt_strbuf_puts(&msg, "Command '");
    for (size_t i = 0; i < w[0].n; ++i) {
      char c = (char)toupper((unsigned char)w[0].s[i]);
      nprt_strbuf_append(&msg, &c, 1);
    }
    nprt_strbuf_puts(&msg, "' unimplemented");
    nprt_reply(out, NPRT_CS_UNIMPLEMENTED, false, nprt_strbuf_str(&msg),
               msg.len);
    nprt_strbuf_free(&msg);
  }
}
