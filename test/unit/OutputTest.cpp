//===- OutputTest.cpp - checked outputs and stop signals --------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Nothing is lost on output: failed writes are errors naming the file, an
// output that is an input is refused before it is touched, and SIGINT or
// SIGTERM drain the graph, write whole records and the statistics, and exit
// with 128 + the signal number.
//
//===----------------------------------------------------------------------===//
#include "runtime/nprt/pcap_io.h"
#include "test/unit/DeviceGraph.h"
#include "test/unit/Handlers.h"
#include "test/unit/TestUtil.h"

#include <gtest/gtest.h>

#include <csignal>
#include <sys/resource.h>

using namespace nprt_test;

namespace {

std::string capture(unsigned n, size_t len) {
  PcapBuilder b;
  for (unsigned i = 0; i < n; ++i)
    b.packet(1700000000 + i, i, frame(len, i));
  return b.bytes;
}

/// The first `n` packets of a capture built by `capture`.
std::string prefix(const std::string &bytes, unsigned n, size_t len) {
  return bytes.substr(0, 24 + n * (16 + len));
}

/// src (FromDevice) -> sink (ToDevice); each test picks src's handler.
class Devices : public DeviceGraph {};

TEST_F(Devices, OutputToAFullDeviceIsAnError) {
  build(fromDevice);
  std::string in = tempPath("full-in.pcap");
  writeFile(in, capture(10, 100));
  RunResult r = runWith({"--quiet", "--in", in, "--out", "/dev/full"});
  EXPECT_EQ(r.rc, 1);
  EXPECT_EQ(r.err, "prog: error: /dev/full: No space left on device\n");
}

// A file that stops taking data in the middle of the run (here: the file
// size limit) fails the run with a message naming it, and stops reading the
// input instead of processing the rest for nothing.
TEST_F(Devices, OutputFailingDuringTheRunStopsIt) {
  build(fromDevice);
  std::string in = tempPath("big-in.pcap"), out = tempPath("big-out.pcap");
  std::string json = tempPath("big.json");
  writeFile(in, capture(2000, 1000));
  auto child = [&] {
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit lim;
    lim.rlim_cur = lim.rlim_max = 64 * 1024;
    setrlimit(RLIMIT_FSIZE, &lim);
    RunResult r =
        runWith({"--quiet", "--in", in, "--out", out, "--stats-json", json});
    fputs(r.err.c_str(), stderr);
    std::string stats = readFile(json);
    if (stats.find("\"status\": \"error\"") == std::string::npos)
      exit(10);
    // Ingress stopped soon after the failure.
    if (nprt_test_inst(g, 0).out_packets[0] > 200)
      exit(11);
    exit(r.rc);
  };
  EXPECT_EXIT(child(), ::testing::ExitedWithCode(1),
              "prog: error: .*big-out.pcap: cannot write: File too large\n$");
}

TEST_F(Devices, OutputThatIsTheInputIsRefused) {
  build(fromDevice);
  std::string in = tempPath("same.pcap");
  std::string bytes = capture(5, 80);
  writeFile(in, bytes);
  std::string link = tempPath("same-link.pcap");
  ASSERT_EQ(symlink(in.c_str(), link.c_str()), 0);
  RunResult r = runWith({"--quiet", "--in", in, "--out", link});
  EXPECT_EQ(r.rc, 1);
  EXPECT_EQ(r.err, "prog: error: --out '" + link + "' is the input file '" +
                       in + "'; refusing to overwrite it\n");
  EXPECT_EQ(readFile(in), bytes);
}

TEST_F(Devices, StatisticsFileThatIsTheInputIsRefused) {
  build(fromDevice);
  std::string in = tempPath("same2.pcap"), hard = tempPath("same2-hard.pcap");
  std::string bytes = capture(5, 80);
  writeFile(in, bytes);
  ASSERT_EQ(link(in.c_str(), hard.c_str()), 0);
  RunResult r = runWith({"--quiet", "--in", in, "--stats-json", hard});
  EXPECT_EQ(r.rc, 1);
  EXPECT_NE(r.err.find("--stats-json '" + hard + "' is the input file"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(readFile(in), bytes);
}

TEST_F(Devices, TwoOutputsToOneFileAreRefused) {
  build(fromDevice);
  std::string out = tempPath("twice.pcap");
  RunResult r = runWith({"--quiet", "--out", out, "--out", "1=" + out});
  EXPECT_EQ(r.rc, 1);
  EXPECT_NE(r.err.find("is also --out"), std::string::npos) << r.err;
  // Character devices are not files: two outputs may both go to /dev/null.
  nprt_options_free(&opts);
  nprt_options_init(&opts, "prog", "passthrough");
  r = runWith({"--quiet", "--out", "/dev/null", "--out", "1=/dev/null"});
  EXPECT_EQ(r.rc, 0) << r.err;
}

// SIGINT stops ingress: the packets read before it are all written, as
// whole records, the statistics say "interrupted", and the status is 130.
TEST_F(Devices, SigintDrainsAndWritesStatistics) {
  build(fromDeviceThenInterrupt);
  State[0].limit = 10;
  std::string in = tempPath("int-in.pcap"), out = tempPath("int-out.pcap");
  std::string json = tempPath("int.json");
  std::string bytes = capture(100, 200);
  writeFile(in, bytes);
  RunResult r = runWith({"--in", in, "--out", out, "--stats-json", json});
  EXPECT_EQ(r.rc, 130);
  EXPECT_EQ(r.err, "prog: interrupted (SIGINT): input stopped, packets in "
                   "flight drained\n");
  EXPECT_EQ(readFile(out), prefix(bytes, 10, 200));
  std::string stats = readFile(json);
  EXPECT_NE(stats.find("\"status\": \"interrupted\""), std::string::npos)
      << stats;
  EXPECT_NE(stats.find("\"tx\": [{\"device\": 0, \"file\": \"" + out +
                       "\", \"packets\": 10, \"bytes\": 2000}]"),
            std::string::npos)
      << stats;
  EXPECT_NE(r.out.find("pool: 10 allocated, 10 freed, 0 leaked"),
            std::string::npos)
      << r.out;
  // The handler is the run's only: afterwards SIGINT is back to default.
  struct sigaction sa;
  sigaction(SIGINT, nullptr, &sa);
  EXPECT_EQ(sa.sa_handler, SIG_DFL);
}

TEST_F(Devices, SigtermExitsWith143) {
  build(fromDeviceThenInterrupt);
  State[0].limit = 3;
  State[0].signal = SIGTERM;
  std::string in = tempPath("term-in.pcap"), out = tempPath("term-out.pcap");
  std::string bytes = capture(50, 64);
  writeFile(in, bytes);
  RunResult r = runWith({"--quiet", "--in", in, "--out", out});
  EXPECT_EQ(r.rc, 143);
  EXPECT_NE(r.err.find("terminated (SIGTERM)"), std::string::npos) << r.err;
  EXPECT_EQ(readFile(out), prefix(bytes, 3, 64));
}

// An error outranks the interruption: data was lost, so the status is 1.
TEST_F(Devices, ErrorOutranksInterruption) {
  build(fromDeviceThenInterrupt);
  State[0].limit = 2;
  std::string in = tempPath("err-in.pcap");
  writeFile(in, capture(5, 64));
  RunResult r = runWith(
      {"--quiet", "--in", in, "--stats-json", "/nonexistent/dir/stats.json"});
  EXPECT_EQ(r.rc, 1);
}

// A source that is not a device (a generator) also stops at a signal, and
// what it sent before is received.
TEST(Stop, GeneratorStopsAtSigint) {
  resetState();
  nprt_graph *g = nprt_test_graph_create();
  uint32_t p = nprt_graph_add_instance(g, "p", "Gen", "", "o", nullptr,
                                       produceThenInterrupt, nullptr, "host");
  uint32_t c = nprt_graph_add_instance(g, "c", "Sink", "i", "", nullptr,
                                       consume, nullptr, "host");
  nprt_graph_connect(g, p, 0, c, 0, 4, false);
  State[p].limit = 100;
  nprt_options opts;
  nprt_options_init(&opts, "prog", "gen");
  opts.quiet = true;
  RunResult r = run(g, opts);
  EXPECT_EQ(r.rc, 130) << r.err;
  ASSERT_EQ(State[c].got.size(), 100u);
  EXPECT_EQ(State[c].got.back(), 100u);
  nprt_options_free(&opts);
  nprt_test_graph_destroy(g);
}

} // namespace
