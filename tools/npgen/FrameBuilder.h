//===- FrameBuilder.h - Bytes of one npgen frame ----------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The generator decides what a frame is (a FramePlan: class, size, flow,
// TTL, injected errors) and counts it; the builder only turns a plan into
// bytes. Header checksums are correct unless the plan says otherwise.
//
//===----------------------------------------------------------------------===//

#ifndef TOOLS_NPGEN_FRAMEBUILDER_H
#define TOOLS_NPGEN_FRAMEBUILDER_H

#include "tools/common/PacketLayout.h"
#include "tools/common/TrafficCounts.h"
#include "tools/npgen/GenOptions.h"
#include "tools/npgen/Random.h"

#include <cstdint>

namespace npcc::tools {

/// A buffer for build() must hold this many bytes: headers are written in
/// full even when the frame is cut shorter.
constexpr unsigned FrameBufferLen = MaxFrameLen + 128;

struct FramePlan {
  uint64_t Index = 0;
  FrameClass Class = FrameClass::IPv4;
  /// The drawn frame size, and the bytes written (less when cut short).
  unsigned Size = 0;
  unsigned Len = 0;
  bool Broadcast = false;
  // IPv4 only.
  const FlowKey *Flow = nullptr;
  uint8_t Ttl = 64;
  uint8_t Version = 4;
  uint8_t Ihl = 5;
  uint16_t TotalLength = 0;
  bool BadChecksum = false;
};

class FrameBuilder {
public:
  FrameBuilder(const GenOptions &Opts) : Opts(Opts) {}

  /// Writes the frame of \p Plan into \p Buf (FrameBufferLen bytes); draws
  /// payload bytes and free header fields from \p Rng.
  void build(const FramePlan &Plan, Random &Rng, uint8_t *Buf) const;

private:
  void buildIPv4(const FramePlan &Plan, Random &Rng, uint8_t *Ip) const;
  void buildArp(Random &Rng, uint8_t *Arp) const;
  void buildIPv6(const FramePlan &Plan, Random &Rng, uint8_t *Ip6) const;

  const GenOptions &Opts;
};

} // namespace npcc::tools

#endif // TOOLS_NPGEN_FRAMEBUILDER_H
