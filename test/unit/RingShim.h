//===- RingShim.h - C++-callable view of the lock-free rings ----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// ring.h uses C11 atomics, which C++17 cannot include: RingShim.c wraps
// its inline operations, for 8-, 32- and 64-byte records, in plain
// functions the tests call from several threads.
//
//===----------------------------------------------------------------------===//
#ifndef NPRT_TEST_UNIT_RINGSHIM_H
#define NPRT_TEST_UNIT_RINGSHIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct nprt_spsc nprt_spsc;
typedef struct nprt_mpsc nprt_mpsc;

nprt_spsc *nprt_test_spsc_create(uint32_t slots, uint32_t size);
void nprt_test_spsc_destroy(nprt_spsc *r);
/* `size` is 8, 32 or 64 and must be the ring's. */
bool nprt_test_spsc_push(nprt_spsc *r, const void *rec, size_t size);
bool nprt_test_spsc_pop(nprt_spsc *r, void *rec, size_t size);
uint32_t nprt_test_spsc_push_burst(nprt_spsc *r, const void *recs, uint32_t n,
                                   size_t size);
uint32_t nprt_test_spsc_pop_burst(nprt_spsc *r, void *recs, uint32_t n,
                                  size_t size);
/* The deferred layer, 8-byte records. */
bool nprt_test_spsc_write64(nprt_spsc *r, uint64_t v);
void nprt_test_spsc_publish(nprt_spsc *r);
uint64_t nprt_test_spsc_unpublished(const nprt_spsc *r);
/* Peeks at the oldest value (false when none) and moves past it. */
bool nprt_test_spsc_take64(nprt_spsc *r, uint64_t *v);
void nprt_test_spsc_release(nprt_spsc *r);
uint64_t nprt_test_spsc_unreleased(const nprt_spsc *r);

nprt_mpsc *nprt_test_mpsc_create(uint32_t slots);
void nprt_test_mpsc_destroy(nprt_mpsc *r);
bool nprt_test_mpsc_push(nprt_mpsc *r, uint64_t v);
bool nprt_test_mpsc_push_burst(nprt_mpsc *r, const uint64_t *v, uint32_t n);
bool nprt_test_mpsc_pop(nprt_mpsc *r, uint64_t *v);
uint32_t nprt_test_mpsc_pop_burst(nprt_mpsc *r, uint64_t *v, uint32_t n);

#ifdef __cplusplus
}
#endif

#endif // NPRT_TEST_UNIT_RINGSHIM_H
