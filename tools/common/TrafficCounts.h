//===- TrafficCounts.h - The count object of npgen and npdump ---*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// `npgen --report` and `npdump --summary` print the same JSON object, so a
// test can compare what was written with what is read back. The counting
// rules (what makes a frame "short", which frames have a TTL) are stated
// here once and documented in both tools' --help.
//
//===----------------------------------------------------------------------===//

#ifndef TOOLS_COMMON_TRAFFICCOUNTS_H
#define TOOLS_COMMON_TRAFFICCOUNTS_H

#include "tools/common/PacketLayout.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>

namespace npcc::tools {

/// The 5-tuple of an IPv4 UDP, TCP or ICMP frame. For ICMP the source port
/// is the echo identifier and the destination port is zero.
struct FlowKey {
  uint32_t Src = 0;
  uint32_t Dst = 0;
  uint16_t SrcPort = 0;
  uint16_t DstPort = 0;
  uint8_t Proto = 0;

  bool operator==(const FlowKey &O) const {
    return Src == O.Src && Dst == O.Dst && SrcPort == O.SrcPort &&
           DstPort == O.DstPort && Proto == O.Proto;
  }
};

struct FlowKeyHash {
  size_t operator()(const FlowKey &K) const {
    uint64_t H = (uint64_t(K.Src) << 32 | K.Dst) * 0x9e3779b97f4a7c15ULL;
    H ^= (uint64_t(K.SrcPort) << 24 | uint64_t(K.DstPort) << 8 | K.Proto) *
         0xbf58476d1ce4e5b9ULL;
    return static_cast<size_t>(H ^ (H >> 31));
  }
};

/// Exact counts of a frame sequence. Every frame counts under the class of
/// its ethertype, including broken IPv4 frames. The L4, TTL, error and flow
/// counts cover only IPv4 frames that are not short.
struct TrafficCounts {
  uint64_t Frames = 0;
  uint64_t Bytes = 0;
  uint64_t IPv4 = 0;
  uint64_t Arp = 0;
  uint64_t IPv6 = 0;
  uint64_t Other = 0;
  uint64_t Udp = 0;
  uint64_t Tcp = 0;
  uint64_t Icmp = 0;
  uint64_t Broadcast = 0;
  uint64_t BadChecksum = 0;
  uint64_t BadVersion = 0;
  uint64_t BadIhl = 0;
  uint64_t Short = 0;
  uint64_t BadLength = 0;
  std::map<unsigned, uint64_t> Ttl;
  uint64_t Flows = 0;

  void addClass(FrameClass C);
  void addProto(uint8_t Proto);
};

/// Prints \p C as one JSON object with a fixed key order and a newline.
/// The seed is printed only when given (npdump cannot know it).
std::string countsToJson(const TrafficCounts &C, std::optional<uint64_t> Seed);

} // namespace npcc::tools

#endif // TOOLS_COMMON_TRAFFICCOUNTS_H
