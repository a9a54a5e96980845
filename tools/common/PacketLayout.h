//===- PacketLayout.h - Frame layout shared by npgen and npdump -*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The one definition of the header sizes, offsets, type codes and byte-order
// helpers that the traffic generator writes and the dumper reads back.
//
//===----------------------------------------------------------------------===//

#ifndef TOOLS_COMMON_PACKETLAYOUT_H
#define TOOLS_COMMON_PACKETLAYOUT_H

#include <cstdint>

namespace npcc::tools {

// Frame sizes exclude the FCS.
constexpr unsigned EtherHeaderLen = 14;
constexpr unsigned MinValidFrameLen = 60;
constexpr unsigned MinFrameLen = EtherHeaderLen;
constexpr unsigned MaxFrameLen = 9000;

constexpr uint16_t EtherTypeIPv4 = 0x0800;
constexpr uint16_t EtherTypeArp = 0x0806;
constexpr uint16_t EtherTypeIPv6 = 0x86dd;

constexpr unsigned IPv4HeaderLen = 20;
constexpr unsigned IPv6HeaderLen = 40;
constexpr unsigned ArpLen = 28;
constexpr unsigned UdpHeaderLen = 8;
constexpr unsigned TcpHeaderLen = 20;
constexpr unsigned IcmpHeaderLen = 8;

/// An IPv4 frame shorter than this is "short": cut inside the IP header.
constexpr unsigned IPv4FrameMinLen = EtherHeaderLen + IPv4HeaderLen;

constexpr uint8_t ProtoIcmp = 1;
constexpr uint8_t ProtoTcp = 6;
constexpr uint8_t ProtoUdp = 17;

constexpr uint16_t ArpOpRequest = 1;
constexpr uint16_t ArpOpReply = 2;
constexpr uint8_t IcmpEchoRequest = 8;

/// Bytes of the L4 header needed to read the flow key: both ports for UDP
/// and TCP, type, code, checksum and identifier for ICMP.
inline unsigned flowKeyBytes(uint8_t Proto) {
  return Proto == ProtoIcmp ? 6 : 4;
}

/// The frame classes counted in reports, in report order.
enum class FrameClass : uint8_t { IPv4, Arp, IPv6, Other };

inline FrameClass classOfEtherType(uint16_t Type) {
  switch (Type) {
  case EtherTypeIPv4:
    return FrameClass::IPv4;
  case EtherTypeArp:
    return FrameClass::Arp;
  case EtherTypeIPv6:
    return FrameClass::IPv6;
  default:
    return FrameClass::Other;
  }
}

inline uint16_t load16(const uint8_t *P) {
  return static_cast<uint16_t>(P[0] << 8 | P[1]);
}
inline uint32_t load32(const uint8_t *P) {
  return uint32_t(P[0]) << 24 | uint32_t(P[1]) << 16 | uint32_t(P[2]) << 8 |
         P[3];
}
inline void store16(uint8_t *P, uint16_t V) {
  P[0] = static_cast<uint8_t>(V >> 8);
  P[1] = static_cast<uint8_t>(V);
}
inline void store32(uint8_t *P, uint32_t V) {
  store16(P, static_cast<uint16_t>(V >> 16));
  store16(P + 2, static_cast<uint16_t>(V));
}

} // namespace npcc::tools

#endif // TOOLS_COMMON_PACKETLAYOUT_H
