//===- FrameDecoder.h - Parse one frame for npdump --------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Reads the headers npgen writes (Ethernet, ARP, IPv4 with UDP/TCP/ICMP,
// IPv6 with UDP) straight from the bytes, checks them, and counts frames
// with the rules of TrafficCounts. It never trusts a length field: every
// read is bounded by the captured length.
//
//===----------------------------------------------------------------------===//

#ifndef TOOLS_NPDUMP_FRAMEDECODER_H
#define TOOLS_NPDUMP_FRAMEDECODER_H

#include "tools/common/PacketLayout.h"
#include "tools/common/TrafficCounts.h"

#include <cstdint>
#include <unordered_set>

namespace npcc::tools {

/// What a header check found. NotChecked: the bytes are not all there.
enum class Check : uint8_t { NotChecked, Ok, Bad };

struct IPv4Info {
  bool Short = false;
  unsigned Version = 0, Ihl = 0, Ttl = 0, Proto = 0;
  unsigned TotalLength = 0;
  /// Bytes after the Ethernet header.
  unsigned Available = 0;
  uint32_t Src = 0, Dst = 0;
  Check HeaderChecksum = Check::NotChecked;
  bool BadLength = false;
  /// Offset of the L4 header in the frame (20-byte header if IHL < 5).
  unsigned L4Offset = 0;
  /// The L4 header is complete (UDP 8, TCP 20, ICMP 8 bytes).
  bool L4Complete = false;
  bool HasFlowKey = false;
  FlowKey Key;
  uint8_t IcmpType = 0, IcmpCode = 0;
  uint16_t IcmpSeq = 0;
  Check L4Checksum = Check::NotChecked;
};

struct ArpInfo {
  bool Complete = false;
  uint16_t Op = 0;
  const uint8_t *SenderMac = nullptr;
  uint32_t SenderIp = 0, TargetIp = 0;
};

struct IPv6Info {
  bool Complete = false;
  const uint8_t *Src = nullptr, *Dst = nullptr;
  unsigned NextHeader = 0, HopLimit = 0;
  bool HasPorts = false;
  uint16_t SrcPort = 0, DstPort = 0;
};

struct DecodedFrame {
  const uint8_t *Data = nullptr;
  unsigned Len = 0;
  /// Shorter than an Ethernet header: nothing else is decoded.
  bool EtherTruncated = false;
  /// A raw IP capture: Data is the IP packet, there is no Ethernet header.
  bool RawIP = false;
  uint16_t EtherType = 0;
  FrameClass Class = FrameClass::Other;
  bool Broadcast = false;
  IPv4Info IPv4;
  ArpInfo Arp;
  IPv6Info IPv6;
};

DecodedFrame decodeFrame(const uint8_t *Data, unsigned Len);

/// Adds one frame to \p Counts; \p Flows collects the distinct 5-tuples.
void countFrame(const DecodedFrame &F, TrafficCounts &Counts,
                std::unordered_set<FlowKey, FlowKeyHash> &Flows);

} // namespace npcc::tools

#endif // TOOLS_NPDUMP_FRAMEDECODER_H
