//===- ChannelTest.cpp - bounded SPSC channels ------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
#include "test/unit/TestShim.h"

#include <gtest/gtest.h>

namespace {

struct ChanDeleter {
  void operator()(nprt_chan *c) const { nprt_test_chan_destroy(c); }
};
using ChanPtr = std::unique_ptr<nprt_chan, ChanDeleter>;

ChanPtr makeChan(uint32_t depth, bool lossy = false) {
  return ChanPtr(nprt_test_chan_create(depth, lossy));
}

TEST(Channel, FifoOrder) {
  ChanPtr c = makeChan(16);
  for (uint64_t i = 0; i < 10; ++i)
    ASSERT_TRUE(nprt_test_chan_push(c.get(), i * 3));
  uint64_t v;
  for (uint64_t i = 0; i < 10; ++i) {
    ASSERT_TRUE(nprt_test_chan_pop(c.get(), &v));
    EXPECT_EQ(v, i * 3);
  }
  EXPECT_FALSE(nprt_test_chan_pop(c.get(), &v));
}

TEST(Channel, CapacityIsExactlyTheDepth) {
  for (uint32_t depth : {1u, 3u, 4u, 5u, 64u, 100u}) {
    ChanPtr c = makeChan(depth);
    for (uint32_t i = 0; i < depth; ++i)
      ASSERT_TRUE(nprt_test_chan_push(c.get(), i)) << "depth " << depth;
    EXPECT_FALSE(nprt_test_chan_push(c.get(), 99)) << "depth " << depth;
    EXPECT_EQ(nprt_test_chan_occupancy(c.get()), depth);
    uint64_t v;
    ASSERT_TRUE(nprt_test_chan_pop(c.get(), &v));
    EXPECT_EQ(v, 0u);
    EXPECT_TRUE(nprt_test_chan_push(c.get(), 99));
    EXPECT_FALSE(nprt_test_chan_push(c.get(), 100));
  }
}

TEST(Channel, WrapsAround) {
  ChanPtr c = makeChan(3); // ring of 4 slots, 3 usable
  uint64_t next = 0, expect = 0, v;
  for (int round = 0; round < 1000; ++round) {
    int n = 1 + round % 3;
    for (int i = 0; i < n; ++i)
      ASSERT_TRUE(nprt_test_chan_push(c.get(), next++));
    for (int i = 0; i < n; ++i) {
      ASSERT_TRUE(nprt_test_chan_pop(c.get(), &v));
      ASSERT_EQ(v, expect++);
    }
  }
  EXPECT_EQ(nprt_test_chan_get_stats(c.get()).packets, next);
}

TEST(Channel, FullAndEmpty) {
  ChanPtr c = makeChan(2);
  uint64_t v;
  EXPECT_FALSE(nprt_test_chan_ready(c.get()));
  EXPECT_FALSE(nprt_test_chan_pop(c.get(), &v));
  EXPECT_TRUE(nprt_test_chan_push(c.get(), 1));
  EXPECT_TRUE(nprt_test_chan_ready(c.get()));
  EXPECT_TRUE(nprt_test_chan_push(c.get(), 2));
  EXPECT_FALSE(nprt_test_chan_push(c.get(), 3));
  EXPECT_TRUE(nprt_test_chan_pop(c.get(), &v));
  EXPECT_TRUE(nprt_test_chan_pop(c.get(), &v));
  EXPECT_EQ(v, 2u);
  EXPECT_FALSE(nprt_test_chan_ready(c.get()));
}

TEST(Channel, MaxOccupancyIsExact) {
  ChanPtr c = makeChan(8);
  uint64_t v;
  for (int i = 0; i < 5; ++i)
    nprt_test_chan_push(c.get(), i);
  for (int i = 0; i < 5; ++i)
    nprt_test_chan_pop(c.get(), &v);
  // The producer's cached head is stale now; occupancy must still be 3.
  for (int i = 0; i < 3; ++i)
    nprt_test_chan_push(c.get(), i);
  EXPECT_EQ(nprt_test_chan_get_stats(c.get()).max_occupancy, 5u);
  for (int i = 0; i < 5; ++i)
    nprt_test_chan_push(c.get(), i);
  EXPECT_EQ(nprt_test_chan_get_stats(c.get()).max_occupancy, 8u);
}

TEST(Channel, RendezvousHoldsOneValueUntilTaken) {
  ChanPtr c = makeChan(0);
  nprt_test_chan_stats s = nprt_test_chan_get_stats(c.get());
  EXPECT_EQ(s.depth, 0u);
  EXPECT_EQ(s.cap, 1u);
  uint64_t t = nprt_test_chan_ticket(c.get());
  ASSERT_TRUE(nprt_test_chan_push(c.get(), 42));
  EXPECT_FALSE(nprt_test_chan_taken(c.get(), t));
  EXPECT_FALSE(nprt_test_chan_push(c.get(), 43));
  uint64_t v;
  ASSERT_TRUE(nprt_test_chan_pop(c.get(), &v));
  EXPECT_EQ(v, 42u);
  EXPECT_TRUE(nprt_test_chan_taken(c.get(), t));
}

TEST(Channel, AbandonFreesPacketsAndCountsDrops) {
  nprt_pool pool;
  nprt_pool_init(&pool);
  ChanPtr c = makeChan(4);
  nprt_test_chan_mark_pkt(c.get());
  for (int i = 0; i < 3; ++i)
    nprt_test_chan_push(c.get(),
                        (uint64_t)(uintptr_t)nprt_pool_alloc(&pool, 60));
  EXPECT_EQ(pool.live, 3u);
  nprt_test_chan_abandon(c.get(), &pool);
  nprt_test_chan_stats s = nprt_test_chan_get_stats(c.get());
  EXPECT_EQ(pool.live, 0u);
  EXPECT_EQ(pool.freed, 3u);
  EXPECT_EQ(s.drops, 3u);
  EXPECT_EQ(s.packets, 3u);
  EXPECT_TRUE(s.consumer_gone);
  EXPECT_FALSE(s.closed);
  nprt_test_chan_close(c.get());
  EXPECT_TRUE(nprt_test_chan_get_stats(c.get()).closed);
  nprt_pool_destroy(&pool);
}

} // namespace
