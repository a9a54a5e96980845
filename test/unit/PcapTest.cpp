//===- PcapTest.cpp - pcap devices -------------------------------*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
#include "runtime/nprt/pcap_io.h"
#include "test/unit/DeviceGraph.h"
#include "test/unit/Handlers.h"
#include "test/unit/TestUtil.h"

#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <sstream>
#include <vector>

using namespace nprt_test;

namespace {

/// Reads every packet of `in` and writes it to `out` with the parameters of
/// the input, as a passthrough graph does.
void copyFile(const std::string &in, const std::string &out) {
  nprt_pool pool;
  nprt_pool_init(&pool);
  nprt_pcap_in d;
  char err[512];
  ASSERT_EQ(nprt_pcap_in_open(&d, in.c_str(), err, sizeof(err)), 0) << err;
  nprt_pcap_out o = {};
  ASSERT_EQ(nprt_pcap_out_open(&o, out.c_str(), d.linktype, d.snaplen, d.nano,
                               err, sizeof(err)),
            0)
      << err;
  nprt_pkt *p;
  while (nprt_pcap_in_next(&d, &pool, 0, &p, err, sizeof(err)) ==
         NPRT_PCAP_OK) {
    nprt_pcap_out_write(&o, p);
    nprt_pool_free(&pool, p);
  }
  EXPECT_EQ(nprt_pcap_out_close(&o, err, sizeof(err)), 0);
  nprt_pcap_in_close(&d);
  EXPECT_EQ(pool.live, 0u);
  nprt_pool_destroy(&pool);
}

TEST(Pcap, MicrosecondFileRoundTripsByteIdentical) {
  PcapBuilder b(false, 65535, 1);
  for (unsigned i = 0; i < 20; ++i)
    b.packet(1700000000 + i, 999990 + i % 10, frame(60 + i * 70, i));
  b.packet(1700000100, 5, frame(3000, 99)); // bigger than a pool buffer
  std::string in = tempPath("micro.pcap"), out = tempPath("micro-out.pcap");
  writeFile(in, b.bytes);
  copyFile(in, out);
  EXPECT_EQ(readFile(out), b.bytes);
}

TEST(Pcap, NanosecondFileKeepsItsPrecision) {
  PcapBuilder b(true, 262144, 1);
  b.packet(1, 999999999, frame(64, 1)).packet(2, 1, frame(1514, 2));
  std::string in = tempPath("nano.pcap"), out = tempPath("nano-out.pcap");
  writeFile(in, b.bytes);

  nprt_pool pool;
  nprt_pool_init(&pool);
  nprt_pcap_in d;
  char err[512];
  ASSERT_EQ(nprt_pcap_in_open(&d, in.c_str(), err, sizeof(err)), 0) << err;
  EXPECT_TRUE(d.nano);
  EXPECT_EQ(d.snaplen, 262144);
  nprt_pkt *p;
  ASSERT_EQ(nprt_pcap_in_next(&d, &pool, 7, &p, err, sizeof(err)),
            NPRT_PCAP_OK);
  EXPECT_EQ(p->ts, 1999999999);
  EXPECT_EQ(p->in_port, 7u);
  EXPECT_EQ(p->len, 64u);
  EXPECT_EQ(std::string((const char *)p->data, p->len), frame(64, 1));
  nprt_pool_free(&pool, p);
  nprt_pcap_in_close(&d);
  nprt_pool_destroy(&pool);

  copyFile(in, out);
  EXPECT_EQ(readFile(out), b.bytes);
}

TEST(Pcap, SnapLengthCutKeepsTheWireLength) {
  PcapBuilder b(false, 96, 1);
  b.packet(10, 20, frame(96, 3), 1500).packet(11, 21, frame(40, 4), 40);
  std::string in = tempPath("snap.pcap"), out = tempPath("snap-out.pcap");
  writeFile(in, b.bytes);
  copyFile(in, out);
  EXPECT_EQ(readFile(out), b.bytes);
}

TEST(Pcap, TruncatedRecordIsAnError) {
  PcapBuilder b;
  b.packet(1, 1, frame(100, 1)).packet(2, 2, frame(100, 2));
  b.packet(3, 3, frame(100, 3));
  std::string in = tempPath("trunc.pcap");
  writeFile(in, b.bytes.substr(0, b.bytes.size() - 10));
  nprt_pool pool;
  nprt_pool_init(&pool);
  nprt_pcap_in d;
  char err[512];
  ASSERT_EQ(nprt_pcap_in_open(&d, in.c_str(), err, sizeof(err)), 0) << err;
  nprt_pkt *p;
  for (int i = 0; i < 2; ++i) {
    ASSERT_EQ(nprt_pcap_in_next(&d, &pool, 0, &p, err, sizeof(err)),
              NPRT_PCAP_OK);
    nprt_pool_free(&pool, p);
  }
  EXPECT_EQ(nprt_pcap_in_next(&d, &pool, 0, &p, err, sizeof(err)),
            NPRT_PCAP_ERROR);
  EXPECT_NE(std::string(err).find("truncated"), std::string::npos) << err;
  // The device stays exhausted.
  EXPECT_EQ(nprt_pcap_in_next(&d, &pool, 0, &p, err, sizeof(err)),
            NPRT_PCAP_EOF);
  EXPECT_EQ(d.packets, 2u);
  nprt_pcap_in_close(&d);
  nprt_pool_destroy(&pool);
}

TEST(Pcap, BadMagicIsAnError) {
  std::string in = tempPath("bad.pcap");
  writeFile(in, std::string("this is not a capture file at all, honest"));
  nprt_pcap_in d;
  char err[512];
  EXPECT_EQ(nprt_pcap_in_open(&d, in.c_str(), err, sizeof(err)), -1);
  EXPECT_EQ(std::string(err).rfind("not a pcap file", 0), 0u) << err;
  writeFile(in, "ab");
  EXPECT_EQ(nprt_pcap_in_open(&d, in.c_str(), err, sizeof(err)), -1);
  EXPECT_STREQ(err, "not a pcap file (too short)");
}

TEST(Pcap, MissingFileIsAnError) {
  nprt_pcap_in d;
  char err[512];
  EXPECT_EQ(nprt_pcap_in_open(&d, "/nonexistent/x.pcap", err, sizeof(err)), -1);
  EXPECT_STREQ(err, "No such file or directory");
}

/// Every record of `path` as libpcap reads it and as nprt's reader does
/// ("ts caplen len bytes" per record, then the error, if any).
std::string readWithLibpcap(const std::string &path, bool nano) {
  char err[PCAP_ERRBUF_SIZE];
  pcap_t *p = pcap_open_offline_with_tstamp_precision(
      path.c_str(),
      nano ? PCAP_TSTAMP_PRECISION_NANO : PCAP_TSTAMP_PRECISION_MICRO, err);
  if (!p)
    return std::string("open: ") + err;
  std::ostringstream os;
  struct pcap_pkthdr *h;
  const u_char *bytes;
  int rc;
  while ((rc = pcap_next_ex(p, &h, &bytes)) == 1)
    os << (int64_t)h->ts.tv_sec * 1000000000 +
              (int64_t)h->ts.tv_usec * (nano ? 1 : 1000)
       << " " << h->caplen << " " << h->len << " "
       << std::string((const char *)bytes, h->caplen).size() << ":"
       << std::hash<std::string>()(std::string((const char *)bytes, h->caplen))
       << "\n";
  if (rc != PCAP_ERROR_BREAK)
    os << "error: " << pcap_geterr(p) << "\n";
  pcap_close(p);
  return os.str();
}

std::string readWithNprt(const std::string &path, bool *mapped) {
  nprt_pool pool;
  nprt_pool_init(&pool);
  nprt_pcap_in d;
  char err[512];
  if (nprt_pcap_in_open(&d, path.c_str(), err, sizeof(err)) != 0)
    return std::string("open: ") + err;
  *mapped = d.map != nullptr;
  std::ostringstream os;
  nprt_pkt *p;
  nprt_pcap_status st;
  while ((st = nprt_pcap_in_next(&d, &pool, 0, &p, err, sizeof(err))) ==
         NPRT_PCAP_OK) {
    const nprt_pkt_buf *b = nprt_pkt_to_cbuf(p);
    std::string data((const char *)p->data, p->len);
    os << p->ts << " " << b->cap_len << " " << b->wire_len << " " << data.size()
       << ":" << std::hash<std::string>()(data) << "\n";
    nprt_pool_free(&pool, p);
  }
  if (st == NPRT_PCAP_ERROR)
    os << "error: " << err << "\n";
  nprt_pcap_in_close(&d);
  nprt_pool_destroy(&pool);
  return os.str();
}

/// The mapped reader reads what libpcap reads, with libpcap's messages.
void expectSameAsLibpcap(const std::string &name, const std::string &bytes,
                         bool nano) {
  std::string in = tempPath(name);
  writeFile(in, bytes);
  bool mapped = false;
  std::string ours = readWithNprt(in, &mapped);
  EXPECT_TRUE(mapped) << name;
  EXPECT_EQ(ours, readWithLibpcap(in, nano)) << name;
}

TEST(Pcap, MappedReaderAgreesWithLibpcap) {
  for (bool swapped : {false, true})
    for (bool nano : {false, true}) {
      PcapBuilder b(nano, 65535, 1, swapped);
      for (unsigned i = 0; i < 30; ++i)
        b.packet(1700000000 + i, nano ? 999999990 + i % 9 : 999990 + i % 9,
                 frame(60 + i * 47, i), i % 3 ? 0 : 1600);
      std::string tag =
          std::string(swapped ? "be" : "le") + (nano ? "-nano" : "-micro");
      expectSameAsLibpcap(tag + ".pcap", b.bytes, nano);
      // Cut inside the last record's header, then inside its data.
      expectSameAsLibpcap(
          tag + "-hdr.pcap",
          b.bytes.substr(0, b.bytes.size() - (60 + 29 * 47) - 5), nano);
      expectSameAsLibpcap(tag + "-data.pcap",
                          b.bytes.substr(0, b.bytes.size() - 7), nano);
    }
  // A record longer than the file's snap length keeps its first snap-length
  // bytes; one longer than the link type allows is an error.
  PcapBuilder cut(false, 96, 1);
  cut.packet(1, 1, frame(200, 1)).packet(2, 2, frame(50, 2));
  expectSameAsLibpcap("over-snaplen.pcap", cut.bytes, false);
  PcapBuilder huge(false, 65535, 1);
  huge.packet(1, 1, frame(64, 1)).packet(2, 2, frame(262145, 2));
  expectSameAsLibpcap("over-max.pcap", huge.bytes, false);
  PcapBuilder usb(false, 1048576, 249); // DLT_USBPCAP allows 1 MiB
  usb.packet(1, 1, frame(300000, 1)).packet(2, 2, frame(1048577, 2));
  expectSameAsLibpcap("usb.pcap", usb.bytes, false);
}

TEST(Pcap, MappedReaderAgreesWithLibpcapOnDamagedFiles) {
  // Record headers overwritten with random bytes or plausible lengths,
  // files cut anywhere: the same records and the same error either way.
  std::mt19937 rng(12345);
  for (int trial = 0; trial < 300; ++trial) {
    bool swapped = trial % 2, nano = trial % 3 == 0;
    PcapBuilder b(nano, trial % 5 ? 65535 : 200, 1, swapped);
    std::vector<size_t> headers;
    for (unsigned i = 0; i < 12; ++i) {
      headers.push_back(b.bytes.size());
      b.packet(1700000000 + i, i * 999, frame(40 + rng() % 400, i));
    }
    std::string bytes = b.bytes;
    for (int k = 0; k < 1 + trial % 3; ++k) {
      size_t at = headers[rng() % headers.size()] + rng() % 16;
      uint32_t pick = rng() % 3;
      uint32_t v = pick == 0   ? (uint32_t)rng()
                   : pick == 1 ? rng() % 600
                               : 65000 + rng() % 200000; // around the limits
      for (int j = 0; j < 4 && at + j < bytes.size(); ++j)
        bytes[at + j] = (char)(v >> (8 * j));
    }
    if (trial % 4 == 0)
      bytes.resize(24 + rng() % (bytes.size() - 24));
    expectSameAsLibpcap("damaged.pcap", bytes, nano);
    if (HasFailure())
      break;
  }
}

TEST(Pcap, PeekLooksWithoutTaking) {
  PcapBuilder b;
  b.packet(1, 1, frame(64, 1)).packet(2, 2, frame(70, 2));
  std::string in = tempPath("peek.pcap");
  writeFile(in, b.bytes);
  nprt_pool pool;
  nprt_pool_init(&pool);
  nprt_pcap_in d;
  char err[512];
  ASSERT_EQ(nprt_pcap_in_open(&d, in.c_str(), err, sizeof(err)), 0) << err;
  ASSERT_EQ(nprt_pcap_in_peek(&d, err, sizeof(err)), NPRT_PCAP_OK);
  EXPECT_EQ(d.rec.caplen, 64u);
  ASSERT_EQ(nprt_pcap_in_peek(&d, err, sizeof(err)), NPRT_PCAP_OK);
  EXPECT_EQ(d.rec.caplen, 64u); // the same record until it is passed
  nprt_pcap_in_pass(&d);
  nprt_pkt *p;
  ASSERT_EQ(nprt_pcap_in_next(&d, &pool, 0, &p, err, sizeof(err)),
            NPRT_PCAP_OK);
  EXPECT_EQ(p->len, 70u);
  EXPECT_EQ(std::string((const char *)p->data, p->len), frame(70, 2));
  nprt_pool_free(&pool, p);
  EXPECT_EQ(nprt_pcap_in_peek(&d, err, sizeof(err)), NPRT_PCAP_EOF);
  EXPECT_EQ(d.packets, 1u); // a passed record is not counted
  EXPECT_EQ(d.bytes, 70u);

  // A second reader of the same file shares the first one's mapping.
  nprt_pcap_in e;
  ASSERT_EQ(nprt_pcap_in_open(&e, in.c_str(), err, sizeof(err)), 0) << err;
  nprt_pcap_in_share(&e, &d);
  EXPECT_EQ(e.map, d.map);
  EXPECT_FALSE(e.map_owned);
  ASSERT_EQ(nprt_pcap_in_next(&e, &pool, 0, &p, err, sizeof(err)),
            NPRT_PCAP_OK);
  EXPECT_EQ(p->len, 64u);
  nprt_pool_free(&pool, p);
  nprt_pcap_in_close(&e);
  nprt_pcap_in_close(&d);
  EXPECT_EQ(pool.live, 0u);
  nprt_pool_destroy(&pool);
}

TEST(Pcap, OutputOverManyBuffersIsByteIdentical) {
  // Several output buffers' worth, and a record bigger than the buffer.
  PcapBuilder b(true, 1048576, 249);
  for (unsigned i = 0; i < 2000; ++i)
    b.packet(1700000000 + i, i * 7919u, frame(64 + (i * 131) % 1400, i));
  b.packet(1700009999, 1, frame(NPRT_PCAP_OUT_BUF + 1000, 5));
  for (unsigned i = 0; i < 10; ++i)
    b.packet(1700010000 + i, i, frame(100, i));
  std::string in = tempPath("big.pcap"), out = tempPath("big-out.pcap");
  writeFile(in, b.bytes);
  copyFile(in, out);
  EXPECT_EQ(readFile(out), b.bytes);
}

/// FromDevice -> ToDevice through the executor.
class PcapGraph : public DeviceGraph {
protected:
  void SetUp() override { build(fromDevice); }
};

TEST_F(PcapGraph, PassthroughIsByteIdentical) {
  PcapBuilder b(true);
  for (unsigned i = 0; i < 100; ++i)
    b.packet(1700000000 + i / 10, i * 1000003u % 1000000000u,
             frame(60 + (i * 37) % 1454, i));
  std::string in = tempPath("pt.pcap"), out = tempPath("pt-out.pcap");
  writeFile(in, b.bytes);
  RunResult r = runWith({"--in", in, "--out", out});
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(readFile(out), b.bytes);
  EXPECT_NE(r.out.find("src       FromDevice  0           100         0\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("device 0 tx: 100 packets"), std::string::npos);
  EXPECT_NE(r.out.find("pool: 100 allocated, 100 freed, 0 leaked\n"),
            std::string::npos)
      << r.out;
}

TEST_F(PcapGraph, TruncatedInputProcessesWhatCameBefore) {
  PcapBuilder good;
  good.packet(1, 1, frame(80, 1)).packet(2, 2, frame(80, 2));
  PcapBuilder b = good;
  b.packet(3, 3, frame(80, 3));
  std::string in = tempPath("tr.pcap"), out = tempPath("tr-out.pcap");
  writeFile(in, b.bytes.substr(0, b.bytes.size() - 1));
  RunResult r = runWith({"--quiet", "--in=0=" + in, "--out", out});
  EXPECT_EQ(r.rc, 1);
  EXPECT_EQ(r.err.rfind("prog: error: " + in + ": truncated", 0), 0u) << r.err;
  EXPECT_EQ(readFile(out), good.bytes);
}

TEST_F(PcapGraph, MissingInputIsAnError) {
  RunResult r = runWith({"--in", "/nonexistent/in.pcap"});
  EXPECT_EQ(r.rc, 1);
  EXPECT_EQ(r.err,
            "prog: error: /nonexistent/in.pcap: No such file or directory\n");
  EXPECT_TRUE(r.out.empty());
}

TEST_F(PcapGraph, OutputWithoutFileIsCountedAndDiscarded) {
  PcapBuilder b;
  for (unsigned i = 0; i < 7; ++i)
    b.packet(i, i, frame(100, i));
  std::string in = tempPath("nofile.pcap"), json = tempPath("nofile.json");
  writeFile(in, b.bytes);
  RunResult r = runWith({"--in", in, "--stats-json", json});
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("device 0 tx: 7 packets, 700 bytes (no --out: "
                       "discarded)\n"),
            std::string::npos)
      << r.out;
  std::string text = readFile(json);
  EXPECT_NE(text.find("\"tx\": [{\"device\": 0, \"file\": null, \"packets\": "
                      "7, \"bytes\": 700}]"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\"rx\": [{\"device\": 0, \"file\": \"" + in +
                      "\", \"packets\": 7, \"bytes\": 700}]"),
            std::string::npos)
      << text;
}

TEST_F(PcapGraph, InputDeviceWithoutFileIsEmpty) {
  RunResult r = runWith({"--quiet"});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(nprt_test_inst(g, 1).in_packets[0], 0u);
}

} // namespace
