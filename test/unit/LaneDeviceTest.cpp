//===- LaneDeviceTest.cpp - a lane between cores as a device ----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The lane devices (kind "lane", core_lanes.c) of a two-core pipeline: the
// sender's tx_burst stamps each value with the core's sequence number and
// clock, the receiver's rx_burst gives the messages in order once they are
// published, is BUSY while the sender may still send, and ends once the
// sender finished and the lane is empty; values that are not packets ride
// in the carrier.
//
//===----------------------------------------------------------------------===//
#include "test/unit/LaneShim.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace {

struct LaneDeleter {
  void operator()(nprt_test_lane *t) const { nprt_test_lane_destroy(t); }
};
using Lane = std::unique_ptr<nprt_test_lane, LaneDeleter>;

TEST(LaneDevice, GivesWhatWasSentInOrderThenEnds) {
  Lane lane(nprt_test_lane_create());
  ASSERT_TRUE(lane);
  EXPECT_EQ(std::string(nprt_test_lane_kind(lane.get(), false)), "lane");
  EXPECT_EQ(std::string(nprt_test_lane_kind(lane.get(), true)), "lane");

  nprt_pkt pkt{};
  pkt.len = 60;
  nprt_test_lane_at(lane.get(), 7, 1000);
  EXPECT_EQ(nprt_test_lane_send_val(lane.get(), 42), 1u);
  nprt_test_lane_at(lane.get(), 9, 2000);
  EXPECT_EQ(nprt_test_lane_send_pkt(lane.get(), &pkt), 1u);

  nprt_test_lane_msg m;
  uint32_t n = 9;
  // Not published yet: the receiver waits, it does not end.
  EXPECT_EQ(nprt_test_lane_recv(lane.get(), &m, &n), NPRT_DEV_BUSY);
  EXPECT_EQ(n, 0u);

  nprt_test_lane_flush(lane.get());
  ASSERT_EQ(nprt_test_lane_recv(lane.get(), &m, &n), NPRT_DEV_OK);
  ASSERT_EQ(n, 1u);
  EXPECT_EQ(m.pkt, nullptr);
  EXPECT_EQ(m.value, 42u);
  EXPECT_EQ(m.seq, 7u);
  EXPECT_EQ(m.now, 1000);
  EXPECT_EQ(m.edge, 0u);
  ASSERT_EQ(nprt_test_lane_recv(lane.get(), &m, &n), NPRT_DEV_OK);
  EXPECT_EQ(m.pkt, &pkt);
  EXPECT_EQ(m.seq, 9u);
  EXPECT_EQ(m.now, 2000);

  // Empty while the sender runs: BUSY; once it finished: the end.
  EXPECT_EQ(nprt_test_lane_recv(lane.get(), &m, &n), NPRT_DEV_BUSY);
  nprt_test_lane_finish(lane.get());
  EXPECT_EQ(nprt_test_lane_recv(lane.get(), &m, &n), NPRT_DEV_END);
  EXPECT_EQ(n, 0u);

  for (bool rx : {false, true}) {
    nprt_dev_stats s = nprt_test_lane_stats(lane.get(), rx);
    EXPECT_EQ(s.path, nullptr);
    EXPECT_EQ(s.packets, 2u);
    EXPECT_EQ(s.bytes, 60u);
  }
}

} // namespace
