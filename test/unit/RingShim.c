/*===- RingShim.c - the lock-free rings for the C++ tests --------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Each wrapper calls the inline operation with a constant record size, as
 * the runtime does.
 *
 *===----------------------------------------------------------------------===*/
#include "test/unit/RingShim.h"

#include "runtime/nprt/ring.h"

nprt_spsc *nprt_test_spsc_create(uint32_t slots, uint32_t size) {
  return nprt_spsc_create(slots, size);
}
void nprt_test_spsc_destroy(nprt_spsc *r) { nprt_spsc_destroy(r); }

#define NPRT_BY_SIZE(size, call)                                               \
  switch (size) {                                                              \
  case 8:                                                                      \
    return call(8);                                                            \
  case 32:                                                                     \
    return call(32);                                                           \
  default:                                                                     \
    return call(64);                                                           \
  }

bool nprt_test_spsc_push(nprt_spsc *r, const void *rec, size_t size) {
#define CALL(n) nprt_spsc_push(r, rec, n)
  NPRT_BY_SIZE(size, CALL)
#undef CALL
}
bool nprt_test_spsc_pop(nprt_spsc *r, void *rec, size_t size){
#define CALL(n) nprt_spsc_pop(r, rec, n)
    NPRT_BY_SIZE(size, CALL)
#undef CALL
} uint32_t nprt_test_spsc_push_burst(nprt_spsc *r, const void *recs, uint32_t n,
                                     size_t size){
#define CALL(k) nprt_spsc_push_burst(r, recs, n, k)
    NPRT_BY_SIZE(size, CALL)
#undef CALL
} uint32_t nprt_test_spsc_pop_burst(nprt_spsc *r, void *recs, uint32_t n,
                                    size_t size) {
#define CALL(k) nprt_spsc_pop_burst(r, recs, n, k)
  NPRT_BY_SIZE(size, CALL)
#undef CALL
}

bool nprt_test_spsc_write64(nprt_spsc *r, uint64_t v) {
  return nprt_spsc_write1(r, &v, sizeof(v));
}
void nprt_test_spsc_publish(nprt_spsc *r) { nprt_spsc_publish(r); }
uint64_t nprt_test_spsc_unpublished(const nprt_spsc *r) {
  return nprt_spsc_unpublished(r);
}
bool nprt_test_spsc_take64(nprt_spsc *r, uint64_t *v) {
  const uint64_t *p = nprt_spsc_peek(r, sizeof(*v));
  if (!p)
    return false;
  *v = *p;
  nprt_spsc_skip(r);
  return true;
}
void nprt_test_spsc_release(nprt_spsc *r) { nprt_spsc_release(r); }
uint64_t nprt_test_spsc_unreleased(const nprt_spsc *r) {
  return nprt_spsc_unreleased(r);
}

nprt_mpsc *nprt_test_mpsc_create(uint32_t slots) {
  return nprt_mpsc_create(slots);
}
void nprt_test_mpsc_destroy(nprt_mpsc *r) { nprt_mpsc_destroy(r); }
bool nprt_test_mpsc_push(nprt_mpsc *r, uint64_t v) {
  return nprt_mpsc_push(r, v);
}
bool nprt_test_mpsc_push_burst(nprt_mpsc *r, const uint64_t *v, uint32_t n) {
  return nprt_mpsc_push_burst(r, v, n);
}
bool nprt_test_mpsc_pop(nprt_mpsc *r, uint64_t *v) {
  return nprt_mpsc_pop(r, v);
}
uint32_t nprt_test_mpsc_pop_burst(nprt_mpsc *r, uint64_t *v, uint32_t n) {
  return nprt_mpsc_pop_burst(r, v, n);
}
