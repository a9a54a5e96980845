/*===- chan_bench.h - one ring implementation, as the bench drives it -*- C
 *-*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Each implementation (npcc's nprt_spsc, boost::lockfree::spsc_queue,
 * DPDK's rte_ring) provides the two loops of the benchmark in a
 * translation unit of its own, compiled with the same flags, so that its
 * operations inline into them. The producer sends messages 0..n-1 (an
 * 8-byte value, or a 64-byte record whose words all derive from the
 * number), alone or in bursts of `burst`; the consumer checks each
 * message's number and sums a word of every message, so that the run
 * cannot pass without moving every byte.
 *
 *===----------------------------------------------------------------------===*/
#ifndef NPCC_BENCH_CHAN_H
#define NPCC_BENCH_CHAN_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Slots of every ring measured. */
#define CHAN_SLOTS 1024u

typedef struct chan_msg64 {
  uint64_t w[8];
} chan_msg64;

/* Word k of message i. */
static inline uint64_t chan_word(uint64_t i, unsigned k) {
  return i * 0x9e3779b97f4a7c15ull + k;
}

typedef struct chan_result {
  uint64_t sum; /* of the last word of every message */
  uint64_t bad; /* messages out of order or torn */
} chan_result;

typedef struct chan_impl {
  const char *name;
  /* A ring of CHAN_SLOTS messages of `size` bytes (8 or 64). */
  void *(*create)(unsigned size);
  void (*destroy)(void *ring, unsigned size);
  void (*produce)(void *ring, unsigned size, uint64_t n, unsigned burst);
  chan_result (*consume)(void *ring, unsigned size, uint64_t n, unsigned burst);
} chan_impl;

extern const chan_impl chan_npcc, chan_boost, chan_dpdk;

/* Waiting for the other thread, which runs on another CPU. */
static inline void chan_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

#ifdef __cplusplus
}
#endif

#endif /* NPCC_BENCH_CHAN_H */
