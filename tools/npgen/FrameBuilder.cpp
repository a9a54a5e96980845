//===- FrameBuilder.cpp - Bytes of one npgen frame ------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "tools/npgen/FrameBuilder.h"

#include "tools/common/Checksum.h"

#include <cstring>

using namespace npcc::tools;

static const uint8_t SrcMac[6] = {0x02, 0, 0, 0, 0, 0x01};
static const uint8_t DstMac[6] = {0x02, 0, 0, 0, 0, 0x02};
static const uint8_t BroadcastMac[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};

/// Non-IP, untagged ethertypes used for "other" frames.
static const uint16_t OtherTypes[] = {
    0x88cc, // LLDP
    0x8809, // slow protocols (LACP)
    0x88f7, // PTP
    0x88b5, // local experimental
    0x9000, // loopback
};

static void fillRandom(uint8_t *P, unsigned Len, Random &Rng) {
  for (unsigned I = 0; I < Len; I += 8) {
    uint64_t Bits = Rng.next();
    std::memcpy(P + I, &Bits, 8); // The buffer has slack past the frame.
  }
}

static unsigned payloadLen(unsigned Size, unsigned Headers) {
  return Size > Headers ? Size - Headers : 0;
}

void FrameBuilder::build(const FramePlan &Plan, Random &Rng,
                         uint8_t *Buf) const {
  std::memcpy(Buf, Plan.Broadcast ? BroadcastMac : DstMac, 6);
  std::memcpy(Buf + 6, SrcMac, 6);
  uint8_t *L3 = Buf + EtherHeaderLen;
  switch (Plan.Class) {
  case FrameClass::IPv4:
    store16(Buf + 12, EtherTypeIPv4);
    buildIPv4(Plan, Rng, L3);
    return;
  case FrameClass::Arp:
    store16(Buf + 12, EtherTypeArp);
    std::memset(L3, 0, payloadLen(Plan.Size, EtherHeaderLen) + ArpLen);
    buildArp(Rng, L3);
    return;
  case FrameClass::IPv6:
    store16(Buf + 12, EtherTypeIPv6);
    buildIPv6(Plan, Rng, L3);
    return;
  case FrameClass::Other:
    store16(Buf + 12, OtherTypes[Rng.below(std::size(OtherTypes))]);
    fillRandom(L3, payloadLen(Plan.Size, EtherHeaderLen), Rng);
    return;
  }
}

void FrameBuilder::buildIPv4(const FramePlan &Plan, Random &Rng,
                             uint8_t *Ip) const {
  const FlowKey &Flow = *Plan.Flow;
  unsigned SegLen = payloadLen(Plan.Size, EtherHeaderLen + IPv4HeaderLen);
  uint8_t *Seg = Ip + IPv4HeaderLen;
  fillRandom(Seg, SegLen + TcpHeaderLen, Rng);

  Ip[0] = static_cast<uint8_t>(Plan.Version << 4 | Plan.Ihl);
  Ip[1] = 0;
  store16(Ip + 2, Plan.TotalLength);
  store16(Ip + 4, static_cast<uint16_t>(Plan.Index));
  store16(Ip + 6, 0x4000); // DF
  Ip[8] = Plan.Ttl;
  Ip[9] = Flow.Proto;
  store16(Ip + 10, 0);
  store32(Ip + 12, Flow.Src);
  store32(Ip + 16, Flow.Dst);

  unsigned CsumOffset = 0, HeaderLen = 0;
  uint64_t Sum = 0;
  if (Flow.Proto == ProtoIcmp) {
    Seg[0] = IcmpEchoRequest;
    Seg[1] = 0;
    store16(Seg + 4, Flow.SrcPort);
    store16(Seg + 6, static_cast<uint16_t>(Plan.Index));
    CsumOffset = 2;
    HeaderLen = IcmpHeaderLen;
  } else {
    store16(Seg, Flow.SrcPort);
    store16(Seg + 2, Flow.DstPort);
    Sum = ipv4PseudoSum(Ip, Flow.Proto, SegLen);
    if (Flow.Proto == ProtoUdp) {
      store16(Seg + 4, static_cast<uint16_t>(SegLen));
      CsumOffset = 6;
      HeaderLen = UdpHeaderLen;
    } else {
      Seg[12] = 5 << 4; // Data offset: no options.
      Seg[13] = 0x18;   // PSH, ACK
      store16(Seg + 14, 65535);
      store16(Seg + 18, 0);
      CsumOffset = 16;
      HeaderLen = TcpHeaderLen;
    }
  }
  // A segment cut inside its header has no meaningful checksum.
  if (SegLen >= HeaderLen) {
    store16(Seg + CsumOffset, 0);
    uint16_t Csum = checksumFinish(checksumAdd(Sum, Seg, SegLen));
    if (Flow.Proto == ProtoUdp && Csum == 0)
      Csum = 0xffff; // Zero means "no checksum" in UDP.
    store16(Seg + CsumOffset, Csum);
  }

  store16(Ip + 10, ipv4HeaderChecksum(Ip, IPv4HeaderLen));
  if (Plan.BadChecksum) {
    uint16_t Good = load16(Ip + 10);
    // 0x0000 and 0xffff are the same one's-complement value: step until
    // the header really fails verification.
    uint16_t Bad = static_cast<uint16_t>(Good ^ (1 + Rng.below(0xfffe)));
    store16(Ip + 10, Bad);
    while (ipv4HeaderChecksumOk(Ip, IPv4HeaderLen))
      store16(Ip + 10, ++Bad);
  }
}

void FrameBuilder::buildArp(Random &Rng, uint8_t *Arp) const {
  bool Request = Rng.below(4) != 0;
  uint32_t Sender = Opts.SrcNet.Base | (static_cast<uint32_t>(Rng.next()) &
                                        Opts.SrcNet.hostMask());
  uint32_t Target = Opts.DstNet.Base | (static_cast<uint32_t>(Rng.next()) &
                                        Opts.DstNet.hostMask());
  store16(Arp, 1); // Ethernet
  store16(Arp + 2, EtherTypeIPv4);
  Arp[4] = 6;
  Arp[5] = 4;
  store16(Arp + 6, Request ? ArpOpRequest : ArpOpReply);
  std::memcpy(Arp + 8, SrcMac, 6);
  store32(Arp + 14, Sender);
  if (!Request)
    std::memcpy(Arp + 18, DstMac, 6);
  store32(Arp + 24, Target);
}

void FrameBuilder::buildIPv6(const FramePlan &Plan, Random &Rng,
                             uint8_t *Ip6) const {
  unsigned SegLen = payloadLen(Plan.Size, EtherHeaderLen + IPv6HeaderLen);
  uint8_t *Seg = Ip6 + IPv6HeaderLen;
  fillRandom(Seg, SegLen + UdpHeaderLen, Rng);
  store32(Ip6, 6u << 28);
  store16(Ip6 + 4, static_cast<uint16_t>(SegLen));
  Ip6[6] = ProtoUdp;
  Ip6[7] = 64;
  // Unique local addresses fd00::/64 with random interface identifiers.
  for (uint8_t *Addr : {Ip6 + 8, Ip6 + 24}) {
    std::memset(Addr, 0, 8);
    Addr[0] = 0xfd;
    uint64_t Id = Rng.next();
    std::memcpy(Addr + 8, &Id, 8);
  }
  if (SegLen < UdpHeaderLen)
    return;
  store16(Seg + 4, static_cast<uint16_t>(SegLen));
  store16(Seg + 6, 0);
  uint64_t Sum = ipv6PseudoSum(Ip6, ProtoUdp, SegLen);
  uint16_t Csum = checksumFinish(checksumAdd(Sum, Seg, SegLen));
  store16(Seg + 6, Csum == 0 ? 0xffff : Csum);
}
