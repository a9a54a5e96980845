//===- FlowTable.cpp - The distinct 5-tuples npgen sends ------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "tools/npgen/FlowTable.h"

#include "tools/npgen/WeightedChoice.h"

#include <algorithm>
#include <numeric>
#include <unordered_set>

using namespace npcc::tools;

static uint32_t hostIn(const IPv4Net &Net, Random &Rng) {
  uint32_t Mask = Net.hostMask();
  return Net.Base | (static_cast<uint32_t>(Rng.next()) & Mask);
}

/// N distinct addresses of \p Net in random order: rejection sampling, or a
/// shuffle of every host when N is more than half of them.
static std::vector<uint32_t> drawSources(const IPv4Net &Net, uint64_t N,
                                         Random &Rng) {
  uint64_t Hosts = uint64_t(Net.hostMask()) + 1;
  std::vector<uint32_t> Out;
  Out.reserve(N);
  if (2 * N > Hosts) {
    // Hosts <= 2N <= 2^21 here.
    std::vector<uint32_t> All(Hosts);
    std::iota(All.begin(), All.end(), 0u);
    for (uint64_t I = 0; I < N; ++I) {
      uint64_t J = I + Rng.below(Hosts - I);
      std::swap(All[I], All[J]);
      Out.push_back(Net.Base | All[I]);
    }
    return Out;
  }
  std::unordered_set<uint32_t> Seen;
  Seen.reserve(N);
  while (Out.size() < N) {
    uint32_t A = hostIn(Net, Rng);
    if (Seen.insert(A).second)
      Out.push_back(A);
  }
  return Out;
}

std::string FlowTable::build(const GenOptions &Opts, Random &Rng) {
  static const uint8_t Protos[] = {ProtoUdp, ProtoTcp, ProtoIcmp};
  WeightedChoice Proto(
      std::vector<double>(Opts.L4Weights.begin(), Opts.L4Weights.end()));
  RandomOrder = Opts.RandomFlowOrder;
  Sources = Opts.DistinctSources;
  Covered = 0;
  std::vector<uint32_t> SourceAddrs;
  if (Sources) {
    Random SourceRng(Opts.Seed ^ 0x736f7572636573ULL); // "sources"
    SourceAddrs = drawSources(Opts.SrcNet, Sources, SourceRng);
  }
  Flows.clear();
  Flows.reserve(Opts.Flows);
  std::unordered_set<FlowKey, FlowKeyHash> Seen;
  // Collisions are rare unless the space is nearly exhausted; give up after
  // a generous number of draws instead of looping forever.
  uint64_t Budget = 64 * Opts.Flows + 1024;
  while (Flows.size() < Opts.Flows) {
    if (Budget-- == 0)
      return "cannot draw " + std::to_string(Opts.Flows) +
             " distinct flows from --src-net, --dst-net and --l4";
    FlowKey K;
    K.Proto = Protos[Proto.pick(Rng)];
    K.Src = Sources ? SourceAddrs[Flows.size() % Sources]
                    : hostIn(Opts.SrcNet, Rng);
    K.Dst = hostIn(Opts.DstNet, Rng);
    uint64_t Ports = Rng.next();
    // Ephemeral source ports, well-known-ish destination ports.
    K.SrcPort = static_cast<uint16_t>(1024 + (Ports & 0xffff) % 64512);
    K.DstPort = static_cast<uint16_t>(1 + (Ports >> 16 & 0xffff) % 1023);
    if (K.Proto == ProtoIcmp)
      K.DstPort = 0; // The ICMP key is (src, dst, echo identifier).
    if (Seen.insert(K).second)
      Flows.push_back(K);
  }
  return "";
}
