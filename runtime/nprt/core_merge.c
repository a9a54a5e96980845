/*===- core_merge.c - the copies of a replicated instance ----------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Under rtc a replicable instance runs on every core; fields the compiler
 * marked merged (nprt_merge_desc: a sum, an or, a maximum or a minimum)
 * start at the operator's identity on every copy but the primary, so that
 * folding the copies gives the state one core would have had (the
 * statistics, -h and handler reads during the run).
 *===----------------------------------------------------------------------===*/
#include "runtime/nprt/cores.h"

static uint64_t nprt_merge_load(const uint8_t *p, uint32_t w) {
  switch (w) {
  case 1:
    return *p;
  case 2:
    return *(const uint16_t *)(const void *)p;
  case 4:
    return *(const uint32_t *)(const void *)p;
  default:
    return *(const uint64_t *)(const void *)p;
  }
}

static void nprt_merge_store(uint8_t *p, uint32_t w, uint64_t v) {
  switch (w) {
  case 1:
    *p = (uint8_t)v;
    break;
  case 2:
    *(uint16_t *)(void *)p = (uint16_t)v;
    break;
  case 4:
    *(uint32_t *)(void *)p = (uint32_t)v;
    break;
  default:
    *(uint64_t *)(void *)p = v;
  }
}

/* The `bits` low bits of `v`. */
static uint64_t nprt_mask(uint64_t v, uint32_t bits) {
  return bits >= 64 ? v : v & ((1ull << bits) - 1);
}

/* `v`, a value of `bits` bits, as a signed number. */
static int64_t nprt_sext(uint64_t v, uint32_t bits) {
  unsigned shift = 64 - (bits ? bits : 64);
  return (int64_t)(v << shift) >> shift;
}

/* The value of `bits` bits that leaves any other unchanged under `op`. */
static uint64_t nprt_merge_identity(uint32_t op, uint32_t bits) {
  uint64_t all = nprt_mask(UINT64_MAX, bits);
  switch (op) {
  case NPRT_MERGE_UMIN:
    return all;
  case NPRT_MERGE_SMAX: /* the least signed value */
    return 1ull << (bits - 1);
  case NPRT_MERGE_SMIN: /* the greatest */
    return all >> 1;
  default:
    return 0;
  }
}

/* `a` and `b` (values of `bits` bits) combined, with the bits above them
 * 0, as the program keeps them (c-legalize-int-widths): a 1-bit signed
 * minimum of 0 and -1 (stored 1) is -1 (npsmith, seed 113835). */
static uint64_t nprt_merge_op(uint32_t op, uint32_t bits, uint64_t a,
                              uint64_t b) {
  switch (op) {
  case NPRT_MERGE_SUM:
    return nprt_mask(a + b, bits);
  case NPRT_MERGE_OR:
    return a | b;
  case NPRT_MERGE_UMAX:
    return a > b ? a : b;
  case NPRT_MERGE_UMIN:
    return a < b ? a : b;
  case NPRT_MERGE_SMAX:
    return nprt_sext(a, bits) > nprt_sext(b, bits) ? a : b;
  default:
    return nprt_sext(a, bits) < nprt_sext(b, bits) ? a : b;
  }
}

/* Sets the merged fields of a copy that is not the primary to their
 * identity, so that the copies add up to the state one core would have. */
void nprt_merge_reset(const nprt_instance_desc *d, void *state) {
  for (uint32_t f = 0; state && f < d->n_merges; ++f) {
    const nprt_merge_desc *md = &d->merges[f];
    uint8_t *base = (uint8_t *)state + md->offset;
    for (uint32_t e = 0; e < md->count; ++e)
      nprt_merge_store(base + (size_t)e * md->width, md->width,
                       nprt_merge_identity(md->op, md->bits));
  }
}

void nprt_merge_into(const nprt_instance_desc *d, void *acc, const void *copy) {
  for (uint32_t f = 0; acc && copy && f < d->n_merges; ++f) {
    const nprt_merge_desc *md = &d->merges[f];
    uint8_t *a = (uint8_t *)acc + md->offset;
    const uint8_t *b = (const uint8_t *)copy + md->offset;
    for (uint32_t e = 0; e < md->count; ++e) {
      size_t off = (size_t)e * md->width;
      nprt_merge_store(a + off, md->width,
                       nprt_merge_op(md->op, md->bits,
                                     nprt_merge_load(a + off, md->width),
                                     nprt_merge_load(b + off, md->width)));
    }
  }
}

/* Copies that are not the primary start their merged fields at identity;
 * init and --signal ran on every copy, so this runs before the first
 * packet, when each core reaches its run phase (nprt_exec_schedule). */
static void nprt_core_reset_copies(nprt_core *c) {
  for (uint32_t l = 0; l < c->n_local; ++l)
    if (c->prog[l] != UINT32_MAX && !c->primary[l])
      nprt_merge_reset(&c->m->program->instances[c->prog[l]],
                       c->graph->insts[l]->state_obj);
}

void nprt_core_enter_run(void *core) { nprt_core_reset_copies(core); }
