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

// A pcap input reads NPRT_RX_BURST records at once and hands them out one
// receive at a time, through the device (rx_burst) or the executor's copy
// of the burst's records (nprt_device.rx): in the file's order across
// bursts, each with its time stamp and lengths, counted only once handed
// out (what is read ahead and never received does not count).
TEST_F(DeviceTable, BurstsKeepTheOrderAndCountWhatIsHandedOut) {
  const uint32_t total = 3 * NPRT_RX_BURST + 5;
  PcapBuilder b(false, 65535, 1);
  uint64_t all = 0;
  for (uint32_t i = 0; i < total; ++i) {
    size_t len = i % 3 == 0 ? 1514 : 60 + i % 5; // big frames: memcpy
    b.packet(1700000000 + i / 7, i * 1000, frame(len, i), 2000 + i);
    all += len;
  }
  std::string in = tempPath("bursts.pcap");
  writeFile(in, b.bytes);
  std::vector<std::string> args{"--in", in};
  parse(args);
  ASSERT_EQ(nprt_devices_open(&table, true), 0) << readAll(errFile);
  nprt_device *d = nprt_devices_in(&table, 0);
  uint32_t got = 0;
  uint64_t bytes = 0;
  auto check = [&](nprt_pkt *p) {
    size_t len = got % 3 == 0 ? 1514 : 60 + got % 5;
    EXPECT_EQ(p->len, len) << "packet " << got;
    EXPECT_EQ(std::string((const char *)p->data, p->len), frame(len, got))
        << "packet " << got;
    EXPECT_EQ(p->ts, (int64_t)(1700000000 + got / 7) * 1000000000 +
                         (int64_t)got * 1000000);
    EXPECT_EQ(nprt_pkt_to_buf(p)->wire_len, 2000 + got);
    EXPECT_EQ(nprt_pkt_to_buf(p)->cap_len, len);
    EXPECT_EQ(p->in_port, 0u);
    bytes += len;
    ++got;
    nprt_pool_free(&pool, p);
  };
  // Alternately as the executor takes them (the burst's records, copied
  // here) and through the device, which reads the next burst when one is
  // used up.
  for (uint32_t k = 0; got < total; ++k) {
    if (k % 2 && d->rx_next < d->rx_n) {
      nprt_pkt *p = nprt_device_rx_rec(d, &pool, &d->rx[d->rx_next]);
      if (p) {
        ++d->rx_next;
        check(p);
        continue;
      }
    }
    nprt_pkt *p;
    uint32_t n = 0;
    ASSERT_EQ(d->ops->rx_burst(d, &p, 1, &n), NPRT_DEV_OK) << got;
    ASSERT_EQ(n, 1u);
    check(p);
    // What is read and not handed out does not count.
    nprt_dev_stats s;
    nprt_device_stats(d, &s);
    EXPECT_EQ(s.packets, got);
    EXPECT_EQ(s.bytes, bytes);
    EXPECT_LE(d->rx_n, NPRT_RX_BURST);
  }
  nprt_pkt *p;
  uint32_t n = 0;
  EXPECT_EQ(d->ops->rx_burst(d, &p, 1, &n), NPRT_DEV_END);
  nprt_dev_stats s;
  nprt_device_stats(d, &s);
  EXPECT_EQ(s.packets, total);
  EXPECT_EQ(s.bytes, all);
  EXPECT_EQ(failures, 0);
}

// Ingress stopping with part of a burst read: the rest never counts, before
// or after the device closed.
TEST_F(DeviceTable, RecordsReadAheadAreNotCounted) {
  PcapBuilder b(false, 65535, 1);
  for (unsigned i = 0; i < 20; ++i)
    b.packet(1700000000, i, frame(64, i));
  std::string in = tempPath("ahead.pcap");
  writeFile(in, b.bytes);
  std::vector<std::string> args{"--in", in};
  parse(args);
  ASSERT_EQ(nprt_devices_open(&table, true), 0) << readAll(errFile);
  nprt_device *d = nprt_devices_in(&table, 0);
  for (unsigned i = 0; i < 3; ++i) {
    nprt_pkt *p;
    uint32_t n = 0;
    ASSERT_EQ(d->ops->rx_burst(d, &p, 1, &n), NPRT_DEV_OK);
    nprt_pool_free(&pool, p);
  }
  EXPECT_EQ(d->rx_n, 20u); // the whole file was one burst
  nprt_dev_stats s;
  nprt_device_stats(d, &s);
  EXPECT_EQ(s.packets, 3u);
  EXPECT_EQ(s.bytes, 3u * 64);
  EXPECT_EQ(nprt_devices_close(&table), 0);
  nprt_device_stats(d, &s);
  EXPECT_EQ(s.packets, 3u);
  EXPECT_EQ(s.bytes, 3u * 64);
}

// A cut record at a burst's boundary, or inside a burst: every whole
// record before it is handed out, in order, then the error is reported
// once (through the host, with libpcap's message), then the input ends.
TEST_F(DeviceTable, ACutRecordAfterABurstIsReportedAfterItsPackets) {
  for (uint32_t whole : {NPRT_RX_BURST, NPRT_RX_BURST + 1, 2u}) {
    SCOPED_TRACE(whole);
    PcapBuilder b(false, 65535, 1);
    for (uint32_t i = 0; i < whole; ++i)
      b.packet(1700000000, i, frame(64, i));
    b.packet(1700000001, 0, frame(80, 99));
    std::string in = tempPath("cut-" + std::to_string(whole) + ".pcap");
    writeFile(in, b.bytes.substr(0, b.bytes.size() - 10));
    std::vector<std::string> args{"--in", in};
    nprt_devices_close(&table);
    nprt_devices_free(&table);
    nprt_options_free(&opts);
    nprt_options_init(&opts, "prog", "test");
    nprt_dev_host host = {&pool, &opts, this, stopping, interrupted, failed};
    nprt_devices_init(&table, &host);
    failures = 0;
    parse(args);
    ASSERT_EQ(nprt_devices_open(&table, true), 0) << readAll(errFile);
    nprt_device *d = nprt_devices_in(&table, 0);
    for (uint32_t i = 0; i < whole; ++i) {
      nprt_pkt *p;
      uint32_t n = 0;
      ASSERT_EQ(d->ops->rx_burst(d, &p, 1, &n), NPRT_DEV_OK) << i;
      EXPECT_EQ(std::string((const char *)p->data, p->len), frame(64, i));
      nprt_pool_free(&pool, p);
      EXPECT_EQ(failures, 0) << "reported before packet " << i;
    }
    nprt_pkt *p;
    uint32_t n = 0;
    EXPECT_EQ(d->ops->rx_burst(d, &p, 1, &n), NPRT_DEV_ERROR);
    EXPECT_EQ(n, 0u);
    EXPECT_EQ(failures, 1);
    EXPECT_EQ(d->ops->rx_burst(d, &p, 1, &n), NPRT_DEV_END);
    EXPECT_EQ(failures, 1); // once
    EXPECT_NE(readAll(errFile).find("truncated dump file; tried to read 80 "
                                    "captured bytes, only got 70"),
              std::string::npos);
    nprt_dev_stats s;
    nprt_device_stats(d, &s);
    EXPECT_EQ(s.packets, whole);
  }
}

// The output's inline record (small frames, the second of the last one)
// writes the bytes nprt_pcap_out_write writes: across seconds, before the
// epoch, with frames that take the other path (big, cut) in between.
TEST_F(DeviceTable, TheOutputsFastRecordIsTheSlowOnes) {
  for (bool nano : {false, true}) {
    SCOPED_TRACE(nano);
    std::string fast = tempPath(nano ? "fast-n.pcap" : "fast-u.pcap");
    std::string slow = tempPath(nano ? "slow-n.pcap" : "slow-u.pcap");
    nprt_pcap_out ref = {};
    char err[256];
    ASSERT_EQ(nprt_pcap_out_open(&ref, slow.c_str(), 1, 65535, nano, err,
                                 sizeof(err)),
              0)
        << err;
    nprt_device *o =
        nprt_devices_bind(&table, 0, true, &nprt_pcap_out_ops, nullptr);
    nprt_dev_config cfg = {fast.c_str(), 1, 65535, nano, 0};
    ASSERT_EQ(o->ops->open(o, &cfg, err, sizeof(err)), 0) << err;
    const int64_t stamps[] = {1700000000123456789,
                              1700000000999999999,
                              1700000001000000000,
                              1700000001000000001,
                              1699999999000000000,
                              0,
                              -1,
                              -1000000000,
                              -1000000001,
                              1700000002500000000};
    uint32_t k = 0;
    for (int64_t ts : stamps)
      for (uint32_t len : {60u, 64u, 14u, 65u, 1514u, 0u}) {
        nprt_pkt *p = nprt_pool_alloc(&pool, len);
        std::string f = frame(len, k++);
        memcpy(p->data, f.data(), len);
        p->ts = ts;
        nprt_pkt_to_buf(p)->cap_len = len;
        nprt_pkt_to_buf(p)->wire_len = len + (k % 2) * 100;
        if (k % 4 == 0 && len > 20)
          nprt_pkt_pull(p, 20); // a frame with room before it
        ASSERT_EQ(nprt_pcap_out_write(&ref, p), 0);
        EXPECT_EQ(o->ops->tx_burst(o, &p, 1), 1u);
      }
    ASSERT_EQ(nprt_pcap_out_close(&ref, err, sizeof(err)), 0);
    ASSERT_EQ(o->ops->close(o), 0);
    EXPECT_EQ(readFile(fast), readFile(slow));
    EXPECT_GT(readFile(fast).size(), 24u + 16u * 60u);
  }
}

} // namespace
