//===- RingTest.cpp - lock-free SPSC and MPSC rings -------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Edges (full, empty, wrap-around, partial bursts, deferred publishing) on
// one thread, then producers and a consumer on threads of their own, the
// consumer checking every value and its order while the rings go round,
// full and empty, hundreds of times.
//
//===----------------------------------------------------------------------===//
#include "test/unit/RingShim.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

namespace {

struct SpscDeleter {
  void operator()(nprt_spsc *r) const { nprt_test_spsc_destroy(r); }
};
using SpscPtr = std::unique_ptr<nprt_spsc, SpscDeleter>;
struct MpscDeleter {
  void operator()(nprt_mpsc *r) const { nprt_test_mpsc_destroy(r); }
};
using MpscPtr = std::unique_ptr<nprt_mpsc, MpscDeleter>;

// Messages each threaded test sends: enough for hundreds of laps of the
// rings, few enough for ThreadSanitizer (make check-tsan).
constexpr uint64_t kMessages = 200000;
// Values a burst producer pushes at once.
constexpr uint32_t kBurst = 32;

// A record of `Words` 8-byte words, every word derived from its number, so
// that a torn or stale read shows.
// Waiting for the other side: spin a while (it runs on another CPU), then
// let it have this one (the machine may have fewer CPUs than threads).
struct Backoff {
  uint32_t spins = 0;
  void operator()() {
    if (++spins % 256 == 0) {
      std::this_thread::yield();
      return;
    }
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }
};

template <size_t Words> struct Rec {
  uint64_t w[Words];
  static Rec make(uint64_t n) {
    Rec r;
    for (size_t k = 0; k < Words; ++k)
      r.w[k] = n * 0x9e3779b97f4a7c15ull + k;
    return r;
  }
  bool is(uint64_t n) const {
    Rec e = make(n);
    return std::memcmp(w, e.w, sizeof(w)) == 0;
  }
};

TEST(Spsc, RejectsBadGeometry) {
  EXPECT_EQ(nprt_test_spsc_create(0, 8), nullptr);
  EXPECT_EQ(nprt_test_spsc_create(12, 8), nullptr);
  EXPECT_EQ(nprt_test_spsc_create(16, 24), nullptr);
  SpscPtr r(nprt_test_spsc_create(16, 64));
  EXPECT_NE(r.get(), nullptr);
}

TEST(Spsc, FullAndEmptyEdges) {
  SpscPtr r(nprt_test_spsc_create(8, 8));
  uint64_t v = 0;
  EXPECT_FALSE(nprt_test_spsc_pop(r.get(), &v, 8));
  for (uint64_t i = 0; i < 8; ++i)
    ASSERT_TRUE(nprt_test_spsc_push(r.get(), &i, 8));
  uint64_t extra = 99;
  EXPECT_FALSE(nprt_test_spsc_push(r.get(), &extra, 8));
  // One slot freed: exactly one more fits.
  ASSERT_TRUE(nprt_test_spsc_pop(r.get(), &v, 8));
  EXPECT_EQ(v, 0u);
  EXPECT_TRUE(nprt_test_spsc_push(r.get(), &extra, 8));
  EXPECT_FALSE(nprt_test_spsc_push(r.get(), &extra, 8));
  for (uint64_t i = 1; i < 8; ++i) {
    ASSERT_TRUE(nprt_test_spsc_pop(r.get(), &v, 8));
    EXPECT_EQ(v, i);
  }
  ASSERT_TRUE(nprt_test_spsc_pop(r.get(), &v, 8));
  EXPECT_EQ(v, 99u);
  EXPECT_FALSE(nprt_test_spsc_pop(r.get(), &v, 8));
}

TEST(Spsc, WrapsAroundManyTimes) {
  SpscPtr r(nprt_test_spsc_create(4, 32));
  uint64_t sent = 0, got = 0;
  for (int round = 0; round < 1000; ++round) {
    // 3 in, 3 out: the indices cross the end of the ring at every offset.
    for (int k = 0; k < 3; ++k) {
      Rec<4> m = Rec<4>::make(sent++);
      ASSERT_TRUE(nprt_test_spsc_push(r.get(), &m, 32));
    }
    for (int k = 0; k < 3; ++k) {
      Rec<4> m;
      ASSERT_TRUE(nprt_test_spsc_pop(r.get(), &m, 32));
      ASSERT_TRUE(m.is(got++)) << "record " << got - 1;
    }
  }
}

TEST(Spsc, BurstsArePartialWhenTheRingIsNearlyFull) {
  SpscPtr r(nprt_test_spsc_create(16, 64));
  std::vector<Rec<8>> in(32), out(32);
  for (uint64_t i = 0; i < 32; ++i)
    in[i] = Rec<8>::make(i);
  // 5 in and out first, so that the next burst wraps.
  ASSERT_EQ(nprt_test_spsc_push_burst(r.get(), in.data(), 5, 64), 5u);
  ASSERT_EQ(nprt_test_spsc_pop_burst(r.get(), out.data(), 32, 64), 5u);
  EXPECT_EQ(nprt_test_spsc_push_burst(r.get(), in.data(), 32, 64), 16u);
  EXPECT_EQ(nprt_test_spsc_push_burst(r.get(), in.data(), 1, 64), 0u);
  EXPECT_EQ(nprt_test_spsc_pop_burst(r.get(), out.data(), 10, 64), 10u);
  for (uint64_t i = 0; i < 10; ++i)
    EXPECT_TRUE(out[i].is(i)) << i;
  EXPECT_EQ(nprt_test_spsc_push_burst(r.get(), in.data() + 16, 32 - 16, 64),
            10u);
  EXPECT_EQ(nprt_test_spsc_pop_burst(r.get(), out.data(), 32, 64), 16u);
  for (uint64_t i = 0; i < 16; ++i)
    EXPECT_TRUE(out[i].is(10 + i)) << i;
  EXPECT_EQ(nprt_test_spsc_pop_burst(r.get(), out.data(), 32, 64), 0u);
}

TEST(Spsc, DeferredWritesShowOnlyOncePublished) {
  SpscPtr r(nprt_test_spsc_create(8, 8));
  for (uint64_t i = 0; i < 3; ++i)
    ASSERT_TRUE(nprt_test_spsc_write64(r.get(), i));
  EXPECT_EQ(nprt_test_spsc_unpublished(r.get()), 3u);
  uint64_t v;
  EXPECT_FALSE(nprt_test_spsc_take64(r.get(), &v));
  nprt_test_spsc_publish(r.get());
  EXPECT_EQ(nprt_test_spsc_unpublished(r.get()), 0u);
  for (uint64_t i = 0; i < 3; ++i) {
    ASSERT_TRUE(nprt_test_spsc_take64(r.get(), &v));
    EXPECT_EQ(v, i);
  }
  EXPECT_FALSE(nprt_test_spsc_take64(r.get(), &v));
  // Read but not released: the producer still sees those slots taken.
  EXPECT_EQ(nprt_test_spsc_unreleased(r.get()), 3u);
  for (uint64_t i = 3; i < 8; ++i)
    ASSERT_TRUE(nprt_test_spsc_write64(r.get(), i));
  EXPECT_FALSE(nprt_test_spsc_write64(r.get(), 8));
  nprt_test_spsc_release(r.get());
  EXPECT_TRUE(nprt_test_spsc_write64(r.get(), 8));
}

// A producer and a consumer thread; `burst` 1 uses the single operations.
template <size_t Words> void spscStress(uint32_t slots, uint32_t burst) {
  constexpr size_t size = Words * 8;
  SpscPtr r(nprt_test_spsc_create(slots, size));
  std::thread producer([&] {
    std::vector<Rec<Words>> buf(burst);
    Backoff wait;
    uint64_t n = 0;
    while (n < kMessages) {
      uint32_t want = (uint32_t)std::min<uint64_t>(burst, kMessages - n);
      for (uint32_t k = 0; k < want; ++k)
        buf[k] = Rec<Words>::make(n + k);
      uint32_t done = 0;
      while (done < want) {
        uint32_t did = burst == 1 ? nprt_test_spsc_push(r.get(), &buf[0], size)
                                  : nprt_test_spsc_push_burst(
                                        r.get(), &buf[done], want - done, size);
        if (!did)
          wait();
        done += did;
      }
      n += want;
    }
  });
  std::vector<Rec<Words>> buf(burst);
  Backoff wait;
  uint64_t n = 0, bad = 0;
  while (n < kMessages) {
    uint32_t got =
        burst == 1 ? nprt_test_spsc_pop(r.get(), &buf[0], size)
                   : nprt_test_spsc_pop_burst(r.get(), buf.data(), burst, size);
    if (!got)
      wait();
    for (uint32_t k = 0; k < got; ++k, ++n)
      bad += !buf[k].is(n);
  }
  producer.join();
  EXPECT_EQ(bad, 0u);
  Rec<Words> extra;
  EXPECT_FALSE(nprt_test_spsc_pop(r.get(), &extra, size));
}

TEST(SpscThreads, Values) { spscStress<1>(1024, 1); }
TEST(SpscThreads, ValueBursts) { spscStress<1>(1024, 32); }
TEST(SpscThreads, LaneMessages) { spscStress<4>(512, 1); }
TEST(SpscThreads, LaneMessageBursts) { spscStress<4>(1024, 32); }
TEST(SpscThreads, Messages64) { spscStress<8>(256, 1); }
TEST(SpscThreads, Message64Bursts) { spscStress<8>(1024, 32); }

TEST(Mpsc, FullEmptyAndWrapAround) {
  EXPECT_EQ(nprt_test_mpsc_create(6), nullptr);
  MpscPtr r(nprt_test_mpsc_create(4));
  uint64_t v;
  EXPECT_FALSE(nprt_test_mpsc_pop(r.get(), &v));
  uint64_t sent = 0, got = 0;
  for (int round = 0; round < 100; ++round) {
    while (nprt_test_mpsc_push(r.get(), sent))
      ++sent;
    EXPECT_EQ(sent - got, 4u);
    for (int k = 0; k < 3; ++k) {
      ASSERT_TRUE(nprt_test_mpsc_pop(r.get(), &v));
      EXPECT_EQ(v, got++);
    }
  }
  while (nprt_test_mpsc_pop(r.get(), &v))
    EXPECT_EQ(v, got++);
  EXPECT_EQ(got, sent);
}

TEST(Mpsc, BurstsAreAllOrNothing) {
  MpscPtr r(nprt_test_mpsc_create(8));
  uint64_t in[8] = {10, 11, 12, 13, 14, 15, 16, 17}, out[8];
  ASSERT_TRUE(nprt_test_mpsc_push_burst(r.get(), in, 5));
  EXPECT_FALSE(nprt_test_mpsc_push_burst(r.get(), in, 4));
  EXPECT_TRUE(nprt_test_mpsc_push_burst(r.get(), in + 5, 3));
  EXPECT_FALSE(nprt_test_mpsc_push(r.get(), 0));
  EXPECT_EQ(nprt_test_mpsc_pop_burst(r.get(), out, 6), 6u);
  EXPECT_TRUE(nprt_test_mpsc_push_burst(r.get(), in, 6)); // wraps
  EXPECT_EQ(nprt_test_mpsc_pop_burst(r.get(), out, 8), 8u);
  EXPECT_EQ(out[0], 16u);
  EXPECT_EQ(out[1], 17u);
  for (int k = 0; k < 6; ++k)
    EXPECT_EQ(out[2 + k], in[k]);
  EXPECT_EQ(nprt_test_mpsc_pop_burst(r.get(), out, 8), 0u);
}

// Three producers (one pushing bursts) into one consumer: every value
// arrives once, and each producer's in the order it pushed them.
TEST(MpscThreads, FanIn) {
  constexpr uint32_t kProducers = 3;
  MpscPtr r(nprt_test_mpsc_create(1024));
  std::vector<std::thread> producers;
  for (uint32_t p = 0; p < kProducers; ++p)
    producers.emplace_back([&, p] {
      Backoff wait;
      uint64_t tag = (uint64_t)p << 48;
      for (uint64_t n = 0; n < kMessages;) {
        if (p == 0) {
          uint64_t burst[kBurst];
          uint32_t want = (uint32_t)std::min<uint64_t>(kBurst, kMessages - n);
          for (uint32_t k = 0; k < want; ++k)
            burst[k] = tag | (n + k);
          if (nprt_test_mpsc_push_burst(r.get(), burst, want))
            n += want;
          else
            wait();
        } else if (nprt_test_mpsc_push(r.get(), tag | n)) {
          ++n;
        } else {
          wait();
        }
      }
    });
  std::vector<uint64_t> next(kProducers, 0);
  uint64_t total = 0, bad = 0;
  uint64_t buf[32];
  Backoff wait;
  while (total < kProducers * kMessages) {
    uint32_t got = nprt_test_mpsc_pop_burst(r.get(), buf, 32);
    if (!got)
      wait();
    for (uint32_t k = 0; k < got; ++k) {
      uint64_t p = buf[k] >> 48, n = buf[k] & ((1ull << 48) - 1);
      if (p >= kProducers || n != next[p]++)
        ++bad;
    }
    total += got;
  }
  for (auto &t : producers)
    t.join();
  EXPECT_EQ(bad, 0u);
  uint64_t v;
  EXPECT_FALSE(nprt_test_mpsc_pop(r.get(), &v));
}

} // namespace
