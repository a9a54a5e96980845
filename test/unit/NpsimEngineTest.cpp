//===- NpsimEngineTest.cpp - npsim's machine, cycle by cycle --------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Each case is small enough to work out by hand; the comment above the
// expectations shows the arithmetic (docs/npsim.md, "The model").
//
//===----------------------------------------------------------------------===//

#include "runtime/npsim/Engine.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <tuple>

using namespace npcc::npsim;

namespace {

/// A machine with one chip memory "shared" (latency 10, one bank busy 4
/// cycles per beat of 8 bytes, beside the interconnect) and a local one.
const char *kMachine = R"(
name = "unit"
clock_mhz = 100
[core]
count = 2
contexts = 2
switch_cycles = 2
[interconnect]
latency = 0
ports = 4
[memory.local]
scope = "core"
capacity = 4096
latency = 1
banks = 1
via_interconnect = false
[memory.shared]
scope = "chip"
capacity = "64KiB"
latency = 10
banks = 1
bank_cycles = 4
width = 8
via_interconnect = false
[placement]
state = "local"
state_once = "shared"
shared = "shared"
tables = "shared"
packets = "shared"
lanes = "shared"
engines = "shared"
os = "shared"
[lock]
kind = "none"
)";

Config machine(std::vector<std::string> overrides = {}) {
  Config cfg;
  std::string err;
  EXPECT_TRUE(parseConfig(kMachine, "unit.toml", overrides, cfg, err)) << err;
  return cfg;
}

/// Runs `body` as the context on (core, slot), recording its end time.
struct Job {
  std::function<void(Engine &)> body;
  Engine *eng = nullptr;
  Cycle end = 0;
  static void run(void *p) {
    auto *j = static_cast<Job *>(p);
    j->body(*j->eng);
    j->end = j->eng->now();
  }
};

void spawn(Engine &e, Job &j, uint32_t core, uint32_t slot) {
  j.eng = &e;
  ASSERT_TRUE(e.spawn(core, slot, &Job::run, &j));
}

int mem(const Config &c, const char *name) { return c.memoryIndex(name); }

} // namespace

TEST(NpsimEngine, ComputeAdvancesTheContextClock) {
  Config cfg = machine();
  Engine e(cfg, 1, 1);
  Job j{[](Engine &e) { e.compute(100); }};
  spawn(e, j, 0, 0);
  EXPECT_EQ(e.run(), 100u);
  EXPECT_EQ(j.end, 100u);
  EXPECT_EQ(e.cores[0]->busy, 100u);
  EXPECT_EQ(e.cores[0]->idle, 0u);
}

TEST(NpsimEngine, LocalMemoryStallsWithoutAnEvent) {
  Config cfg = machine();
  Engine e(cfg, 1, 1);
  int local = mem(cfg, "local");
  Job j{[&](Engine &e) {
    e.access(local, 0, 0, 4, false);
    e.access(local, 0, 8, 4, true);
  }};
  spawn(e, j, 0, 0);
  EXPECT_EQ(e.run(), 2u);
  EXPECT_EQ(e.cores[0]->stalled, 2u);
}

// Two cores read the one bank at cycle 0. The first is served at once:
// data at 0 + 10 = 10, the bank busy until 4. The second waits 4 cycles
// for the bank: data at 4 + 10 = 14, and the bank counts 4 conflict cycles.
TEST(NpsimEngine, TwoCoresOnOneBankQueue) {
  Config cfg = machine();
  Engine e(cfg, 2, 1);
  int shared = mem(cfg, "shared");
  Job a{[&](Engine &e) { e.access(shared, 0, 0, 8, false); }};
  Job b{[&](Engine &e) { e.access(shared, 0, 64, 8, false); }};
  spawn(e, a, 0, 0);
  spawn(e, b, 1, 0);
  e.run();
  EXPECT_EQ(a.end, 10u);
  EXPECT_EQ(b.end, 14u);
  EXPECT_EQ(e.memories[size_t(shared)].copies[0].stats[0].conflict, 4u);
  EXPECT_EQ(e.memories[size_t(shared)].copies[0].stats[0].accesses, 2u);
}

// The same two reads on two banks (interleave 64) do not wait.
TEST(NpsimEngine, TwoBanksServeTogether) {
  Config cfg = machine({"memory.shared.banks=2"});
  Engine e(cfg, 2, 1);
  int shared = mem(cfg, "shared");
  Job a{[&](Engine &e) { e.access(shared, 0, 0, 8, false); }};
  Job b{[&](Engine &e) { e.access(shared, 0, 64, 8, false); }};
  spawn(e, a, 0, 0);
  spawn(e, b, 1, 0);
  e.run();
  EXPECT_EQ(a.end, 10u);
  EXPECT_EQ(b.end, 10u);
}

// A 32-byte read is 4 beats: the bank is busy 16 cycles and the last beat
// comes 12 cycles after the first: 0 + 10 + 12 = 22.
TEST(NpsimEngine, BeatsOfAWideAccess) {
  Config cfg = machine();
  Engine e(cfg, 1, 1);
  Job a{[&](Engine &e) { e.access(mem(cfg, "shared"), 0, 0, 32, false); }};
  spawn(e, a, 0, 0);
  e.run();
  EXPECT_EQ(a.end, 22u);
}

// One core, two contexts, switch 2. Context 0 reads at 0 (data at 10) and
// sleeps; the core switches to context 1 (2 cycles), which computes 5 and
// reads at 7: the bank is free again (busy 0..4), data at 17. The core idles
// from 7; context 0 is ready at 10 and starts at 12 after the switch, and
// ends there. Context 1 is ready at 17 and starts at 19.
TEST(NpsimEngine, ContextSwitchHidesLatency) {
  Config cfg = machine();
  Engine e(cfg, 1, 2);
  int shared = mem(cfg, "shared");
  Job a{[&](Engine &e) { e.access(shared, 0, 0, 8, false); }};
  Job b{[&](Engine &e) {
    e.compute(5);
    e.access(shared, 0, 0, 8, false);
  }};
  spawn(e, a, 0, 0);
  spawn(e, b, 0, 1);
  EXPECT_EQ(e.run(), 19u);
  EXPECT_EQ(a.end, 12u);
  EXPECT_EQ(b.end, 19u);
  Core &c = *e.cores[0];
  EXPECT_EQ(c.switches, 3u);
  EXPECT_EQ(c.switching, 6u);
  EXPECT_EQ(c.busy, 5u);
  // Idle from 7 to 10 and from 12 to 17.
  EXPECT_EQ(c.idle, 8u);
}

// With one context the same two reads take 10 + 10 = 20 and never switch.
TEST(NpsimEngine, OneContextWaitsItsLatency) {
  Config cfg = machine();
  Engine e(cfg, 1, 1);
  int shared = mem(cfg, "shared");
  Job a{[&](Engine &e) {
    e.access(shared, 0, 0, 8, false);
    e.access(shared, 0, 0, 8, false);
  }};
  spawn(e, a, 0, 0);
  EXPECT_EQ(e.run(), 20u);
  EXPECT_EQ(e.cores[0]->switches, 0u);
  EXPECT_EQ(e.contexts[0]->waited, 20u);
}

// The interconnect admits `ports` requests per cycle: with one port, of
// two requests issued at 0 the second enters at 1. Its latency (3) is paid
// both ways: 0 + 3 + 10 + 3 = 16, and 1 + 3 + 10 + 3 = 17 on another bank.
TEST(NpsimEngine, InterconnectPortsAndLatency) {
  Config cfg =
      machine({"interconnect.ports=1", "interconnect.latency=3",
               "memory.shared.via_interconnect=true", "memory.shared.banks=2"});
  Engine e(cfg, 2, 1);
  int shared = mem(cfg, "shared");
  Job a{[&](Engine &e) { e.access(shared, 0, 0, 8, false); }};
  Job b{[&](Engine &e) { e.access(shared, 0, 64, 8, false); }};
  spawn(e, a, 0, 0);
  spawn(e, b, 1, 0);
  e.run();
  EXPECT_EQ(a.end, 16u);
  EXPECT_EQ(b.end, 17u);
  EXPECT_EQ(e.icConflict, 1u);
}

// Posted writes occupy the bank but the context goes on after one cycle.
TEST(NpsimEngine, PostedWritesDoNotWait) {
  Config cfg = machine({"core.posted_writes=true"});
  Engine e(cfg, 1, 1);
  int shared = mem(cfg, "shared");
  Job a{[&](Engine &e) {
    e.access(shared, 0, 0, 8, true);
    // The read finds the bank busy until 4 with the write: 4 + 10 = 14.
    e.access(shared, 0, 0, 8, false);
  }};
  spawn(e, a, 0, 0);
  e.run();
  EXPECT_EQ(a.end, 14u);
  EXPECT_EQ(e.memories[size_t(shared)].writes, 1u);
}

// A data cache: the first read misses and fills a 32-byte line (4 beats:
// 10 + 12 = 22), the second read of the same line hits (1 cycle).
TEST(NpsimEngine, DataCacheHitsAfterAFill) {
  Config cfg;
  std::string err;
  std::string text = std::string(kMachine) +
                     "[cache.dcache]\nsize = 1024\nline = 32\nhit = 1\n";
  ASSERT_TRUE(parseConfig(text, "unit.toml", {}, cfg, err)) << err;
  Engine e(cfg, 1, 1);
  int shared = mem(cfg, "shared");
  Job a{[&](Engine &e) {
    e.access(shared, 0, 4, 4, false);
    e.access(shared, 0, 8, 4, false);
  }};
  spawn(e, a, 0, 0);
  e.run();
  EXPECT_EQ(a.end, 23u);
  EXPECT_EQ(e.cores[0]->dcache.hits, 1u);
  EXPECT_EQ(e.cores[0]->dcache.misses, 1u);
}

// A coprocessor with one unit of latency 20: two requests at 0 from two
// cores: the second queues 20 cycles and ends at 40.
TEST(NpsimEngine, CoprocessorQueues) {
  Config cfg;
  std::string err;
  std::string text =
      std::string(kMachine) + "[coprocessor.crc]\nunits = 1\nlatency = 20\n";
  ASSERT_TRUE(parseConfig(text, "unit.toml", {}, cfg, err)) << err;
  Engine e(cfg, 2, 1);
  Job a{[&](Engine &e) { e.coproc(0, 4, 99); }};
  Job b{[&](Engine &e) { e.coproc(0, 4, 99); }};
  spawn(e, a, 0, 0);
  spawn(e, b, 1, 0);
  e.run();
  EXPECT_EQ(a.end, 20u);
  EXPECT_EQ(b.end, 40u);
  EXPECT_EQ(e.coprocs[0].queued, 20u);
  // Without the unit the work is done in software on the core.
  Engine s(machine(), 1, 1);
  Job c{[&](Engine &e) { e.coproc(0, 4, 99); }};
  spawn(s, c, 0, 0);
  EXPECT_EQ(s.run(), 99u);
}

// Spinlock (backoff 8): core 0 takes the lock with a test-and-set at 0
// (data at 10), works 30 and releases it with a store at 40 (1 cycle: it
// ends at 41). Core 1 tries at 1 and finds it taken; each try is an access
// to the lock word's bank, and after each it backs off 8 cycles.
TEST(NpsimEngine, SpinlockRetriesUntilFree) {
  Config cfg = machine({"lock.kind=\"spinlock\"", "lock.spin_backoff=8"});
  Engine e(cfg, 2, 1);
  Lock l;
  l.memory = mem(cfg, "shared");
  Cycle got = 0;
  Job a{[&](Engine &e) {
    e.lock(l);
    e.compute(30);
    e.unlock(l);
  }};
  Job b{[&](Engine &e) {
    e.compute(1);
    e.lock(l);
    got = e.now();
    e.unlock(l);
  }};
  spawn(e, a, 0, 0);
  spawn(e, b, 1, 0);
  e.run();
  EXPECT_EQ(a.end, 41u);
  // Core 1's tries: at 1 the bank is busy with core 0's try until 4: data
  // at 14; backoff to 22: data at 32; backoff to 40, where the release
  // came first (made earlier in the same cycle): the lock is free, but the
  // store holds the bank until 44: data at 54. Then its own release, +1.
  EXPECT_EQ(l.tries, 4u);
  EXPECT_EQ(got, 54u);
  EXPECT_EQ(l.contended, 1u);
  EXPECT_EQ(b.end, 55u);
}

// Mutex (scheduler: 5 cycles and 2 accesses to its data, in the same bank):
// core 0 takes the lock at 0 (data at 10) and works to 110. Core 1 tries at
// 1 (bank busy until 4: data at 14), goes through the scheduler (5 cycles,
// reads at 19 -> 29, writes at 29 -> 39) and sleeps in the lock's queue.
// Its core has nothing else to run: the scheduler's idle loop reads the
// ready list every 5 cycles after the answer (44, 59, 74, 89, 104, ...).
// Core 0 releases at 110 (store, bank until 114; +1), wakes core 1 through
// the scheduler (5 cycles; read at 116 -> 126, write at 126: the idle loop's
// read at 119 took 120..124, so data at 136) and ends at 136. Core 1 goes
// back through the scheduler: 5 cycles, read at 141 (the poll of 135 held
// the bank until 139) -> 151, write 151 -> 161: it has the lock at 161.
TEST(NpsimEngine, MutexSleepsAndIsHandedTheLock) {
  Config cfg = machine(
      {"lock.kind=\"mutex\"", "lock.sched_cycles=5", "lock.sched_accesses=2"});
  Engine e(cfg, 2, 1);
  Lock l;
  l.memory = mem(cfg, "shared");
  Cycle got = 0;
  Job a{[&](Engine &e) {
    e.lock(l);
    e.compute(100);
    e.unlock(l);
  }};
  Job b{[&](Engine &e) {
    e.compute(1);
    e.lock(l);
    got = e.now();
    e.unlock(l);
  }};
  spawn(e, a, 0, 0);
  spawn(e, b, 1, 0);
  e.run();
  EXPECT_EQ(l.tries, 2u);
  EXPECT_EQ(l.contended, 1u);
  EXPECT_TRUE(l.owner == nullptr);
  EXPECT_EQ(a.end, 136u);
  EXPECT_EQ(got, 161u);
  EXPECT_EQ(b.end, 162u);
  EXPECT_EQ(l.waitCycles, 10u + 160u);
}

// Two runs of the same machine give the same cycles.
TEST(NpsimEngine, Deterministic) {
  auto once = [](std::vector<Cycle> &ends) {
    Config cfg = machine({"memory.shared.banks=2"});
    Engine e(cfg, 2, 2);
    int shared = mem(cfg, "shared");
    std::vector<Job> jobs(4);
    for (uint32_t i = 0; i < 4; ++i) {
      jobs[i].body = [&, i](Engine &e) {
        for (uint32_t k = 0; k < 50; ++k) {
          e.compute((i * 7 + k) % 5);
          e.access(shared, 0, (i * 64 + k * 8) % 512, 8, k % 3 == 0);
        }
      };
      spawn(e, jobs[i], i / 2, i % 2);
    }
    ends.push_back(e.run());
    for (Job &j : jobs)
      ends.push_back(j.end);
  };
  std::vector<Cycle> x, y;
  once(x);
  once(y);
  EXPECT_EQ(x, y);
}

// A context that polls for what another context of its core produces must
// let it run (yieldCore), even when its polls stall the core: one core,
// two contexts, the poll a stalling local-memory access.
TEST(NpsimEngine, PollingYieldsTheCore) {
  Config cfg = machine();
  Engine e(cfg, 1, 2);
  bool ready = false;
  uint32_t polls = 0;
  Job a{[&](Engine &e) {
    while (!ready) {
      ++polls;
      e.access(mem(cfg, "local"), 0, 0, 4, false);
      e.yieldCore();
    }
  }};
  Job b{[&](Engine &e) {
    e.compute(10);
    ready = true;
  }};
  spawn(e, a, 0, 0);
  spawn(e, b, 0, 1);
  e.run();
  // a polls once (1 cycle) and yields: the switch to b takes 1..3, b works
  // to 13 and ends; the switch back takes 13..15, and a finds it ready.
  EXPECT_EQ(polls, 1u);
  EXPECT_EQ(b.end, 13u);
  EXPECT_EQ(a.end, 15u);
}

// Tracing records each stretch a context held its core, cut where its tag
// changed: context 0 computes 3 with tag 5 and 2 with tag 6, reads (data
// at 15), then computes 1 more with tag 6; context 1 (the second core)
// computes 4 with tag 7.
TEST(NpsimEngine, TraceSlices) {
  Config cfg = machine();
  Engine e(cfg, 2, 1);
  e.tracing = true;
  Job a{[&](Engine &e) {
    e.setTag(5);
    e.compute(3);
    e.setTag(6);
    e.compute(2);
    e.access(mem(cfg, "shared"), 0, 0, 8, false);
    e.compute(1);
  }};
  Job b{[&](Engine &e) {
    e.setTag(7);
    e.compute(4);
  }};
  spawn(e, a, 0, 0);
  spawn(e, b, 1, 0);
  e.run();
  std::vector<std::tuple<uint32_t, uint32_t, Cycle, Cycle>> got;
  for (const Engine::Slice &s : e.slices)
    got.emplace_back(s.ctx, s.tag, s.start, s.end);
  std::sort(got.begin(), got.end());
  std::vector<std::tuple<uint32_t, uint32_t, Cycle, Cycle>> want = {
      {0, 5, 0, 3}, {0, 6, 3, 5}, {0, 6, 15, 16}, {1, 7, 0, 4}};
  EXPECT_EQ(got, want);
  // The tags' cycles include the wait for the read: 5 -> 3, 6 -> 13.
  EXPECT_EQ(e.tagCycles[5], 3u);
  EXPECT_EQ(e.tagCycles[6], 13u);
  EXPECT_EQ(e.tagCycles[7], 4u);
  // Each tag's span: tag 6 from 3 (its first cycle) to 16 (its last).
  EXPECT_EQ(e.tagFirst[6], 3u);
  EXPECT_EQ(e.tagLast[6], 16u);
  EXPECT_EQ(e.tagFirst[5], 0u);
  EXPECT_EQ(e.tagLast[5], 3u);
}
