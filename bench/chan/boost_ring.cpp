//===- boost_ring.cpp - the bench's loops over boost's spsc_queue -*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// boost::lockfree::spsc_queue with its capacity fixed at compile time (the
// fastest form), CHAN_SLOTS messages; bursts through its array push/pop.
//
//===----------------------------------------------------------------------===//
#include "bench/chan/chan_bench.h"

#include <boost/lockfree/spsc_queue.hpp>

namespace {

template <typename T>
using Queue =
    boost::lockfree::spsc_queue<T, boost::lockfree::capacity<CHAN_SLOTS>>;

void fill(uint64_t &m, uint64_t i) { m = i; }
bool check(const uint64_t &m, uint64_t i, uint64_t &sum) {
  sum += m;
  return m == i;
}
void fill(chan_msg64 &m, uint64_t i) {
  for (unsigned k = 0; k < 8; ++k)
    m.w[k] = chan_word(i, k);
}
bool check(const chan_msg64 &m, uint64_t i, uint64_t &sum) {
  sum += m.w[7];
  return m.w[0] == chan_word(i, 0) && m.w[7] == chan_word(i, 7);
}

template <typename T> void produce(Queue<T> &q, uint64_t n, unsigned burst) {
  T buf[32];
  if (burst == 1) {
    for (uint64_t i = 0; i < n; ++i) {
      fill(buf[0], i);
      while (!q.push(buf[0]))
        chan_relax();
    }
    return;
  }
  for (uint64_t i = 0; i < n;) {
    unsigned want = n - i < burst ? unsigned(n - i) : burst;
    for (unsigned k = 0; k < want; ++k)
      fill(buf[k], i + k);
    unsigned done = 0;
    while (done < want) {
      unsigned did = unsigned(q.push(buf + done, want - done));
      if (!did)
        chan_relax();
      done += did;
    }
    i += want;
  }
}

template <typename T>
chan_result consume(Queue<T> &q, uint64_t n, unsigned burst) {
  chan_result r = {0, 0};
  T buf[32];
  for (uint64_t i = 0; i < n;) {
    unsigned got =
        burst == 1 ? unsigned(q.pop(buf[0])) : unsigned(q.pop(buf, burst));
    if (!got)
      chan_relax();
    for (unsigned k = 0; k < got; ++k, ++i)
      r.bad += !check(buf[k], i, r.sum);
  }
  return r;
}

void *boostCreate(unsigned size) {
  if (size == 8)
    return new Queue<uint64_t>();
  return new Queue<chan_msg64>();
}
void boostDestroy(void *ring, unsigned size) {
  if (size == 8)
    delete static_cast<Queue<uint64_t> *>(ring);
  else
    delete static_cast<Queue<chan_msg64> *>(ring);
}
void boostProduce(void *ring, unsigned size, uint64_t n, unsigned burst) {
  if (size == 8)
    produce(*static_cast<Queue<uint64_t> *>(ring), n, burst);
  else
    produce(*static_cast<Queue<chan_msg64> *>(ring), n, burst);
}
chan_result boostConsume(void *ring, unsigned size, uint64_t n,
                         unsigned burst) {
  if (size == 8)
    return consume(*static_cast<Queue<uint64_t> *>(ring), n, burst);
  return consume(*static_cast<Queue<chan_msg64> *>(ring), n, burst);
}

} // namespace

extern "C" const chan_impl chan_boost = {"boost", boostCreate, boostDestroy,
                                         boostProduce, boostConsume};
