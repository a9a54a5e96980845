//===- LaneShim.h - C++-callable lane between two cores ----------*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// cores.h uses C11 atomics, which C++17 cannot include: LaneShim.c sets up
// the lane of a two-core pipeline with its two devices (kind "lane",
// core_lanes.c) and exposes their operations as plain functions.
//
//===----------------------------------------------------------------------===//
#ifndef NPRT_TEST_UNIT_LANESHIM_H
#define NPRT_TEST_UNIT_LANESHIM_H

#include "runtime/nprt/device.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct nprt_test_lane nprt_test_lane;

/* Core 0 sends to core 1 on channel 0; NULL when memory is out. */
nprt_test_lane *nprt_test_lane_create(void);
void nprt_test_lane_destroy(nprt_test_lane *t);
/* Core 0's position when it sends: its sequence number and clock. */
void nprt_test_lane_at(nprt_test_lane *t, uint64_t seq, int64_t now);
/* Through the sending device's tx_burst: a value that is not a packet (in
 * the carrier), or a packet; how many it accepted. */
uint32_t nprt_test_lane_send_val(nprt_test_lane *t, uint64_t v);
uint32_t nprt_test_lane_send_pkt(nprt_test_lane *t, nprt_pkt *p);
/* Core 0 publishes what it sent; finishes (sends nothing more). */
void nprt_test_lane_flush(nprt_test_lane *t);
void nprt_test_lane_finish(nprt_test_lane *t);

/* Through the receiving device's rx_burst: the status, and with one
 * message its packet (NULL for a value, then in *v), its sequence number,
 * clock and channel. */
typedef struct nprt_test_lane_msg {
  nprt_pkt *pkt;
  uint64_t value, seq;
  int64_t now;
  uint32_t edge;
} nprt_test_lane_msg;
nprt_dev_status nprt_test_lane_recv(nprt_test_lane *t, nprt_test_lane_msg *m,
                                    uint32_t *n);
/* The sending (receiving) device's statistics. */
nprt_dev_stats nprt_test_lane_stats(const nprt_test_lane *t, bool rx);
/* Both devices' kind names. */
const char *nprt_test_lane_kind(const nprt_test_lane *t, bool rx);

#ifdef __cplusplus
}
#endif

#endif // NPRT_TEST_UNIT_LANESHIM_H
