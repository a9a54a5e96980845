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

/* Fills `out[0..n_channels)` from the runs of channel words; -1 after
 * reporting. */
static int nprt_expand_channels(const nprt_expand_ctx *cx,
                                const nprt_program *in,
                                nprt_channel_desc *out) {
  if (!in->channel_words)
    return nprt_expand_missing(cx, in->n_channels, "channels", "channel_words");
  const uint32_t known =
      NPRT_CHANNEL_LOSSY | NPRT_CHANNEL_FUSED | NPRT_CHANNEL_UNCOUNTED;
  const uint32_t n = in->n_instances;
  const uint32_t *w = in->channel_words;
  for (uint32_t k = 0; k < in->n_channels; w += NPRT_CHANNEL_WORDS) {
    uint32_t count = w[0], src = w[1], dst = w[3], flags = w[6];
    if (count == 0 || count > in->n_channels - k)
      return nprt_expand_error(cx,
                               "a run of %u channels from channel %u, the "
                               "program has %u",
                               count, k, in->n_channels);
    if (src >= n || dst >= n || count > n - src || count > n - dst)
      return nprt_expand_error(cx,
                               "channel %u goes from instance %u to "
                               "instance %u, the program has %u instances",
                               k, src + count - 1, dst + count - 1, n);
    if (flags & ~known)
      return nprt_expand_error(cx, "channel %u has unknown flags 0x%x", k,
                               flags & ~known);
    for (uint32_t j = 0; j < count; ++j, ++k) {
      nprt_channel_desc *c = &out[k];
      memset(c, 0, sizeof(*c));
      c->src = src + j;
      c->src_port = w[2];
      c->dst = dst + j;
      c->dst_port = w[4];
      c->depth = w[5];
      c->lossy = (flags & NPRT_CHANNEL_LOSSY) != 0;
      c->fused = (flags & NPRT_CHANNEL_FUSED) != 0;
      c->uncounted = (flags & NPRT_CHANNEL_UNCOUNTED) != 0;
    }
  }
  return 0;
}

/* Fills the `n` stages from the runs of `stage_runs`; -1 after
 * reporting. */
static int nprt_expand_stages(const nprt_expand_ctx *cx, const nprt_program *in,
                              uint8_t *out, size_t n) {
  const uint32_t *w = in->stage_runs;
  for (size_t at = 0; at < n; w += 2) {
    uint32_t count = w[0], stage = w[1];
    if (count == 0 || count > n - at || stage >= NPRT_MAX_CORES)
      return nprt_expand_error(cx,
                               "a run of %u stages %u at stage entry %zu of "
                               "%zu",
                               count, stage, at, n);
    memset(out + at, (int)stage, count);
    at += count;
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
  size_t n_stages = !in->stages && in->stage_runs
                        ? (size_t)NPRT_MAX_CORES * in->n_instances
                        : 0;
  if (!n_insts && !n_chans && !n_stages)
    return 0;
  /* One block: the instances, then the channels (aligned for them). */
  size_t align = _Alignof(nprt_channel_desc);
  if (n_insts > SIZE_MAX / 4 / sizeof(nprt_instance_desc) ||
      n_chans > SIZE_MAX / 4 / sizeof(nprt_channel_desc))
    return nprt_expand_error(&cx, "%u instances and %u channels are too many",
                             in->n_instances, in->n_channels);
  size_t chans_at =
      (n_insts * sizeof(nprt_instance_desc) + align - 1) / align * align;
  size_t stages_at = chans_at + n_chans * sizeof(nprt_channel_desc);
  char *block = malloc(stages_at + n_stages);
  if (!block) {
    fprintf(cx.err, "%s: error: out of memory\n", cx.prog);
    return -1;
  }
  nprt_instance_desc *insts = (nprt_instance_desc *)block;
  nprt_channel_desc *chans = (nprt_channel_desc *)(block + chans_at);
  if ((n_insts && nprt_expand_instances(&cx, in, insts) != 0) ||
      (n_chans && nprt_expand_channels(&cx, in, chans) != 0) ||
      (n_stages && nprt_expand_stages(&cx, in, (uint8_t *)block + stages_at,
                                      n_stages) != 0)) {
    free(block);
    *out = *in;
    return -1;
  }
  if (n_insts)
    out->instances = insts;
  if (n_chans)
    out->channels = chans;
  if (n_stages)
    out->stages = (const uint8_t *)block + stages_at;
  *storage = block;
  return 0;
}

void nprt_program_expand_free(void *storage) { free(storage); }
