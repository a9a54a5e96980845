//===- PoolTest.cpp - packet buffer pool ------------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
#include "runtime/nprt/pool.h"

#include <gtest/gtest.h>

#include <vector>

#include <cstring>

namespace {

class Pool : public ::testing::Test {
protected:
  void SetUp() override { nprt_pool_init(&pool); }
  void TearDown() override { nprt_pool_destroy(&pool); }
  nprt_pool pool;
};

TEST_F(Pool, ReusesFreedBuffers) {
  nprt_pkt *a = nprt_pool_alloc(&pool, 60);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->pool, &pool);
  nprt_pool_free(&pool, a);
  nprt_pkt *b = nprt_pool_alloc(&pool, 1500);
  EXPECT_EQ(a, b);
  EXPECT_EQ(b->len, 1500u);
  EXPECT_EQ(b->headroom, NPRT_PKT_HEADROOM);
  EXPECT_EQ(b->tailroom, NPRT_POOL_BUF_BYTES - 1500u);
  nprt_pool_free(&pool, b);
}

// A reused buffer is not cleared: what the last packet left in front of
// its frame must still read as 0 once a push exposes it, and its named
// annotations as 0, while a strip-then-push gets back what it took off.
TEST_F(Pool, ReusedBufferReadsAsNew) {
  nprt_pkt *a = nprt_pool_alloc(&pool, 60);
  ASSERT_TRUE(nprt_pkt_push(a, NPRT_PKT_HEADROOM));
  memset(a->data, 0xab, a->len);
  nprt_pkt_set_anno(a, 3, 42);
  nprt_pkt_set_anno(a, 15, 43);
  nprt_pool_free(&pool, a);
  nprt_pkt *b = nprt_pool_alloc(&pool, 60);
  ASSERT_EQ(a, b);
  EXPECT_EQ(nprt_pkt_lead(b), 0u);
  for (uint32_t k = 0; k < NPRT_PKT_ANNOS; ++k)
    EXPECT_EQ(nprt_pkt_get_anno(b, k), 0u) << "slot " << k;
  b->data[0] = 0x11;
  ASSERT_TRUE(nprt_pkt_pull(b, 1));
  ASSERT_TRUE(nprt_pkt_push(b, 15));
  for (uint32_t k = 0; k < 14; ++k)
    EXPECT_EQ(b->data[k], 0u) << "byte " << k;
  EXPECT_EQ(b->data[14], 0x11);
  EXPECT_EQ(nprt_pkt_lead(b), 0u);
  ASSERT_TRUE(nprt_pkt_push(b, b->headroom));
  for (uint32_t k = 0; k < NPRT_PKT_HEADROOM - 14; ++k)
    EXPECT_EQ(b->data[k], 0u) << "byte " << k;
  nprt_pool_free(&pool, b);
}

TEST_F(Pool, CountsAllocationsAndHighWater) {
  nprt_pkt *p[100];
  for (auto &x : p)
    x = nprt_pool_alloc(&pool, 64);
  for (int i = 0; i < 40; ++i)
    nprt_pool_free(&pool, p[i]);
  EXPECT_EQ(pool.allocated, 100u);
  EXPECT_EQ(pool.freed, 40u);
  EXPECT_EQ(pool.live, 60u);
  EXPECT_EQ(pool.high_water, 100u);
  for (int i = 40; i < 100; ++i)
    nprt_pool_free(&pool, p[i]);
  EXPECT_EQ(pool.live, 0u);
  EXPECT_EQ(pool.high_water, 100u);
}

TEST_F(Pool, FreshPacketHasZeroMetadata) {
  nprt_pkt *p = nprt_pool_alloc(&pool, 10);
  p->paint = 7;
  p->anno = 9;
  nprt_pool_free(&pool, p);
  p = nprt_pool_alloc_zeroed(&pool, 10);
  EXPECT_EQ(p->paint, 0u);
  EXPECT_EQ(p->anno, 0u);
  for (uint32_t i = 0; i < 10; ++i)
    EXPECT_EQ(p->data[i], 0u);
  nprt_pool_free(&pool, p);
}

TEST_F(Pool, CloneIsDeepIncludingMetadata) {
  nprt_pkt *p = nprt_pool_alloc(&pool, 100);
  for (uint32_t i = 0; i < 100; ++i)
    p->data[i] = (uint8_t)i;
  ASSERT_TRUE(nprt_pkt_pull(p, 14));
  p->in_port = 3;
  p->paint = 4;
  p->out_port = 5;
  p->anno = 0x1122334455667788ull;
  p->ts = 1700000000123456789;
  nprt_pkt *q = nprt_pool_clone(&pool, p);
  ASSERT_NE(q, nullptr);
  EXPECT_NE(q->data, p->data);
  ASSERT_EQ(q->len, 86u);
  EXPECT_EQ(0, memcmp(q->data, p->data, 86));
  EXPECT_EQ(q->in_port, 3u);
  EXPECT_EQ(q->paint, 4u);
  EXPECT_EQ(q->out_port, 5u);
  EXPECT_EQ(q->anno, 0x1122334455667788ull);
  EXPECT_EQ(q->ts, 1700000000123456789);
  q->data[0] = 0xff; // writing the copy leaves the original alone
  EXPECT_EQ(p->data[0], 14u);
  EXPECT_EQ(pool.allocated, 2u);
  nprt_pool_free(&pool, p);
  nprt_pool_free(&pool, q);
}

TEST_F(Pool, PushPullTruncateLimits) {
  nprt_pkt *p = nprt_pool_alloc(&pool, 64);
  EXPECT_FALSE(nprt_pkt_push(p, NPRT_PKT_HEADROOM + 1));
  EXPECT_EQ(p->len, 64u);
  EXPECT_TRUE(nprt_pkt_push(p, NPRT_PKT_HEADROOM));
  EXPECT_EQ(p->len, 64u + NPRT_PKT_HEADROOM);
  EXPECT_EQ(p->headroom, 0u);
  EXPECT_FALSE(nprt_pkt_push(p, 1));
  EXPECT_FALSE(nprt_pkt_pull(p, p->len + 1));
  EXPECT_TRUE(nprt_pkt_pull(p, p->len));
  EXPECT_EQ(p->len, 0u);
  EXPECT_EQ(p->headroom, 64u + NPRT_PKT_HEADROOM);
  nprt_pool_free(&pool, p);

  p = nprt_pool_alloc(&pool, 100);
  nprt_pkt_truncate(p, 200); // longer: no-op
  EXPECT_EQ(p->len, 100u);
  nprt_pkt_truncate(p, 40);
  EXPECT_EQ(p->len, 40u);
  EXPECT_EQ(p->tailroom, NPRT_POOL_BUF_BYTES - 40u);
  nprt_pool_free(&pool, p);
}

TEST_F(Pool, BigPacketsComeFromTheHeap) {
  nprt_pkt *p = nprt_pool_alloc_zeroed(&pool, 9000);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->pool, nullptr);
  EXPECT_EQ(p->len, 9000u);
  EXPECT_EQ(p->headroom, NPRT_PKT_HEADROOM);
  EXPECT_EQ(p->tailroom, 0u);
  p->data[8999] = 1;
  EXPECT_TRUE(nprt_pkt_push(p, 16));
  nprt_pkt *q = nprt_pool_clone(&pool, p);
  EXPECT_EQ(q->pool, nullptr);
  EXPECT_EQ(q->len, 9016u);
  EXPECT_EQ(q->data[9015], 1u);
  EXPECT_EQ(pool.heap_allocated, 2u);
  nprt_pool_free(&pool, p);
  nprt_pool_free(&pool, q);
  EXPECT_EQ(pool.allocated, 2u);
  EXPECT_EQ(pool.freed, 2u);
  EXPECT_EQ(pool.live, 0u);
  // A frame of exactly the buffer size still fits a pool buffer.
  p = nprt_pool_alloc(&pool, NPRT_POOL_BUF_BYTES);
  EXPECT_EQ(p->pool, &pool);
  EXPECT_EQ(p->tailroom, 0u);
  nprt_pool_free(&pool, p);
}

// A second free of a pool buffer is caught before it can put the buffer on
// the free list twice (which would hand it to two owners).
TEST_F(Pool, DoubleFreeOfPoolBufferAborts) {
  nprt_pkt *p = nprt_pool_alloc(&pool, 60);
  ASSERT_NE(p, nullptr);
  nprt_pool_free(&pool, p);
  EXPECT_DEATH(nprt_pool_free(&pool, p),
               "nprt: fatal: double free of packet .* \\(60 bytes\\)");
  // The first free was counted once.
  EXPECT_EQ(pool.freed, 1u);
  EXPECT_EQ(pool.live, 0u);
}

TEST_F(Pool, DoubleFreeOfHeapPacketAbortsInDebugBuilds) {
#ifndef NPRT_DEBUG
  GTEST_SKIP() << "heap packets are released at once without NPRT_DEBUG";
#else
  nprt_pkt *p = nprt_pool_alloc(&pool, 9000);
  ASSERT_NE(p, nullptr);
  ASSERT_EQ(p->pool, nullptr);
  nprt_pool_free(&pool, p);
  EXPECT_DEATH(nprt_pool_free(&pool, p), "nprt: fatal: double free of packet");
#endif
}

// The quarantine is bounded: heap packets beyond it are really released.
TEST_F(Pool, QuarantineIsBounded) {
  for (uint32_t i = 0; i < 3 * NPRT_POOL_QUARANTINE; ++i) {
    nprt_pkt *p = nprt_pool_alloc(&pool, 4000);
    ASSERT_NE(p, nullptr);
    nprt_pool_free(&pool, p);
  }
  EXPECT_LE(pool.n_quarantine, NPRT_POOL_QUARANTINE);
  EXPECT_EQ(pool.live, 0u);
}

// The leak counter counts down only for live packets: a free it cannot
// match with an allocation stops the run instead of wrapping to 2^64 - N.
// A multicore run frees a packet on the core it reached: the buffer goes
// back to the pool that handed it out, which takes it again once its own
// free list runs dry; the freeing pool only counts the free.
TEST_F(Pool, ForeignFreeReturnsToOwner) {
  nprt_pool other;
  nprt_pool_init(&other);
  nprt_pkt *p = nprt_pool_alloc(&other, 60);
  ASSERT_NE(p, nullptr);
  nprt_pool_free(&pool, p);
  EXPECT_EQ(pool.live, 0u);
  EXPECT_EQ(pool.freed, 1u);
  EXPECT_EQ(pool.allocated, 0u);
  EXPECT_DEATH(nprt_pool_free(&pool, p), "double free");
  // Foreign frees go back in batches; the last partial batch on demand.
  nprt_pool_return_away(&pool);
  // Drain the owner's free list: the returned buffer comes back.
  std::vector<nprt_pkt *> taken;
  bool returned = false;
  for (int i = 0; i < 100000 && !returned; ++i) {
    nprt_pkt *q = nprt_pool_alloc(&other, 60);
    ASSERT_NE(q, nullptr);
    returned = q == p;
    taken.push_back(q);
  }
  EXPECT_TRUE(returned);
  for (nprt_pkt *q : taken)
    nprt_pool_free(&other, q);
  nprt_pool_destroy(&other);
}

// A heap packet (over 2048 bytes) freed on another core: the freeing pool
// counts the free and releases the block; it used to count the packet as
// its own and stop the run once its leak counter reached 0 (npsmith).
TEST_F(Pool, ForeignFreeOfHeapPacket) {
  nprt_pool other;
  nprt_pool_init(&other);
  nprt_pkt *p = nprt_pool_alloc(&other, 3000);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->pool, nullptr);
  nprt_pool_free(&pool, p);
  EXPECT_EQ(pool.live, 0u);
  EXPECT_EQ(pool.freed, 1u);
  EXPECT_EQ(other.allocated, 1u);
  nprt_pkt *q = nprt_pool_alloc(&pool, 60);
  nprt_pool_free(&pool, q);
  EXPECT_EQ(pool.live, 0u);
  nprt_pool_destroy(&other);
}

TEST_F(Pool, LeakCounterNeverUnderflows) {
  nprt_pkt *q = nprt_pool_alloc(&pool, 60);
  nprt_pool_free(&pool, q);
  for (int i = 0; i < 20; ++i)
    EXPECT_DEATH(nprt_pool_free(&pool, q), "double free");
  EXPECT_EQ(pool.live, 0u);
  EXPECT_EQ(pool.freed, pool.allocated);
}

// The inline fast paths the devices take per packet (nprt_pool_get,
// nprt_pool_put) recycle a core's buffers LIFO, count exactly as
// nprt_pool_alloc and nprt_pool_free do, and leave every other case
// (a heap frame, another core's buffer, a double free) to them.
TEST_F(Pool, FastPathsRecycleAndCountAsTheSlowOnes) {
  nprt_pkt *a = nprt_pool_get(&pool, 60); // empty list: the slow path
  ASSERT_NE(a, nullptr);
  nprt_pkt_set_anno(a, 5, 7);
  a->paint = 3;
  nprt_pool_put(&pool, a);
  EXPECT_EQ(pool.allocated, 1u);
  EXPECT_EQ(pool.freed, 1u);
  EXPECT_EQ(pool.live, 0u);
  // The buffer freed last comes back first, reset as a new packet.
  nprt_pkt *b = nprt_pool_get(&pool, 64);
  EXPECT_EQ(b, a);
  EXPECT_EQ(b->len, 64u);
  EXPECT_EQ(b->paint, 0u);
  EXPECT_EQ(nprt_pkt_get_anno(b, 5), 0u);
  EXPECT_EQ(b->headroom, NPRT_PKT_HEADROOM);
  EXPECT_EQ(b->tailroom, NPRT_POOL_BUF_BYTES - 64u);
  nprt_pkt *c = nprt_pool_get(&pool, 64);
  EXPECT_NE(c, b);
  EXPECT_EQ(pool.live, 2u);
  EXPECT_EQ(pool.high_water, 2u);
  nprt_pool_put(&pool, c);
  nprt_pool_put(&pool, b);
  EXPECT_EQ(pool.allocated, 3u);
  EXPECT_EQ(pool.freed, 3u);
  EXPECT_EQ(pool.live, 0u);
  // A frame too big for a buffer comes from the heap and goes back to it.
  nprt_pkt *h = nprt_pool_get(&pool, 5000);
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(h->pool, nullptr);
  nprt_pool_put(&pool, h);
  EXPECT_EQ(pool.heap_allocated, 1u);
  EXPECT_EQ(pool.live, 0u);
  // A second free through the fast path is caught as one through the slow.
  nprt_pkt *d = nprt_pool_get(&pool, 60);
  nprt_pool_put(&pool, d);
  EXPECT_DEATH(nprt_pool_put(&pool, d), "nprt: fatal: double free of packet");
  // Another core's buffer goes back to its pool, not onto this list.
  nprt_pool other;
  nprt_pool_init(&other);
  nprt_pkt *f = nprt_pool_get(&other, 60);
  nprt_pool_put(&pool, f);
  EXPECT_EQ(pool.freed, 6u);
  EXPECT_NE(pool.free_list, f);
  nprt_pool_return_away(&pool);
  nprt_pool_destroy(&other);
}

} // namespace
