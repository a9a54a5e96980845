/*===- chan_loops.h - the benchmark's loops over one ring API ---*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Included by the C sides (npcc, DPDK) after defining, for a message type
 * T and size tag S:
 *   PUSH1_S(ring, const T *msg) -> bool       POP1_S(ring, T *msg) -> bool
 *   PUSHN_S(ring, const T *msgs, n) -> count  POPN_S(ring, T *msgs, n) -> count
 * with S = 8 (T = uint64_t) and S = 64 (T = chan_msg64). It defines
 * the produce and consume functions of chan_impl as chan_produce and
 * chan_consume.
 *
 *===----------------------------------------------------------------------===*/
#include "bench/chan/chan_bench.h"

#include <stdbool.h>

static inline void chan_fill8(uint64_t *m, uint64_t i) { *m = i; }
static inline bool chan_check8(const uint64_t *m, uint64_t i, uint64_t *sum) {
  *sum += *m;
  return *m == i;
}
static inline void chan_fill64(chan_msg64 *m, uint64_t i) {
  for (unsigned k = 0; k < 8; ++k)
    m->w[k] = chan_word(i, k);
}
static inline bool chan_check64(const chan_msg64 *m, uint64_t i,
                                uint64_t *sum) {
  *sum += m->w[7];
  return m->w[0] == chan_word(i, 0) && m->w[7] == chan_word(i, 7);
}

#define CHAN_LOOPS(S, T)                                                       \
  static void chan_produce##S(void *ring, uint64_t n, unsigned burst) {        \
    T buf[32];                                                                 \
    if (burst == 1) {                                                          \
      for (uint64_t i = 0; i < n; ++i) {                                       \
        chan_fill##S(&buf[0], i);                                              \
        while (!PUSH1_##S(ring, &buf[0]))                                      \
          chan_relax();                                                        \
      }                                                                        \
      return;                                                                  \
    }                                                                          \
    for (uint64_t i = 0; i < n;) {                                             \
      unsigned want = n - i < burst ? (unsigned)(n - i) : burst;               \
      for (unsigned k = 0; k < want; ++k)                                      \
        chan_fill##S(&buf[k], i + k);                                          \
      unsigned done = 0;                                                       \
      while (done < want) {                                                    \
        unsigned did = PUSHN_##S(ring, buf + done, want - done);               \
        if (!did)                                                              \
          chan_relax();                                                        \
        done += did;                                                           \
      }                                                                        \
      i += want;                                                               \
    }                                                                          \
  }                                                                            \
  static chan_result chan_consume##S(void *ring, uint64_t n, unsigned burst) { \
    chan_result r = {0, 0};                                                    \
    T buf[32];                                                                 \
    for (uint64_t i = 0; i < n;) {                                             \
      unsigned got = burst == 1 ? (unsigned)POP1_##S(ring, &buf[0])            \
                                : POPN_##S(ring, buf, burst);                  \
      if (!got)                                                                \
        chan_relax();                                                          \
      for (unsigned k = 0; k < got; ++k, ++i)                                  \
        r.bad += !chan_check##S(&buf[k], i, &r.sum);                           \
    }                                                                          \
    return r;                                                                  \
  }

CHAN_LOOPS(8, uint64_t)
CHAN_LOOPS(64, chan_msg64)

static void chan_produce(void *ring, unsigned size, uint64_t n,
                         unsigned burst) {
  if (size == 8)
    chan_produce8(ring, n, burst);
  else
    chan_produce64(ring, n, burst);
}

static chan_result chan_consume(void *ring, unsigned size, uint64_t n,
                                unsigned burst) {
  return size == 8 ? chan_consume8(ring, n, burst)
                   : chan_consume64(ring, n, burst);
}
