//===- GenOptions.h - npgen command line ------------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Everything npgen's output depends on. Two runs with equal options write
// byte-identical files.
//
//===----------------------------------------------------------------------===//

#ifndef TOOLS_NPGEN_GENOPTIONS_H
#define TOOLS_NPGEN_GENOPTIONS_H

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace npcc::tools {

struct IPv4Net {
  uint32_t Base = 0;
  unsigned PrefixLen = 0;

  uint32_t hostMask() const {
    return PrefixLen == 0 ? ~0u : (PrefixLen == 32 ? 0u : ~0u >> PrefixLen);
  }
};

/// The most --distinct-sources (and --flows) npgen accepts.
constexpr uint64_t MaxFlows = 1u << 20;

struct GenOptions {
  std::string Output;
  std::string Report;
  uint64_t Count = 100;
  uint64_t Seed = 1;
  std::vector<unsigned> Sizes{64};
  std::vector<double> SizeWeights{1};
  /// Weights of ipv4, arp, ipv6, other, in FrameClass order.
  std::array<double, 4> ClassWeights{1, 0, 0, 0};
  /// Weights of udp, tcp, icmp.
  std::array<double, 3> L4Weights{60, 30, 10};
  uint64_t Flows = 64;
  /// Whether --flows was given (otherwise --distinct-sources sets Flows).
  bool FlowsGiven = false;
  bool RandomFlowOrder = false;
  /// --distinct-sources: exactly this many IPv4 source addresses (0: off).
  uint64_t DistinctSources = 0;
  IPv4Net SrcNet{0x0a000000, 8};
  IPv4Net DstNet{0xc0a80000, 16};
  std::vector<unsigned> Ttls{64};
  std::vector<double> TtlWeights{1};
  double BroadcastRate = 0;
  double BadChecksumRate = 0;
  double BadVersionRate = 0;
  double BadIhlRate = 0;
  double ShortRate = 0;
  double BadLengthRate = 0;
  uint64_t GapNs = 1000;
  bool Nanosecond = false;
  bool Quiet = false;
  bool Help = false;
  bool Version = false;
};

/// Parses and validates the command line; returns an error or "".
std::string parseGenOptions(int Argc, char **Argv, GenOptions &Opts);

/// Prints --help to stdout.
void printGenHelp();

} // namespace npcc::tools

#endif // TOOLS_NPGEN_GENOPTIONS_H
