//===- PcieMsgTest.cpp - framing of PCIe-slot messages --------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "runtime/nprt/pcie_msg.h"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

namespace {

std::unique_ptr<nprt_pcie_msg> makeMsg(uint32_t kind, uint32_t slot) {
  auto m = std::make_unique<nprt_pcie_msg>();
  nprt_pcie_msg_init(m.get(), kind, slot);
  return m;
}

nprt_pcie_rec rec(uint32_t len, int64_t ts) {
  nprt_pcie_rec r{};
  r.len = len;
  r.wire_len = len + 100;
  r.in_port = 2;
  r.ts = ts;
  return r;
}

TEST(PcieMsg, RoundTripsABatch) {
  auto m = makeMsg(NPRT_PCIE_DATA, 7);
  std::vector<uint8_t> a(60, 0xaa), b(1514, 0xbb), empty;
  nprt_pcie_rec ra = rec(60, -5), rb = rec(1514, 1234567890123), re = rec(0, 1);
  ASSERT_TRUE(nprt_pcie_msg_add(m.get(), &ra, a.data()));
  ASSERT_TRUE(nprt_pcie_msg_add(m.get(), &rb, b.data()));
  ASSERT_TRUE(nprt_pcie_msg_add(m.get(), &re, empty.data()));
  nprt_pcie_msg_seal(m.get());
  auto in = makeMsg(0, 0);
  memcpy(in->buf, m->buf, m->used);
  char err[256];
  ASSERT_EQ(nprt_pcie_msg_check(in.get(), m->used, err, sizeof(err)), 0) << err;
  EXPECT_EQ(in->kind, (uint32_t)NPRT_PCIE_DATA);
  EXPECT_EQ(in->slot, 7u);
  EXPECT_EQ(in->count, 3u);
  size_t off = NPRT_PCIE_HDR;
  nprt_pcie_rec r{};
  const uint8_t *data;
  nprt_pcie_msg_at(in.get(), &off, &r, &data);
  EXPECT_EQ(r.len, 60u);
  EXPECT_EQ(r.wire_len, 160u);
  EXPECT_EQ(r.in_port, 2u);
  EXPECT_EQ(r.ts, -5);
  EXPECT_EQ(data[0], 0xaa);
  nprt_pcie_msg_at(in.get(), &off, &r, &data);
  EXPECT_EQ(r.len, 1514u);
  EXPECT_EQ(r.ts, 1234567890123);
  EXPECT_EQ(data[1513], 0xbb);
  nprt_pcie_msg_at(in.get(), &off, &r, &data);
  EXPECT_EQ(r.len, 0u);
  EXPECT_EQ(off, m->used);
}

TEST(PcieMsg, CarriesAnnotationsRoomAndLead) {
  auto m = makeMsg(NPRT_PCIE_DATA, 1);
  nprt_pcie_rec w = rec(3, 9);
  w.paint = 7;
  w.out_port = 5;
  w.headroom = 142;
  w.tailroom = 11;
  w.lead = 2;
  w.anno = 0x1122334455667788ull;
  w.annos[0] = 1;
  w.annos[NPRT_PCIE_ANNOS - 1] = ~0ull;
  w.seq = 41;
  w.clock = INT64_MIN;
  const uint8_t bytes[] = {0xa, 0xb, 1, 2, 3};
  ASSERT_TRUE(nprt_pcie_msg_add(m.get(), &w, bytes));
  EXPECT_EQ(m->used, NPRT_PCIE_HDR + NPRT_PCIE_REC + 5u);
  nprt_pcie_msg_seal(m.get());
  auto in = makeMsg(0, 0);
  memcpy(in->buf, m->buf, m->used);
  char err[256];
  ASSERT_EQ(nprt_pcie_msg_check(in.get(), m->used, err, sizeof(err)), 0) << err;
  size_t off = NPRT_PCIE_HDR;
  nprt_pcie_rec r{};
  const uint8_t *data;
  nprt_pcie_msg_at(in.get(), &off, &r, &data);
  EXPECT_EQ(r.len, 3u);
  EXPECT_EQ(r.paint, 7u);
  EXPECT_EQ(r.out_port, 5u);
  EXPECT_EQ(r.headroom, 142u);
  EXPECT_EQ(r.tailroom, 11u);
  EXPECT_EQ(r.lead, 2u);
  EXPECT_EQ(r.anno, 0x1122334455667788ull);
  EXPECT_EQ(r.annos[0], 1u);
  EXPECT_EQ(r.annos[NPRT_PCIE_ANNOS - 1], ~0ull);
  EXPECT_EQ(r.seq, 41u);
  EXPECT_EQ(r.clock, INT64_MIN);
  EXPECT_EQ(data[0], 0xa);
  EXPECT_EQ(data[4], 3);
  EXPECT_EQ(off, m->used);
}

// A SYNC says which slots' senders ended and its sender's clock; only a
// SYNC may, and only slots that exist.
TEST(PcieMsg, CarriesClosedSlotsOnSync) {
  auto m = makeMsg(NPRT_PCIE_SYNC, 0);
  m->closed = 1u << 0 | 1u << (NPRT_PCIE_SLOTS - 1);
  m->clock = 1700000000123456789ll;
  nprt_pcie_msg_seal(m.get());
  auto in = makeMsg(0, 0);
  memcpy(in->buf, m->buf, m->used);
  char err[256];
  ASSERT_EQ(nprt_pcie_msg_check(in.get(), m->used, err, sizeof(err)), 0) << err;
  EXPECT_EQ(in->kind, (uint32_t)NPRT_PCIE_SYNC);
  EXPECT_EQ(in->closed, 1u << 0 | 1u << (NPRT_PCIE_SLOTS - 1));
  EXPECT_EQ(in->clock, 1700000000123456789ll);
  EXPECT_EQ(m->used, NPRT_PCIE_HDR + 8u);
  // A SYNC without its clock is malformed.
  EXPECT_EQ(nprt_pcie_msg_check(in.get(), NPRT_PCIE_HDR, err, sizeof(err)), -1);

  m->closed = 1u << NPRT_PCIE_SLOTS;
  nprt_pcie_msg_seal(m.get());
  memcpy(in->buf, m->buf, m->used);
  EXPECT_EQ(nprt_pcie_msg_check(in.get(), m->used, err, sizeof(err)), -1);
  EXPECT_NE(strstr(err, "closed slots"), nullptr) << err;

  auto data = makeMsg(NPRT_PCIE_DATA, 2);
  data->closed = 1;
  nprt_pcie_msg_seal(data.get());
  memcpy(in->buf, data->buf, data->used);
  EXPECT_EQ(nprt_pcie_msg_check(in.get(), data->used, err, sizeof(err)), -1);
}

TEST(PcieMsg, NeverExceeds64KB) {
  auto m = makeMsg(NPRT_PCIE_DATA, 0);
  std::vector<uint8_t> frame(1500, 1);
  nprt_pcie_rec r = rec(1500, 0);
  unsigned n = 0;
  while (nprt_pcie_msg_fits(m.get(), 1500)) {
    ASSERT_TRUE(nprt_pcie_msg_add(m.get(), &r, frame.data()));
    ++n;
  }
  EXPECT_EQ(n, (65536u - NPRT_PCIE_HDR) / (1500u + NPRT_PCIE_REC));
  EXPECT_FALSE(nprt_pcie_msg_add(m.get(), &r, frame.data()));
  EXPECT_LE(m->used, (size_t)NPRT_PCIE_MSG_MAX);
  // The largest packet fits an empty message, one byte more never does.
  uint32_t most = NPRT_PCIE_MSG_MAX - NPRT_PCIE_HDR - NPRT_PCIE_REC;
  EXPECT_TRUE(nprt_pcie_msg_packet_ok(most));
  EXPECT_FALSE(nprt_pcie_msg_packet_ok(most + 1));
  auto big = makeMsg(NPRT_PCIE_DATA, 0);
  std::vector<uint8_t> huge(most + 1, 0);
  nprt_pcie_rec rh = rec(most, 0);
  EXPECT_TRUE(nprt_pcie_msg_add(big.get(), &rh, huge.data()));
  EXPECT_EQ(big->used, (size_t)NPRT_PCIE_MSG_MAX);
}

TEST(PcieMsg, RejectsMalformedMessages) {
  auto m = makeMsg(NPRT_PCIE_DATA, 3);
  std::vector<uint8_t> frame(100, 9);
  nprt_pcie_rec r = rec(100, 0);
  ASSERT_TRUE(nprt_pcie_msg_add(m.get(), &r, frame.data()));
  nprt_pcie_msg_seal(m.get());
  char err[256];
  auto check = [&](std::vector<uint8_t> bytes, size_t n) {
    auto in = makeMsg(0, 0);
    memcpy(in->buf, bytes.data(), bytes.size());
    int rc = nprt_pcie_msg_check(in.get(), n, err, sizeof(err));
    return rc == 0 ? std::string() : std::string(err);
  };
  std::vector<uint8_t> good(m->buf, m->buf + m->used);
  EXPECT_EQ(check(good, good.size()), "");
  EXPECT_EQ(check(good, 10), "message of 10 bytes, shorter than its header");
  size_t size = NPRT_PCIE_HDR + NPRT_PCIE_REC + 100;
  EXPECT_EQ(check(good, good.size() - 1),
            "message says " + std::to_string(size) + " bytes, has " +
                std::to_string(size - 1));
  std::vector<uint8_t> bad = good;
  bad[0] ^= 1;
  EXPECT_EQ(check(bad, bad.size()).rfind("bad message magic", 0), 0u);
  bad = good;
  bad[4] = 9;
  EXPECT_EQ(check(bad, bad.size()), "unknown message kind 9");
  bad = good;
  bad[5] = 30;
  EXPECT_EQ(check(bad, bad.size()), "slot 30 out of range (0..29)");
  bad = good;
  bad[6] = 2; // two packets announced, one there
  EXPECT_EQ(check(bad, bad.size()), "slot 3: packet 2 of 2 is truncated");
  bad = good;
  bad[NPRT_PCIE_HDR] = 200; // the packet says 200 bytes
  EXPECT_EQ(check(bad, bad.size()),
            "slot 3: packet 1 of 1 says 200 bytes, 100 are left");
  bad = good;
  bad[NPRT_PCIE_HDR] = 50; // the packet says 50 bytes: 50 left over
  EXPECT_EQ(check(bad, bad.size()),
            "slot 3: 50 bytes after the last of 1 packets");
}

TEST(PcieMsg, StreamsOverASocket) {
  int sv[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
  auto m = makeMsg(NPRT_PCIE_DATA, 1);
  std::vector<uint8_t> frame(64, 5);
  nprt_pcie_rec r = rec(64, 42);
  ASSERT_TRUE(nprt_pcie_msg_add(m.get(), &r, frame.data()));
  nprt_pcie_msg_seal(m.get());
  ASSERT_EQ(nprt_pcie_send(sv[0], m.get()), 0);
  auto sync = makeMsg(NPRT_PCIE_SYNC, 0);
  nprt_pcie_msg_seal(sync.get());
  ASSERT_EQ(nprt_pcie_send(sv[0], sync.get()), 0);
  auto in = makeMsg(0, 0);
  char err[256];
  ASSERT_EQ(nprt_pcie_recv(sv[1], in.get(), err, sizeof(err)), 0) << err;
  EXPECT_EQ(in->count, 1u);
  ASSERT_EQ(nprt_pcie_recv(sv[1], in.get(), err, sizeof(err)), 0) << err;
  EXPECT_EQ(in->kind, (uint32_t)NPRT_PCIE_SYNC);
  // Half a message, then the peer goes: truncated, not a clean end.
  ASSERT_EQ(write(sv[0], m->buf, 20), 20);
  close(sv[0]);
  EXPECT_EQ(nprt_pcie_recv(sv[1], in.get(), err, sizeof(err)), -1);
  EXPECT_EQ(std::string(err),
            "truncated message (20 of " +
                std::to_string(NPRT_PCIE_HDR + NPRT_PCIE_REC + 64) + " bytes)");
  // Between messages, the end of the stream is clean.
  EXPECT_EQ(nprt_pcie_recv(sv[1], in.get(), err, sizeof(err)), 1);
  close(sv[1]);
}

} // namespace
