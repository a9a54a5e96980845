//===- ClockTest.cpp - the program's clock ---------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// nprt_clock (runtime/nprt/clock.h) on its own: a clock on trace time
// reads what the run set, a live one the time of day that never goes back;
// neither has started nor has an end until the run gives them one.
//
//===----------------------------------------------------------------------===//
#include "runtime/nprt/clock.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <ctime>

namespace {

int64_t timeOfDayNs() {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

TEST(Clock, StartsUnstartedWithoutAnEnd) {
  nprt_clock c;
  nprt_clock_init(&c, false);
  EXPECT_FALSE(c.started);
  EXPECT_FALSE(c.live);
  EXPECT_EQ(c.end, INT64_MAX);
  EXPECT_EQ(nprt_clock_read(&c), 0);
}

TEST(Clock, TraceTimeReadsWhatTheRunSet) {
  nprt_clock c;
  nprt_clock_init(&c, false);
  c.now = 1700000000000999000;
  EXPECT_EQ(nprt_clock_read(&c), 1700000000000999000);
}

TEST(Clock, LiveTimeIsTheTimeOfDayAndNeverGoesBack) {
  nprt_clock c;
  nprt_clock_init(&c, true);
  c.now = 5; // what the run last set; a live clock reads the host's
  int64_t before = timeOfDayNs();
  int64_t a = nprt_clock_read(&c);
  int64_t b = nprt_clock_read(&c);
  int64_t after = timeOfDayNs();
  // Within a second of the time of day (an NTP step may move one of them).
  EXPECT_GT(a, before - 1000000000);
  EXPECT_LT(b, after + 1000000000);
  EXPECT_GE(b, a);
  EXPECT_GE(nprt_clock_live_now(&c), b);
}

} // namespace
