/*===- npcc_ring.c - the bench's loops over npcc's nprt_spsc -----*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 *===----------------------------------------------------------------------===*/
#include "runtime/nprt/ring.h"

#define PUSH1_8(r, m) nprt_spsc_push((nprt_spsc *)(r), (m), 8)
#define POP1_8(r, m) nprt_spsc_pop((nprt_spsc *)(r), (m), 8)
#define PUSHN_8(r, m, n) nprt_spsc_push_burst((nprt_spsc *)(r), (m), (n), 8)
#define POPN_8(r, m, n) nprt_spsc_pop_burst((nprt_spsc *)(r), (m), (n), 8)
#define PUSH1_64(r, m) nprt_spsc_push((nprt_spsc *)(r), (m), 64)
#define POP1_64(r, m) nprt_spsc_pop((nprt_spsc *)(r), (m), 64)
#define PUSHN_64(r, m, n) nprt_spsc_push_burst((nprt_spsc *)(r), (m), (n), 64)
#define POPN_64(r, m, n) nprt_spsc_pop_burst((nprt_spsc *)(r), (m), (n), 64)
#include "bench/chan/chan_loops.h"

static void *npcc_create(unsigned size) {
  return nprt_spsc_create(CHAN_SLOTS, size);
}
static void npcc_destroy(void *ring, unsigned size) {
  (void)size;
  nprt_spsc_destroy(ring);
}

const chan_impl chan_npcc = {"npcc", npcc_create, npcc_destroy, chan_produce,
                             chan_consume};
