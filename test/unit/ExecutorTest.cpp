//===- ExecutorTest.cpp - green-thread executor on small graphs -*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
#include "test/unit/Handlers.h"
#include "test/unit/JsonCheck.h"
#include "test/unit/TestUtil.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>

using namespace nprt_test;

namespace {

class Executor : public ::testing::Test {
protected:
  void SetUp() override {
    resetState();
    g = nprt_test_graph_create();
    nprt_options_init(&opts, "prog", "test");
    opts.quiet = true;
  }
  void TearDown() override {
    nprt_options_free(&opts);
    nprt_test_graph_destroy(g);
  }
  uint32_t add(const char *name, const char *element, const char *in,
               const char *out, nprt_fn handler,
               nprt_signal_fn signal = nullptr) {
    return nprt_graph_add_instance(g, name, element, in, out, nullptr, handler,
                                   signal, "host");
  }
  nprt_graph *g;
  nprt_options opts;
};

class ExecutorDepth : public Executor,
                      public ::testing::WithParamInterface<uint32_t> {};

TEST_P(ExecutorDepth, DeliversAllValuesInOrder) {
  uint32_t depth = GetParam();
  uint32_t p = add("p", "Src", "", "o", produce);
  uint32_t c = add("c", "Sink", "i", "", consume);
  nprt_graph_connect(g, p, 0, c, 0, depth, false);
  State[p].limit = 1000;
  RunResult r = run(g, opts);
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.err, "");
  ASSERT_EQ(State[c].got.size(), 1000u);
  for (uint64_t i = 0; i < 1000; ++i)
    ASSERT_EQ(State[c].got[i], i + 1);
  nprt_test_chan_stats s = nprt_test_graph_chan(g, 0);
  EXPECT_EQ(s.packets, 1000u);
  EXPECT_EQ(s.drops, 0u);
  // Depth-first: each value is handed to the waiting consumer at once.
  EXPECT_EQ(s.max_occupancy, 1u);
  EXPECT_EQ(nprt_test_inst(g, c).in_packets[0], 1000u);
  EXPECT_EQ(nprt_test_inst(g, p).out_packets[0], 1000u);
  // One iteration per value, plus possibly the one whose recv found the
  // channel closed (the idle rule may end the consumer before it starts).
  EXPECT_GE(nprt_test_inst(g, c).iterations, 1000u);
  EXPECT_LE(nprt_test_inst(g, c).iterations, 1001u);
}

INSTANTIATE_TEST_SUITE_P(Depths, ExecutorDepth,
                         ::testing::Values(0u, 1u, 4u, 64u));

// A program table as npcc emits it: each instance gets its own state
// object, filled from its image, and no instance sees another's.
TEST_F(Executor, LoadsAProgramWithOneStateObjectPerInstance) {
  static const uint64_t start = 100;
  // name, element, in, out, placement, init, handler, signal, timer,
  // timer_period, fini, state_size, state_init
  const nprt_instance_desc insts[] = {
      {"p1", "P", "", "o", "host", nullptr, produce, nullptr, nullptr, 0,
       nullptr, 0, nullptr},
      {"c1", "Acc", "i", "", "host", nullptr, accumulateInState, nullptr,
       nullptr, 0, nullptr, sizeof(uint64_t), &start},
      {"p2", "P", "", "o", "host", nullptr, produce, nullptr, nullptr, 0,
       nullptr, 0, nullptr},
      {"c2", "Acc", "i", "", "host", nullptr, accumulateInState, nullptr,
       nullptr, 0, nullptr, sizeof(uint64_t), nullptr}};
  const nprt_channel_desc chans[] = {{0, 0, 1, 0, 2, false},
                                     {2, 0, 3, 0, 2, false}};
  const nprt_program program = {"acc", insts, 4, chans, 2};
  nprt_graph_load(g, &program);
  State[0].limit = 3;
  State[2].limit = 4;
  RunResult r = run(g, opts);
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(State[1].got, (std::vector<uint64_t>{101, 103, 106}));
  EXPECT_EQ(State[3].got, (std::vector<uint64_t>{1, 3, 6, 10}));
}

/// An instance of element "E" at "host" running `fn`, pushed to on the
/// ports in `push`.
nprt_instance_desc desc(const char *name, const char *in, const char *out,
                        nprt_fn fn, uint64_t push) {
  nprt_instance_desc d{};
  d.name = name;
  d.element = "E";
  d.in_ports = in;
  d.out_ports = out;
  d.placement = "host";
  d.handler = fn;
  d.push_ports = push;
  return d;
}

TEST_F(Executor, PushedCallsOnlyWhereNothingDownstreamCanHoldThemUp) {
  // p -> a -> b -> c (c is no push handler): a pushed b would wait on c's
  // full channel with a's and p's stack, so neither a nor b is pushed to.
  // q -> d -> e, and d -> c lossy: both stay pushed (a lossy send never
  // waits).
  const nprt_instance_desc insts[] = {
      desc("p", "", "o", produce, 0), desc("a", "i", "o", pass, 1),
      desc("b", "i", "o", pass, 1),   desc("c", "i,j", "", consume, 0),
      desc("q", "", "o", produce, 0), desc("d", "i", "o,l", pass, 1),
      desc("e", "i", "", consume, 1)};
  const nprt_channel_desc chans[] = {
      {0, 0, 1, 0, 4, false}, {1, 0, 2, 0, 4, false}, {2, 0, 3, 0, 4, false},
      {4, 0, 5, 0, 4, false}, {5, 0, 6, 0, 4, false}, {5, 1, 3, 1, 4, true}};
  const nprt_program program = {"push", insts, 7, chans, 6};
  nprt_graph_load(g, &program);
  EXPECT_EQ(nprt_test_inst(g, 1).push_ports, 0u);
  EXPECT_EQ(nprt_test_inst(g, 2).push_ports, 0u);
  EXPECT_EQ(nprt_test_inst(g, 5).push_ports, 1u);
  EXPECT_EQ(nprt_test_inst(g, 6).push_ports, 1u);
}

// Fused channels (np-fuse): p2 -> a2 -> c2 makes the calls the runtime
// makes for p1 -> a1 -> c1 itself (produceFused calls passPush calls
// consumePush through nprt_fused_enter_val), and every counter comes out
// the same. A fused channel into an instance the runtime does not push to
// is refused when the program is loaded.
TEST_F(Executor, FusedCallsCountAsPushedCallsDo) {
  const nprt_instance_desc insts[] = {
      desc("p1", "", "o", produce, 0), desc("a1", "i", "o", pass, 1),
      desc("c1", "i", "", consume, 1), desc("p2", "", "o", produceFused, 0),
      desc("a2", "i", "o", pass, 1),   desc("c2", "i", "", consume, 1)};
  // src, src_port, dst, dst_port, depth, lossy, fused
  const nprt_channel_desc chans[] = {{0, 0, 1, 0, 4, false, false},
                                     {1, 0, 2, 0, 0, false, false},
                                     {3, 0, 4, 0, 4, false, true},
                                     {4, 0, 5, 0, 0, false, true}};
  const nprt_program program = {"fused", insts, 6, chans, 4};
  nprt_graph_load(g, &program);
  State[0].limit = State[3].limit = 500;
  RunResult r = run(g, opts);
  ASSERT_EQ(r.rc, 0) << r.err;
  ASSERT_EQ(State[2].got.size(), 500u);
  EXPECT_EQ(State[5].got, State[2].got);
  EXPECT_EQ(State[5].count, 500u); // every value by a direct call
  for (uint32_t k = 0; k < 3; ++k) {
    nprt_test_inst_stats d = nprt_test_inst(g, k), f = nprt_test_inst(g, k + 3);
    EXPECT_EQ(d.iterations, f.iterations) << k;
    EXPECT_EQ(d.in_packets[0], f.in_packets[0]) << k;
    EXPECT_EQ(d.out_packets[0], f.out_packets[0]) << k;
  }
  for (uint32_t k = 0; k < 2; ++k) {
    nprt_test_chan_stats d = nprt_test_graph_chan(g, k),
                         f = nprt_test_graph_chan(g, k + 2);
    EXPECT_EQ(d.packets, 500u) << k;
    EXPECT_EQ(d.packets, f.packets) << k;
    EXPECT_EQ(d.max_occupancy, f.max_occupancy) << k;
  }
}

TEST_F(Executor, RejectsAFusedChannelItDoesNotPushTo) {
  // a -> b -> c with c no push handler: b is not pushed to, so a's channel
  // into it cannot be fused.
  const nprt_instance_desc insts[] = {desc("a", "", "o", produce, 0),
                                      desc("b", "i", "o", pass, 1),
                                      desc("c", "i", "", consume, 0)};
  const nprt_channel_desc chans[] = {{0, 0, 1, 0, 4, false, true},
                                     {1, 0, 2, 0, 4, false, false}};
  const nprt_program program = {"fused", insts, 3, chans, 2};
  nprt_graph_load(g, &program);
  RunResult r = run(g, opts);
  EXPECT_NE(r.rc, 0);
  EXPECT_EQ(r.err, "prog: error: channel 'a.o' -> 'b.i' is fused, but its "
                   "consumer is not pushed to\n");
}

// Shared state: one object per entry of the program's `shared` table,
// filled from its image once; every instance whose `shared` names the
// entry sees the same object, the others none.
TEST_F(Executor, LoadsOneSharedObjectPerEntry) {
  static const uint64_t start = 100;
  const nprt_shared_desc shared[] = {{sizeof(uint64_t), &start},
                                     {sizeof(uint64_t), nullptr}};
  // name, element, in, out, placement, init, handler, signal, timer,
  // timer_period, fini, state_size, state_init, handlers, n_handlers,
  // push_ports, shared
  auto inst = [&](const char *name, const char *element, const char *in,
                  const char *out, nprt_fn handler,
                  const nprt_shared_desc *sh) {
    return nprt_instance_desc{name,    element, in,      out, "host",  nullptr,
                              handler, nullptr, nullptr, 0,   nullptr, 0,
                              nullptr, nullptr, 0,       0,   sh};
  };
  const nprt_instance_desc insts[] = {
      inst("p1", "P", "", "o", produce, nullptr),
      inst("c1", "Acc", "i", "", accumulateShared, &shared[0]),
      inst("p2", "P", "", "o", produce, nullptr),
      inst("c2", "Acc", "i", "", accumulateShared, &shared[0]),
      inst("p3", "P", "", "o", produce, nullptr),
      inst("c3", "Other", "i", "", accumulateShared, &shared[1])};
  const nprt_channel_desc chans[] = {
      {0, 0, 1, 0, 2, false}, {2, 0, 3, 0, 2, false}, {4, 0, 5, 0, 2, false}};
  const nprt_program program = {"acc",   insts, 6,      chans, 3,
                                nullptr, 0,     shared, 2};
  nprt_graph_load(g, &program);
  State[0].limit = 3;
  State[2].limit = 2;
  State[4].limit = 2;
  RunResult r = run(g, opts);
  EXPECT_EQ(r.rc, 0) << r.err;
  // c1 adds 1, 2, 3 and c2 1, 2 to the one object they share (from 100),
  // in some order: the running sums they see, together, step from 100 by
  // exactly those values. c3 has its own object, from zeros.
  std::vector<uint64_t> all = State[1].got;
  all.insert(all.end(), State[3].got.begin(), State[3].got.end());
  std::sort(all.begin(), all.end());
  std::vector<uint64_t> steps;
  for (size_t k = 0; k < all.size(); ++k)
    steps.push_back(all[k] - (k ? all[k - 1] : start));
  std::sort(steps.begin(), steps.end());
  EXPECT_EQ(steps, (std::vector<uint64_t>{1, 1, 2, 2, 3}));
  EXPECT_EQ(State[5].got, (std::vector<uint64_t>{1, 3}));
}

TEST_F(Executor, RejectsSharedStateOutsideTheProgram) {
  static const nprt_shared_desc stray = {sizeof(uint64_t), nullptr};
  const nprt_instance_desc insts[] = {
      {"c", "Acc", "", "", "host", nullptr, accumulateShared, nullptr, nullptr,
       0, nullptr, 0, nullptr, nullptr, 0, 0, &stray}};
  const nprt_program program = {"acc", insts, 1, nullptr, 0};
  nprt_graph_load(g, &program);
  RunResult r = run(g, opts);
  EXPECT_NE(r.rc, 0);
  EXPECT_EQ(r.err, "prog: error: instance 'c' names shared state outside "
                   "the program\n");
}

TEST_F(Executor, RendezvousSenderWaitsForTheReceiver) {
  // With depth 0 the producer can never run ahead: each send completes only
  // after the consumer took the value, so the two strictly alternate.
  uint32_t p = add("p", "Src", "", "o", produce);
  uint32_t c = add("c", "Sink", "i", "", consume);
  nprt_graph_connect(g, p, 0, c, 0, 0, false);
  State[p].limit = 10;
  RunResult r = run(g, opts);
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(State[c].got.size(), 10u);
  EXPECT_EQ(nprt_test_graph_chan(g, 0).max_occupancy, 1u);
}

TEST_F(Executor, TerminationPropagatesDownAChain) {
  uint32_t p = add("p", "Src", "", "o", produce);
  uint32_t a = add("a", "Pass", "i", "o", pass);
  uint32_t b = add("b", "Pass", "i", "o", pass);
  uint32_t c = add("c", "Sink", "i", "", consume);
  nprt_graph_connect(g, p, 0, a, 0, 2, false);
  nprt_graph_connect(g, a, 0, b, 0, 3, false);
  nprt_graph_connect(g, b, 0, c, 0, 5, false);
  State[p].limit = 500;
  RunResult r = run(g, opts);
  ASSERT_EQ(r.rc, 0) << r.err;
  ASSERT_EQ(State[c].got.size(), 500u);
  EXPECT_EQ(State[c].got.back(), 500u);
  for (uint32_t i = 0; i < 3; ++i) {
    EXPECT_TRUE(nprt_test_graph_chan(g, i).closed) << i;
    EXPECT_TRUE(nprt_test_graph_chan(g, i).consumer_gone) << i;
  }
  EXPECT_EQ(nprt_test_inst(g, b).in_packets[0], 500u);
  EXPECT_EQ(nprt_test_inst(g, b).out_packets[0], 500u);
}

TEST_F(Executor, DrainedFeedbackLoopEndsCleanly) {
  // Two instances that each wait for the other, with nothing in flight:
  // nothing can ever arrive, and nothing is stuck. The run ends, exit 0.
  uint32_t a = add("a", "Ping", "i", "o", pass);
  uint32_t b = add("b", "Pong", "i", "o", pass);
  nprt_graph_connect(g, a, 0, b, 0, 4, false);
  nprt_graph_connect(g, b, 0, a, 0, 4, false);
  RunResult r = run(g, opts);
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.err, "");
}

TEST_F(Executor, DeadlockInSendIsReported) {
  uint32_t p = add("p", "Src", "", "o", produce);
  uint32_t q = add("q", "Wait", "i, ctl", "o", recvSecond);
  uint32_t r = add("r", "Loop", "i", "o", pass);
  nprt_graph_connect(g, p, 0, q, 0, 4, false);
  nprt_graph_connect(g, q, 0, r, 0, 4, false);
  nprt_graph_connect(g, r, 0, q, 1, 4, false);
  State[p].limit = 100;
  RunResult res = run(g, opts);
  EXPECT_EQ(res.rc, 3);
  EXPECT_NE(res.err.find("deadlock: instance 'p' (Src) blocked in send on "
                         "port 'o'\n"),
            std::string::npos)
      << res.err;
  EXPECT_NE(res.err.find("deadlock: instance 'q' (Wait) blocked in recv on "
                         "port 'ctl'\n"),
            std::string::npos)
      << res.err;
  // The four queued values were freed and counted when the run ended.
  EXPECT_EQ(nprt_test_graph_chan(g, 0).packets, 4u);
  EXPECT_EQ(nprt_test_graph_chan(g, 0).drops, 4u);
}

TEST_F(Executor, ConnectingAPortTwiceIsAnError) {
  uint32_t a = add("a", "Merge", "x, y", "o", selectConsume);
  uint32_t b = add("b", "Loop", "i", "o", pass);
  nprt_graph_connect(g, a, 0, b, 0, 1, false);
  nprt_graph_connect(g, b, 0, a, 0, 1, false);
  nprt_graph_connect(g, b, 0, a, 1, 1, false); // refused: connected twice
  RunResult r = run(g, opts);
  EXPECT_EQ(r.rc, 1);
  EXPECT_EQ(r.err, "prog: error: output port 'o' of 'b' is connected twice\n");
}

TEST_F(Executor, SelectBlocksAndReportsItsPorts) {
  // `a` selects only on `y`, fed back through `b`, while `p` fills `x`:
  // a value is stuck, so this is a deadlock, not a drained graph.
  uint32_t p = add("p", "Src", "", "o", produce);
  uint32_t a = add("a", "Merge", "x, y", "o", selectConsume);
  uint32_t b = add("b", "Loop", "i", "o", pass);
  nprt_graph_connect(g, p, 0, a, 0, 1, false);
  nprt_graph_connect(g, a, 0, b, 0, 1, false);
  nprt_graph_connect(g, b, 0, a, 1, 1, false);
  State[p].limit = 100;
  State[a].mask = 2;
  RunResult r = run(g, opts);
  EXPECT_EQ(r.rc, 3);
  EXPECT_NE(r.err.find("deadlock: instance 'a' (Merge) blocked in select on "
                       "ports 'y'\n"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("deadlock: instance 'p' (Src) blocked in send on "
                       "port 'o'\n"),
            std::string::npos)
      << r.err;
}

TEST_F(Executor, SelectIsRoundRobinAmongReadyPorts) {
  uint32_t p = add("p", "Src2", "", "a, b", produceTwo);
  uint32_t m = add("m", "Merge", "x, y", "", selectConsume);
  nprt_graph_connect(g, p, 0, m, 0, 64, false);
  nprt_graph_connect(g, p, 1, m, 1, 64, false);
  State[p].limit = 20;
  State[m].mask = 3;
  RunResult r = run(g, opts);
  ASSERT_EQ(r.rc, 0) << r.err;
  const std::vector<uint64_t> &got = State[m].got;
  ASSERT_EQ(got.size(), 40u);
  for (uint64_t i = 0; i < 40; ++i)
    EXPECT_EQ(got[i], (i % 2) * 1000000 + i / 2 + 1) << i;
}

TEST_F(Executor, SelectHonoursTheMask) {
  uint32_t p = add("p", "Src2", "", "a, b", produceTwo);
  uint32_t m = add("m", "Merge", "x, y", "", selectConsume);
  nprt_graph_connect(g, p, 0, m, 0, 64, false);
  nprt_graph_connect(g, p, 1, m, 1, 64, false);
  State[p].limit = 10;
  State[m].mask = 2;
  RunResult r = run(g, opts);
  ASSERT_EQ(r.rc, 0) << r.err;
  ASSERT_EQ(State[m].got.size(), 10u);
  EXPECT_EQ(State[m].got[0], 1000001u);
  // What was left on port 0 was freed and counted as drops.
  EXPECT_EQ(nprt_test_graph_chan(g, 0).drops, 10u);
}

TEST_F(Executor, LossyChannelCountsDrops) {
  // `c` receives from `x` only when woken through `y`, which `p` feeds
  // every fifth value: the lossy ring of depth 4 before it overflows.
  uint32_t p = add("p", "Src", "", "o, tick", produceWithTicks);
  uint32_t c = add("c", "Sink", "x, y", "", drainOnTick);
  nprt_graph_connect(g, p, 0, c, 0, 4, true);
  nprt_graph_connect(g, p, 1, c, 1, 4, false);
  State[p].limit = 100;
  RunResult r = run(g, opts);
  ASSERT_EQ(r.rc, 0) << r.err;
  nprt_test_chan_stats s = nprt_test_graph_chan(g, 0);
  // Of every ten values, four fit in the ring before the tick lets `c`
  // drain it; the other six are dropped and counted.
  EXPECT_EQ(s.packets, 40u);
  EXPECT_EQ(s.drops, 60u);
  ASSERT_EQ(State[c].got.size(), 40u);
  EXPECT_EQ(State[c].got[3], 4u);
  EXPECT_EQ(State[c].got[4], 11u);
  EXPECT_EQ(nprt_test_inst(g, p).drops, 60u);
  EXPECT_EQ(nprt_test_inst(g, p).out_drops[0], 60u);
  EXPECT_EQ(nprt_test_inst(g, p).out_packets[0], 40u);
}

TEST_F(Executor, SendToUnconnectedPortIsACountedDrop) {
  uint32_t p = add("p", "Src2", "", "a, b", produceTwo);
  uint32_t c = add("c", "Sink", "i", "", consume);
  nprt_graph_connect(g, p, 0, c, 0, 8, false);
  State[p].limit = 30;
  RunResult r = run(g, opts);
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(State[c].got.size(), 30u);
  nprt_test_inst_stats s = nprt_test_inst(g, p);
  EXPECT_EQ(s.out_packets[0], 30u);
  EXPECT_EQ(s.out_packets[1], 0u);
  EXPECT_EQ(s.out_drops[1], 30u);
  EXPECT_EQ(s.drops, 30u);
}

TEST_F(Executor, RecvFromUnconnectedPortEndsTheInstance) {
  uint32_t c = add("c", "Sink", "i", "", consume);
  RunResult r = run(g, opts);
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_TRUE(State[c].got.empty());
  EXPECT_EQ(nprt_test_inst(g, c).iterations, 1u);
}

TEST_F(Executor, PacketsToAGoneConsumerAreFreedAndCounted) {
  uint32_t p = add("p", "Src", "", "o", producePkts);
  uint32_t c = add("c", "Sink", "i", "", consumePktsThenExit);
  nprt_graph_connect(g, p, 0, c, 0, 16, false);
  State[p].limit = 100;
  State[c].limit = 5;
  std::string json = tempPath("gone.json");
  opts.stats_json = json.c_str();
  RunResult r = run(g, opts);
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(State[c].got, (std::vector<uint64_t>{1, 2, 3, 4, 5}));
  nprt_test_chan_stats s = nprt_test_graph_chan(g, 0);
  // Each value was handed over at once; the 95 sent after c ended were
  // freed and counted.
  EXPECT_EQ(s.packets, 5u);
  EXPECT_EQ(s.drops, 100u - 5u);
  EXPECT_EQ(nprt_test_inst(g, c).drops, 5u);
  EXPECT_EQ(nprt_test_inst(g, p).allocs, 100u);
  std::string text = readFile(json);
  EXPECT_NE(text.find("\"pool\": {\"allocated\": 100, \"freed\": 100, "
                      "\"leaked\": 0"),
            std::string::npos)
      << text;
}

TEST_F(Executor, FaultsAndAllocationsAreCounted) {
  uint32_t p = add("p", "Src", "", "o", producePkts);
  uint32_t f = add("f", "Tee", "i", "o", cloneAndFault);
  uint32_t c = add("c", "Sink", "i", "", consumePktsThenExit);
  nprt_graph_connect(g, p, 0, f, 0, 4, false);
  nprt_graph_connect(g, f, 0, c, 0, 4, false);
  State[p].limit = 25;
  State[c].limit = 25;
  std::string json = tempPath("faults.json");
  opts.stats_json = json.c_str();
  RunResult r = run(g, opts);
  ASSERT_EQ(r.rc, 0) << r.err;
  nprt_test_inst_stats s = nprt_test_inst(g, f);
  EXPECT_EQ(s.faults, 25u); // kind 2 (clone differs) never happened
  EXPECT_EQ(s.allocs, 25u);
  EXPECT_EQ(s.drops, 25u);
  ASSERT_EQ(State[c].got.size(), 25u);
  EXPECT_EQ(State[c].got[24], 25u);
  EXPECT_NE(
      readFile(json).find("\"drops\": 25, \"faults\": 25, "
                          "\"allocations\": 25, \"allocation_failures\": 0,"),
      std::string::npos);
  EXPECT_NE(readFile(json).find("\"pool\": {\"allocated\": 50, \"freed\": "
                                "50, \"leaked\": 0"),
            std::string::npos);
}

// A handler that drops the same packet twice stops the run with a message,
// instead of corrupting the free list and reporting 2^64 - N leaked packets.
TEST_F(Executor, DoubleDropStopsTheRun) {
  uint32_t p = add("p", "Src", "", "o", producePkts);
  uint32_t c = add("c", "Sink", "i", "", dropTwice);
  nprt_graph_connect(g, p, 0, c, 0, 4, false);
  State[p].limit = 10;
  EXPECT_DEATH(nprt_test_run(g, &opts),
               "nprt: fatal: double free of packet .*exactly once");
}

TEST_F(Executor, PollingInstanceEndsWhenItsInputsClose) {
  uint32_t p = add("p", "Src", "", "o", produce);
  uint32_t c = add("c", "Poller", "i", "", pollOnly);
  nprt_graph_connect(g, p, 0, c, 0, 4, false);
  State[p].limit = 50;
  RunResult r = run(g, opts);
  ASSERT_EQ(r.rc, 0) << r.err;
  ASSERT_EQ(State[c].got.size(), 50u);
  EXPECT_EQ(State[c].got.back(), 50u);
}

TEST_F(Executor, SignalsRunAfterInitAndBeforeHandlers) {
  uint32_t a = add("a", "Sig", "", "", reportSignal, recordSignal);
  add("b", "Plain", "", "", reportSignal);
  std::vector<char *> argv;
  char prog[] = "prog", s1[] = "--signal", s2[] = "a=7",
       s3[] = "--signal=a=0x0b";
  argv = {prog, s1, s2, s3};
  ASSERT_EQ(nprt_options_parse(&opts, (int)argv.size(), argv.data()),
            NPRT_PARSE_RUN);
  RunResult r = run(g, opts);
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(State[a].got, std::vector<uint64_t>{711});
}

TEST_F(Executor, SignalToUnknownInstanceIsAnError) {
  add("a", "Sig", "", "", reportSignal, recordSignal);
  add("b", "Plain", "", "", reportSignal);
  char prog[] = "prog", s1[] = "--signal=zz=1", s2[] = "--signal=b=1";
  char *argv1[] = {prog, s1};
  ASSERT_EQ(nprt_options_parse(&opts, 2, argv1), NPRT_PARSE_RUN);
  RunResult r = run(g, opts);
  EXPECT_EQ(r.rc, 1);
  EXPECT_EQ(r.err, "prog: error: --signal: no instance named 'zz'\n");
  EXPECT_TRUE(State[0].got.empty()); // nothing ran

  nprt_options_free(&opts);
  nprt_options_init(&opts, "prog", "test");
  char *argv2[] = {prog, s2};
  ASSERT_EQ(nprt_options_parse(&opts, 2, argv2), NPRT_PARSE_RUN);
  r = run(g, opts);
  EXPECT_EQ(r.rc, 1);
  EXPECT_EQ(r.err, "prog: error: --signal: instance 'b' (Plain) has no "
                   "signal handler\n");
}

TEST_F(Executor, StatsTableAndJson) {
  uint32_t p = add("src", "FromGen", "", "o", produce);
  uint32_t c = add("cnt", "Counter", "in", "out", pass);
  uint32_t s = add("sink", "Discard", "i", "", consume);
  nprt_graph_connect(g, p, 0, c, 0, 8, false);
  nprt_graph_connect(g, c, 0, s, 0, 2, true);
  State[p].limit = 1000;
  std::string json = tempPath("stats.json");
  opts.stats_json = json.c_str();
  opts.quiet = false;
  RunResult r = run(g, opts);
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("instance  element  in          out         drops\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("src       FromGen  0           1000        0\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("pool: 0 allocated, 0 freed, 0 leaked\n"),
            std::string::npos)
      << r.out;
  std::string text = readFile(json);
  std::string why;
  ASSERT_TRUE(jsonValid(text, why)) << why << "\n" << text;
  EXPECT_NE(text.find("\"program\": \"test\""), std::string::npos);
  EXPECT_NE(text.find("{\"name\": \"cnt\", \"element\": \"Counter\", "
                      "\"placement\": \"host\", \"iterations\": "),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\"in\": [{\"port\": \"in\", \"packets\": 1000}]"),
            std::string::npos)
      << text;
  // The consumer always waits for the next value: a lossy channel drops
  // nothing when every value is handed over at once.
  std::string chan = "{\"src\": \"cnt.out\", \"dst\": \"sink.i\", \"depth\": "
                     "2, \"lossy\": true, \"packets\": 1000, \"drops\": 0, "
                     "\"max_occupancy\": 1, \"occupancy_samples\": ";
  EXPECT_NE(text.find(chan), std::string::npos) << text;
  EXPECT_EQ(State[s].got.size(), 1000u);
}

// The stack switches between the scheduler and the instances are announced
// to AddressSanitizer: a run (blocking, resuming and terminating on the
// instance stacks) writes nothing to stderr. Without the annotations ASan
// warns "ignoring requested __asan_handle_no_return" (or reports a stack
// overflow); in builds without ASan the test only checks the run is quiet.
TEST_F(Executor, FiberSwitchesAreQuietUnderSanitizers) {
  uint32_t p = add("p", "Src", "", "o", produce);
  uint32_t a = add("a", "Pass", "i", "o", pass);
  uint32_t c = add("c", "Sink", "i", "", consume);
  nprt_graph_connect(g, p, 0, a, 0, 0, false);
  nprt_graph_connect(g, a, 0, c, 0, 2, false);
  State[p].limit = 300;
  auto child = [&] {
    RunResult r = run(g, opts);
    exit(r.rc == 0 && State[c].got.size() == 300 ? 0 : 1);
  };
  EXPECT_EXIT(child(), ::testing::ExitedWithCode(0), "^$");
}

TEST_F(Executor, DISABLED_Throughput10M) {
  for (uint32_t depth : {0u, 1u, 4u, 64u, 256u}) {
    resetState();
    nprt_graph *bg = nprt_test_graph_create();
    uint32_t p = nprt_graph_add_instance(bg, "p", "Src", "", "o", nullptr,
                                         produce, nullptr, "host");
    uint32_t c = nprt_graph_add_instance(bg, "c", "Sink", "i", "", nullptr,
                                         consumeCount, nullptr, "host");
    nprt_graph_connect(bg, p, 0, c, 0, depth, false);
    const uint64_t n = 10000000;
    State[p].limit = n;
    auto t0 = std::chrono::steady_clock::now();
    int rc = nprt_test_run(bg, &opts);
    auto t1 = std::chrono::steady_clock::now();
    ASSERT_EQ(rc, 0);
    ASSERT_EQ(State[c].count, n * (n + 1) / 2);
    double ns = std::chrono::duration<double, std::nano>(t1 - t0).count();
    printf("depth %3u: %.2f ns/value\n", depth, ns / n);
    nprt_test_graph_destroy(bg);
  }
}

} // namespace
