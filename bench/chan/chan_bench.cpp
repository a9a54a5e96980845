//===- chan_bench.cpp - channel throughput: npcc vs boost vs DPDK -*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Two threads pinned to two CPUs, a producer and a consumer, move N
// messages through one ring. Modes: 8-byte and 64-byte messages, one at a
// time and in bursts of 32. Each mode runs every implementation `runs`
// times, interleaved (npcc, boost, dpdk, npcc, ...) so that a change in
// the machine's load hits all of them alike, and prints the median rate in
// millions of messages per second and npcc's ratio to each peer, then the
// same for the best run of each. A run
// whose consumer saw a message out of order, torn, or a wrong checksum
// fails the benchmark (exit 1).
//
// usage: chan-bench [--messages N] [--runs R] [--cpus A,B]
//
//===----------------------------------------------------------------------===//
#include "bench/chan/chan_bench.h"

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

void pin(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

uint64_t expectedSum(unsigned size, uint64_t n) {
  uint64_t tri = n % 2 ? (n - 1) / 2 * n : n / 2 * (n - 1); // n(n-1)/2
  if (size == 8)
    return tri;
  return tri * 0x9e3779b97f4a7c15ull + 7 * n; // chan_word(i, 7), summed
}

// One run: messages per second, or a negative value when the consumer
// found a wrong message.
double measure(const chan_impl &impl, unsigned size, unsigned burst, uint64_t n,
               int cpuA, int cpuB) {
  void *ring = impl.create(size);
  if (!ring) {
    std::fprintf(stderr, "chan-bench: %s: cannot create a ring\n", impl.name);
    std::exit(1);
  }
  std::atomic<int> ready{0};
  std::atomic<bool> go{false};
  chan_result res{};
  std::thread producer([&] {
    pin(cpuA);
    ready.fetch_add(1);
    while (!go.load(std::memory_order_acquire))
      chan_relax();
    impl.produce(ring, size, n, burst);
  });
  std::thread consumer([&] {
    pin(cpuB);
    ready.fetch_add(1);
    while (!go.load(std::memory_order_acquire))
      chan_relax();
    res = impl.consume(ring, size, n, burst);
  });
  while (ready.load() != 2)
    std::this_thread::yield();
  auto t0 = std::chrono::steady_clock::now();
  go.store(true, std::memory_order_release);
  producer.join();
  consumer.join();
  auto t1 = std::chrono::steady_clock::now();
  impl.destroy(ring, size);
  if (res.bad || res.sum != expectedSum(size, n)) {
    std::fprintf(stderr,
                 "chan-bench: %s, %u-byte messages, burst %u: %llu messages "
                 "wrong, checksum %llx (expected %llx)\n",
                 impl.name, size, burst, (unsigned long long)res.bad,
                 (unsigned long long)res.sum,
                 (unsigned long long)expectedSum(size, n));
    return -1;
  }
  return double(n) / std::chrono::duration<double>(t1 - t0).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

} // namespace

int main(int argc, char **argv) {
  uint64_t n = 20000000;
  int runs = 5, cpuA = 0, cpuB = 1;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--messages" && i + 1 < argc)
      n = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--runs" && i + 1 < argc)
      runs = std::atoi(argv[++i]);
    else if (a == "--cpus" && i + 1 < argc &&
             std::sscanf(argv[++i], "%d,%d", &cpuA, &cpuB) == 2)
      ;
    else {
      std::fprintf(
          stderr, "usage: chan-bench [--messages N] [--runs R] [--cpus A,B]\n");
      return 2;
    }
  }
  if (n == 0 || runs <= 0) {
    std::fprintf(stderr, "chan-bench: --messages and --runs must be > 0\n");
    return 2;
  }
  const chan_impl *impls[] = {&chan_npcc, &chan_boost, &chan_dpdk};
  struct Mode {
    unsigned size, burst;
  } modes[] = {{8, 1}, {8, 32}, {64, 1}, {64, 32}};
  std::printf("%-22s %8s %8s %8s %11s %10s\n", "mode", "npcc", "boost", "dpdk",
              "npcc/boost", "npcc/dpdk");
  std::printf("%-22s %8s %8s %8s\n", "", "M msg/s", "M msg/s", "M msg/s");
  int rc = 0;
  for (const Mode &m : modes) {
    std::vector<double> rates[3];
    for (int r = 0; r < runs; ++r)
      for (int k = 0; k < 3; ++k) {
        double rate = measure(*impls[k], m.size, m.burst, n, cpuA, cpuB);
        if (rate < 0)
          rc = 1;
        rates[k].push_back(rate);
      }
    double med[3], top[3];
    for (int k = 0; k < 3; ++k) {
      med[k] = median(rates[k]) / 1e6;
      top[k] = *std::max_element(rates[k].begin(), rates[k].end()) / 1e6;
    }
    char name[32];
    std::snprintf(name, sizeof(name), "%u-byte, %s", m.size,
                  m.burst == 1 ? "single" : "burst 32");
    std::printf("%-22s %8.1f %8.1f %8.1f %10.2fx %9.2fx\n", name, med[0],
                med[1], med[2], med[0] / med[1], med[0] / med[2]);
    std::snprintf(name, sizeof(name), "  best of %d", runs);
    std::printf("%-22s %8.1f %8.1f %8.1f %10.2fx %9.2fx\n", name, top[0],
                top[1], top[2], top[0] / top[1], top[0] / top[2]);
    std::fflush(stdout);
  }
  std::printf("%llu messages per run; per mode the median of %d runs, then "
              "the best (on a loaded machine, where another process takes "
              "one of the CPUs, the best is nearer what the rings can do); "
              "CPUs %d and %d\n",
              (unsigned long long)n, runs, cpuA, cpuB);
  return rc;
}
