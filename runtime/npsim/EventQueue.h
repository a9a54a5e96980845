//===- EventQueue.h - npsim's pending events, earliest first --------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// A four-ary min-heap of events ordered by (time, sequence number). The
// engine pops one event for every step of the simulation, so this is its
// hottest structure: four children per node halve the heap's depth against
// a binary heap, and sifting moves a hole instead of swapping.
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_RUNTIME_NPSIM_EVENTQUEUE_H
#define NPCC_RUNTIME_NPSIM_EVENTQUEUE_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace npcc::npsim {

template <typename E> class EventQueue {
public:
  bool empty() const { return heap.empty(); }
  size_t size() const { return heap.size(); }
  const E &top() const { return heap.front(); }

  void push(const E &e) {
    size_t i = heap.size();
    heap.push_back(e);
    while (i > 0) {
      size_t parent = (i - 1) / 4;
      if (!before(e, heap[parent]))
        break;
      heap[i] = heap[parent];
      i = parent;
    }
    heap[i] = e;
  }

  void pop() {
    E last = heap.back();
    heap.pop_back();
    size_t n = heap.size();
    if (n == 0)
      return;
    size_t i = 0;
    for (;;) {
      size_t first = 4 * i + 1;
      if (first >= n)
        break;
      size_t best = first;
      size_t end = first + 4 < n ? first + 4 : n;
      for (size_t k = first + 1; k < end; ++k)
        if (before(heap[k], heap[best]))
          best = k;
      if (!before(heap[best], last))
        break;
      heap[i] = heap[best];
      i = best;
    }
    heap[i] = last;
  }

private:
  static bool before(const E &a, const E &b) {
    return a.t != b.t ? a.t < b.t : a.seq < b.seq;
  }
  std::vector<E> heap;
};

} // namespace npcc::npsim

#endif // NPCC_RUNTIME_NPSIM_EVENTQUEUE_H
