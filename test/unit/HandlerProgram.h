/*===- HandlerProgram.h - a program with read and write handlers -*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * src -> c1 -> c2 -> sink: input device 0 through two Counters to output
 * device 0, described by constant tables as npcc emits them. Each Counter
 * has read and write handlers of every value kind (HandlerProgram.c).
 * Shared by the unit tests and test/runtime/handlers.test.
 *
 *===----------------------------------------------------------------------===*/
#ifndef NPRT_TEST_UNIT_HANDLERPROGRAM_H
#define NPRT_TEST_UNIT_HANDLERPROGRAM_H

#include "nprt/nprt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A Counter's state object. */
typedef struct nprt_test_counter {
  uint64_t count, bytes;
  uint16_t limit;
  bool active;
  int16_t offset;
  uint64_t mac;
  uint64_t dst; /* prefix: len << 32 | addr */
  uint32_t gw;
  uint8_t port;
} nprt_test_counter;

extern const nprt_program nprt_test_counter_program;

#ifdef __cplusplus
}
#endif

#endif /* NPRT_TEST_UNIT_HANDLERPROGRAM_H */
