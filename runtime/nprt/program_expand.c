/*===- program_expand.c - the compact program form, expanded ----*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * See program_expand.h. The generated tables are trusted no further than
 * the expansion needs: an index out of its table or a names blob that ends
 * early is reported, never followed.
 *
 *===----------------------------------------------------------------------===*/
#include "runtime/nprt/program_expand.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct nprt_expand_ctx {
  FILE *err;
  const char *prog;
} nprt_expand_ctx;

static int nprt_expand_error(const nprt_expand_ctx *cx, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int nprt_expand_error(const nprt_expand_ctx *cx, const char *fmt, ...) {
  fprintf(cx->err, "%s: error: malformed program description: ", cx->prog);
  va_list ap;
  va_start(ap, fmt);
  vfprintf(cx->err, fmt, ap);
  va_end(ap);
  fputc('\n', cx->err);
  return -1;
}

/* Reports a table of `n` entries that is NULL. */
static int nprt_expand_missing(const nprt_expand_ctx *cx, uint32_t n,
                               const char *what, const char *table) {
  return nprt_expand_error(cx, "%u %s, but %s is NULL", n, what, table);
}

/* Fills `out[0..n_instances)` from the classes; -1 after reporting. */
static int nprt_expand_instances(const nprt_expand_ctx *cx,
                                 const nprt_program *in,
                                 nprt_instance_desc *out) {
  if (!in->inst_class)
    return nprt_expand_missing(cx, in->n_instances, "instances", "inst_class");
  if (!in->inst_names)
    return nprt_expand_missing(cx, in->n_instances, "instances", "inst_names");
  if (!in->classes && in->n_classes)
    return nprt_expand_missing(cx, in->n_classes, "classes", "classes");
  const char *name = in->inst_names;
  for (uint32_t i = 0; i < in->n_instances; ++i) {
    /* The blob holds the names back to back, each ended by its NUL; its
     * length is not known, so the count is trusted, but no name is empty:
     * an empty one is where a blob that ends with a NUL of its own (a
     * string literal "a\0b\0") ran out of names before the count did. */
    if (!*name)
      return nprt_expand_error(cx,
                               "inst_names has no name for instance %u "
                               "of %u",
                               i, in->n_instances);
    uint32_t k = in->inst_class[i];
    if (k >= in->n_classes)
      return nprt_expand_error(cx,
                               "instance %u ('%s') has class %u, the "
                               "program has %u classes",
                               i, name, k, in->n_classes);
    out[i] = in->classes[k];
    out[i].name = name;
    name += strlen(name) + 1;
  }
  return 0;
}

/* Fills `out[0..n_channels)` from the channel words; -1 after reporting. */
static int nprt_expand_channels(const nprt_expand_ctx *cx,
                                const nprt_program *in,
                                nprt_channel_desc *out) {
  if (!in->channel_words)
    return nprt_expand_missing(cx, in->n_channels, "channels", "channel_words");
  const uint32_t known =
      NPRT_CHANNEL_LOSSY | NPRT_CHANNEL_FUSED | NPRT_CHANNEL_UNCOUNTED;
  for (uint32_t k = 0; k < in->n_channels; ++k) {
    const uint32_t *w = &in->channel_words[(size_t)k * NPRT_CHANNEL_WORDS];
    uint32_t src = w[0], dst = w[2], flags = w[5];
    if (src >= in->n_instances || dst >= in->n_instances)
      return nprt_expand_error(cx,
                               "channel %u goes from instance %u to "
                               "instance %u, the program has %u instances",
                               k, src, dst, in->n_instances);
    if (flags & ~known)
      return nprt_expand_error(cx, "channel %u has unknown flags 0x%x", k,
                               flags & ~known);
    nprt_channel_desc *c = &out[k];
    memset(c, 0, sizeof(*c));
    c->src = src;
    c->src_port = w[1];
    c->dst = dst;
    c->dst_port = w[3];
    c->depth = w[4];
    c->lossy = (flags & NPRT_CHANNEL_LOSSY) != 0;
    c->fused = (flags & NPRT_CHANNEL_FUSED) != 0;
    c->uncounted = (flags & NPRT_CHANNEL_UNCOUNTED) != 0;
  }
  return 0;
}

int nprt_program_expand(const nprt_program *in, nprt_program *out,
                        void **storage, FILE *err, const char *prog) {
  nprt_expand_ctx cx = {err ? err : stderr, prog};
  if (!cx.prog)
    cx.prog = in->name ? in->name : "nprt";
  *out = *in;
  *storage = NULL;
  size_t n_insts = !in->instances ? in->n_instances : 0;
  size_t n_chans = !in->channels ? in->n_channels : 0;
  if (!n_insts && !n_chans)
    return 0;
  /* One block: the instances, then the channels (aligned for them). */
  size_t align = _Alignof(nprt_channel_desc);
  if (n_insts > SIZE_MAX / 4 / sizeof(nprt_instance_desc) ||
      n_chans > SIZE_MAX / 4 / sizeof(nprt_channel_desc))
    return nprt_expand_error(&cx, "%u instances and %u channels are too many",
                             in->n_instances, in->n_channels);
  size_t chans_at =
      (n_insts * sizeof(nprt_instance_desc) + align - 1) / align * align;
  char *block = malloc(chans_at + n_chans * sizeof(nprt_channel_desc));
  if (!block) {
    fprintf(cx.err, "%s: error: out of memory\n", cx.prog);
    return -1;
  }
  nprt_instance_desc *insts = (nprt_instance_desc *)block;
  nprt_channel_desc *chans = (nprt_channel_desc *)(block + chans_at);
  if ((n_insts && nprt_expand_instances(&cx, in, insts) != 0) ||
      (n_chans && nprt_expand_channels(&cx, in, chans) != 0)) {
    free(block);
    *out = *in;
    return -1;
  }
  if (n_insts)
    out->instances = insts;
  if (n_chans)
    out->channels = chans;
  *storage = block;
  return 0;
}

void nprt_program_expand_free(void *storage) { free(storage); }
