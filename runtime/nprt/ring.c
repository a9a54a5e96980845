/*===- ring.c - creating SPSC and MPSC rings ---------------------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 *===----------------------------------------------------------------------===*/
#include "runtime/nprt/ring.h"

#include <stdlib.h>

static bool nprt_pow2(uint64_t x) { return x && !(x & (x - 1)); }

/* Bytes for `n`, rounded up to whole cache lines (aligned_alloc wants a
 * multiple of the alignment). */
static size_t nprt_lines(size_t n) { return (n + 63u) & ~(size_t)63u; }

nprt_spsc *nprt_spsc_create(uint32_t slots, uint32_t size) {
  if (!nprt_pow2(slots) || !nprt_pow2(size) || size > 4096u)
    return NULL;
  size_t head = nprt_lines(sizeof(nprt_spsc));
  nprt_spsc *r = aligned_alloc(64, head + nprt_lines((size_t)slots * size));
  if (!r)
    return NULL;
  memset(r, 0, sizeof(*r));
  r->pslots = r->cslots = (uint8_t *)r + head;
  r->pmask = r->cmask = slots - 1u;
  r->size = size;
  r->slots = slots;
  return r;
}

void nprt_spsc_destroy(nprt_spsc *r) { free(r); }

nprt_mpsc *nprt_mpsc_create(uint32_t slots) {
  if (!nprt_pow2(slots))
    return NULL;
  nprt_mpsc *r =
      aligned_alloc(64, nprt_lines(sizeof(nprt_mpsc) +
                                   (size_t)slots * sizeof(nprt_mpsc_slot)));
  if (!r)
    return NULL;
  memset(r, 0, sizeof(*r));
  r->mask = slots - 1u;
  for (uint32_t i = 0; i < slots; ++i) {
    atomic_init(&r->slots[i].seq, i);
    r->slots[i].value = 0;
  }
  return r;
}

void nprt_mpsc_destroy(nprt_mpsc *r) { free(r); }
