/*===- dpdk_ring.c - the bench's loops over DPDK's rte_ring ------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * An rte_ring without the EAL: rte_ring_init on 64-byte aligned memory of
 * rte_ring_get_memsize_elem bytes, single producer and single consumer
 * (CHAN_SLOTS - 1 usable slots: without RING_F_EXACT_SZ, which doubles
 * the array, one slot tells full from empty). 8-byte
 * messages go through the classic pointer API, 64-byte ones through the
 * _elem API.
 *
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE /* ssize_t, in DPDK's headers */
#include <rte_ring.h>
#include <rte_ring_elem.h>

#include <stdlib.h>

#define R(r) ((struct rte_ring *)(r))
#define PUSH1_8(r, m) (rte_ring_sp_enqueue(R(r), (void *)(uintptr_t)*(m)) == 0)
#define POP1_8(r, m) (rte_ring_sc_dequeue(R(r), (void **)(m)) == 0)
#define PUSHN_8(r, m, n)                                                       \
  rte_ring_sp_enqueue_burst(R(r), (void *const *)(m), (n), NULL)
#define POPN_8(r, m, n) rte_ring_sc_dequeue_burst(R(r), (void **)(m), (n), NULL)
#define PUSH1_64(r, m) (rte_ring_sp_enqueue_elem(R(r), (void *)(m), 64) == 0)
#define POP1_64(r, m) (rte_ring_sc_dequeue_elem(R(r), (m), 64) == 0)
#define PUSHN_64(r, m, n)                                                      \
  rte_ring_sp_enqueue_burst_elem(R(r), (m), 64, (n), NULL)
#define POPN_64(r, m, n)                                                       \
  rte_ring_sc_dequeue_burst_elem(R(r), (m), 64, (n), NULL)
#include "bench/chan/chan_loops.h"

static void *dpdk_create(unsigned size) {
  ssize_t bytes = rte_ring_get_memsize_elem(size, CHAN_SLOTS);
  if (bytes < 0)
    return NULL;
  void *mem = aligned_alloc(64, ((size_t)bytes + 63) & ~(size_t)63);
  if (!mem)
    return NULL;
  if (rte_ring_init(mem, "bench", CHAN_SLOTS, RING_F_SP_ENQ | RING_F_SC_DEQ) !=
      0) {
    free(mem);
    return NULL;
  }
  return mem;
}
static void dpdk_destroy(void *ring, unsigned size) {
  (void)size;
  free(ring);
}

const chan_impl chan_dpdk = {"dpdk", dpdk_create, dpdk_destroy, chan_produce,
                             chan_consume};
