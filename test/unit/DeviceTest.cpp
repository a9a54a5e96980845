//===- DeviceTest.cpp - the device interface and its pcap kind --*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// What every kind of device promises (runtime/nprt/device.h), checked on
// the pcap files through an executor's device table: packets in bursts
// with their device number, the end of an input, ownership of what is
// sent, statistics, and errors reported through the host.
//
//===----------------------------------------------------------------------===//
#include "runtime/nprt/devices.h"
#include "runtime/nprt/pcap_dev.h"
#include "test/unit/TestUtil.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace nprt_test;

namespace {

/// An executor's side of a device table: a pool, options, and what the
/// devices told it.
class DeviceTable : public ::testing::Test {
protected:
  void SetUp() override {
    nprt_pool_init(&pool);
    nprt_options_init(&opts, "prog", "test");
    errFile = tmpfile();
    opts.err = errFile;
    nprt_dev_host host = {&pool, &opts, this, stopping, interrupted, failed};
    nprt_devices_init(&table, &host);
  }
  void TearDown() override {
    nprt_devices_close(&table);
    nprt_devices_free(&table);
    EXPECT_EQ(pool.live, 0u);
    nprt_pool_destroy(&pool);
    nprt_options_free(&opts);
    fclose(errFile);
  }
  /// Parses `args` as the program's command line (--in, --out).
  /// The options keep pointers into `args`, which must outlive them.
  void parse(std::vector<std::string> &args) {
    std::vector<char *> argv{const_cast<char *>("prog")};
    for (std::string &a : args)
      argv.push_back(a.data());
    ASSERT_EQ(nprt_options_parse(&opts, (int)argv.size(), argv.data()),
              NPRT_PARSE_RUN);
    opts.err = errFile;
  }
  static bool stopping(void *) { return false; }
  static bool interrupted(void *) { return false; }
  static void failed(void *ctx, bool stop) {
    auto *self = static_cast<DeviceTable *>(ctx);
    ++self->failures;
    self->stopped |= stop;
  }

  nprt_pool pool;
  nprt_options opts;
  FILE *errFile = nullptr;
  nprt_devices table;
  int failures = 0;
  bool stopped = false;
};

TEST_F(DeviceTable, AnInputGivesItsPacketsThenEnds) {
  PcapBuilder b(false, 65535, 1);
  for (unsigned i = 0; i < 3; ++i)
    b.packet(1700000000 + i, 0, frame(60 + i, i));
  std::string in = tempPath("in.pcap");
  writeFile(in, b.bytes);
  std::vector<std::string> args{"--in", "1=" + in};
  parse(args);
  ASSERT_EQ(nprt_devices_open(&table, true), 0) << readAll(errFile);
  nprt_device *d = nprt_devices_in(&table, 1);
  ASSERT_NE(d, nullptr);
  EXPECT_STREQ(d->ops->kind, "pcap");
  nprt_pkt *pkts[4];
  uint32_t n = 0;
  ASSERT_EQ(d->ops->rx_burst(d, pkts, 4, &n), NPRT_DEV_OK);
  ASSERT_EQ(n, 3u);
  for (uint32_t i = 0; i < n; ++i) {
    EXPECT_EQ(pkts[i]->len, 60u + i);
    EXPECT_EQ(pkts[i]->in_port, 1u); // the device's number
    nprt_pool_free(&pool, pkts[i]);
  }
  EXPECT_EQ(d->ops->rx_burst(d, pkts, 4, &n), NPRT_DEV_END);
  EXPECT_EQ(n, 0u);
  nprt_dev_stats s;
  nprt_device_stats(d, &s);
  EXPECT_EQ(s.packets, 3u);
  EXPECT_EQ(s.bytes, 60u + 61u + 62u);
  EXPECT_EQ(failures, 0);
}

TEST_F(DeviceTable, ADeviceWithoutAFileEndsAndCountsWhatItIsSent) {
  nprt_device *in = nprt_devices_in(&table, 3);
  ASSERT_NE(in, nullptr);
  nprt_pkt *p;
  uint32_t n = 0;
  EXPECT_EQ(in->ops->rx_burst(in, &p, 1, &n), NPRT_DEV_END);
  nprt_device *out = nprt_devices_out(&table, 2);
  ASSERT_NE(out, nullptr);
  nprt_pkt *pkts[2] = {nprt_pool_alloc_zeroed(&pool, 100),
                       nprt_pool_alloc_zeroed(&pool, 50)};
  // Taken and freed by the device (TearDown checks the pool).
  EXPECT_EQ(out->ops->tx_burst(out, pkts, 2), 2u);
  nprt_dev_stats s;
  nprt_device_stats(out, &s);
  EXPECT_EQ(s.path, nullptr);
  EXPECT_EQ(s.packets, 2u);
  EXPECT_EQ(s.bytes, 150u);
  // DeviceTable 0 and 1 were never used: the table lists 3 outputs, the
  // first two empty.
  uint32_t count = 0;
  nprt_dev_stats *all = nprt_devices_stats(&table, true, &count);
  EXPECT_EQ(count, 3u);
  EXPECT_EQ(all[0].packets, 0u);
  free(all);
  EXPECT_EQ(nprt_devices_out(&table, NPRT_MAX_DEVICES), nullptr);
}

TEST_F(DeviceTable, AnOutputMirrorsItsInputAndWritesTheFile) {
  PcapBuilder b(true, 9000, 1);
  b.packet(1700000000, 5, frame(70, 1));
  std::string in = tempPath("nano.pcap"), out = tempPath("nano-out.pcap");
  writeFile(in, b.bytes);
  std::vector<std::string> args{"--in", in, "--out", out};
  parse(args);
  ASSERT_EQ(nprt_devices_open(&table, true), 0) << readAll(errFile);
  nprt_device *d = nprt_devices_in(&table, 0);
  nprt_device *o = nprt_devices_out(&table, 0);
  nprt_dev_config fmt = {};
  ASSERT_TRUE(d->ops->format(d, &fmt));
  EXPECT_TRUE(fmt.nano);
  EXPECT_EQ(fmt.snaplen, 9000);
  nprt_pkt *p;
  uint32_t n = 0;
  ASSERT_EQ(d->ops->rx_burst(d, &p, 1, &n), NPRT_DEV_OK);
  EXPECT_EQ(o->ops->tx_burst(o, &p, 1), 1u);
  EXPECT_EQ(nprt_devices_close(&table), 0);
  EXPECT_EQ(readFile(out), b.bytes); // same header, same record
}

TEST_F(DeviceTable, AnUnreadableInputIsReportedThroughTheHost) {
  std::string in = tempPath("cut.pcap");
  PcapBuilder b(false, 65535, 1);
  b.packet(1700000000, 0, frame(80, 1));
  writeFile(in, b.bytes.substr(0, b.bytes.size() - 10)); // a cut record
  std::vector<std::string> args{"--in", in};
  parse(args);
  ASSERT_EQ(nprt_devices_open(&table, true), 0) << readAll(errFile);
  nprt_device *d = nprt_devices_in(&table, 0);
  nprt_pkt *p;
  uint32_t n = 0;
  EXPECT_EQ(d->ops->rx_burst(d, &p, 1, &n), NPRT_DEV_ERROR);
  EXPECT_EQ(failures, 1);
  EXPECT_FALSE(stopped); // an input error ends that input, not ingress
  EXPECT_NE(readAll(errFile).find("prog: error: " + in + ": "),
            std::string::npos);
}

} // namespace
