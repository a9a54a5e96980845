//===- GenOptions.cpp - npgen command line --------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "tools/npgen/GenOptions.h"

#include "tools/common/ArgParser.h"
#include "tools/common/PacketLayout.h"
#include "tools/npgen/WeightedChoice.h"

#include <arpa/inet.h>
#include <cstdio>

using namespace npcc::tools;

static const char *const HelpText = R"(usage: npgen -o FILE [options]

Writes a deterministic pcap of Ethernet frames (IPv4 UDP/TCP/ICMP, ARP, IPv6,
other ethertypes). The same options and seed always give the same bytes.

Output:
  -o, --output FILE        pcap to write ('-' for stdout); required
  --report FILE            write the JSON count object ('-' for stdout)
  --count N                frames to write (default 100)
  --seed S                 64-bit seed (default 1)
  --nanosecond             nanosecond time stamps (default microsecond)
  --gap-ns N               time between frames in ns (default 1000); the
                           first frame is at 1700000000 s
  --quiet                  no progress on stderr (printed past 1M frames)
  --version                print npcc's version and exit

Frames:
  --size N                 frame size in bytes without FCS (default 64);
                           14..9000, below 60 frames are runts
  --size-mix SIZE:W,...    weighted sizes, e.g. 64:7,576:4,1500:1, or 'imix'
  --mix CLASS=W,...        weights of ipv4, arp, ipv6, other (default ipv4=1);
                           other = non-IP, untagged ethertypes such as LLDP
  --l4 PROTO=W,...         weights of udp, tcp, icmp (default udp=60,tcp=30,
                           icmp=10); each flow draws its protocol once
  --flows F                distinct IPv4 5-tuples (default 64, max 1048576)
  --flow-order ORDER       round-robin (default) or random
  --distinct-sources N     exactly N distinct IPv4 source addresses, drawn
                           at random from --src-net (not sequential); flow i
                           has source i mod N, --flows defaults to N and
                           must not be below it; N in 1..min(--count,
                           1048576, addresses in --src-net). The first N
                           IPv4 frames carry the N sources, each once (in
                           both flow orders), so every source appears when
                           the trace has N IPv4 frames or more
  --src-net A.B.C.D/N      IPv4 sources (default 10.0.0.0/8)
  --dst-net A.B.C.D/N      IPv4 destinations (default 192.168.0.0/16)
  --ttl T                  IPv4 TTL (default 64)
  --ttl-mix T:W,...        weighted TTLs, e.g. 1:5,64:95
  --broadcast-rate R       fraction of frames sent to ff:ff:ff:ff:ff:ff

Error injection into IPv4 frames (rates in 0..1, drawn independently):
  --bad-checksum-rate R    wrong IPv4 header checksum
  --bad-version-rate R     IP version other than 4
  --bad-ihl-rate R         IHL below 5
  --short-rate R           frame cut inside the IP header (under 34 bytes);
                           a short frame carries no other error
  --bad-length-rate R      IP total length larger than the frame

Report (npdump --summary prints the same object without "seed"):
  {"frames","bytes","ipv4","arp","ipv6","other","udp","tcp","icmp",
   "broadcast","bad_checksum","bad_version","bad_ihl","short","bad_length",
   "ttl":{TTL:count},"flows","seed"}
  Every frame counts under the class it was generated as (its ethertype):
  a short or bad-version IPv4 frame still counts as "ipv4". The udp, tcp,
  icmp, ttl and error counts cover IPv4 frames that are not short; "flows"
  counts the distinct 5-tuples written (those frames with ports in reach).
  UDP, TCP and ICMP checksums are always correct.
)";

void npcc::tools::printGenHelp() { std::fputs(HelpText, stdout); }

static std::string parseNet(const std::string &Flag, const std::string &Text,
                            IPv4Net &Out) {
  std::string Bad =
      "invalid network '" + Text + "' for " + Flag + " (expected A.B.C.D/N)";
  size_t Slash = Text.find('/');
  if (Slash == std::string::npos)
    return Bad;
  in_addr Addr;
  if (inet_pton(AF_INET, Text.substr(0, Slash).c_str(), &Addr) != 1)
    return Bad;
  uint64_t Len = 0;
  if (!parseUnsigned(Flag, Text.substr(Slash + 1), 0, 32, Len).empty())
    return Bad;
  Out.PrefixLen = static_cast<unsigned>(Len);
  Out.Base = ntohl(Addr.s_addr) & ~Out.hostMask();
  return "";
}

/// Parses a mix whose keys are integers in [Min, Max].
static std::string parseNumberMix(const std::string &Flag,
                                  const std::string &Spec, uint64_t Min,
                                  uint64_t Max, std::vector<unsigned> &Keys,
                                  std::vector<double> &Weights) {
  std::vector<MixEntry> Entries;
  std::string Error = parseMix(Flag, Spec, ':', Entries);
  if (!Error.empty())
    return Error;
  Keys.clear();
  Weights.clear();
  for (const MixEntry &E : Entries) {
    uint64_t Key = 0;
    Error = parseUnsigned(Flag, E.first, Min, Max, Key);
    if (!Error.empty())
      return Error;
    Keys.push_back(static_cast<unsigned>(Key));
    Weights.push_back(E.second);
  }
  return "";
}

/// Parses a mix whose keys are the names in \p Names.
template <size_t N>
static std::string
parseNamedMix(const std::string &Flag, const std::string &Spec,
              const char *const (&Names)[N], std::array<double, N> &Weights) {
  std::vector<MixEntry> Entries;
  std::string Error = parseMix(Flag, Spec, '=', Entries);
  if (!Error.empty())
    return Error;
  Weights.fill(0);
  for (const MixEntry &E : Entries) {
    size_t I = 0;
    while (I < N && E.first != Names[I])
      ++I;
    if (I == N) {
      std::string Known;
      for (const char *Name : Names)
        Known += std::string(Known.empty() ? "" : ", ") + Name;
      return "unknown key '" + E.first + "' in " + Flag + " (expected " +
             Known + ")";
    }
    Weights[I] = E.second;
  }
  return "";
}

static const char *const ClassNames[] = {"ipv4", "arp", "ipv6", "other"};
static const char *const L4Names[] = {"udp", "tcp", "icmp"};

std::string npcc::tools::parseGenOptions(int Argc, char **Argv, GenOptions &O) {
  auto Unsigned = [](const char *Name, uint64_t Min, uint64_t Max,
                     uint64_t &Out) {
    return Flag{Name, true, [=, &Out](const std::string &V) {
                  return parseUnsigned(Name, V, Min, Max, Out);
                }};
  };
  auto Rate = [](const char *Name, double &Out) {
    return Flag{Name, true, [Name, &Out](const std::string &V) {
                  return parseRate(Name, V, Out);
                }};
  };
  auto Output = [&O](const std::string &V) {
    if (V.empty())
      return std::string("empty output file name");
    O.Output = V;
    return std::string();
  };
  uint64_t Size = 0, Ttl = 0;
  std::vector<Flag> Flags = {
      {"-o", true, Output},
      {"--output", true, Output},
      {"--report", true,
       [&O](const std::string &V) {
         if (V.empty())
           return std::string("empty report file name");
         O.Report = V;
         return std::string();
       }},
      Unsigned("--count", 0, 10000000000ULL, O.Count),
      Unsigned("--seed", 0, UINT64_MAX, O.Seed),
      Unsigned("--gap-ns", 0, 1000000000ULL, O.GapNs),
      switchFlag("--nanosecond", O.Nanosecond),
      switchFlag("--quiet", O.Quiet),
      switchFlag("--help", O.Help),
      switchFlag("--version", O.Version),
      switchFlag("-h", O.Help),
      {"--size", true,
       [&](const std::string &V) {
         std::string Error =
             parseUnsigned("--size", V, MinFrameLen, MaxFrameLen, Size);
         O.Sizes = {static_cast<unsigned>(Size)};
         O.SizeWeights = {1};
         return Error;
       }},
      {"--size-mix", true,
       [&O](const std::string &V) {
         std::string Spec = V == "imix" ? "64:7,576:4,1500:1" : V;
         return parseNumberMix("--size-mix", Spec, MinFrameLen, MaxFrameLen,
                               O.Sizes, O.SizeWeights);
       }},
      {"--mix", true,
       [&O](const std::string &V) {
         return parseNamedMix("--mix", V, ClassNames, O.ClassWeights);
       }},
      {"--l4", true,
       [&O](const std::string &V) {
         return parseNamedMix("--l4", V, L4Names, O.L4Weights);
       }},
      {"--flows", true,
       [&O](const std::string &V) {
         O.FlowsGiven = true;
         return parseUnsigned("--flows", V, 1, MaxFlows, O.Flows);
       }},
      Unsigned("--distinct-sources", 1, MaxFlows, O.DistinctSources),
      {"--flow-order", true,
       [&O](const std::string &V) {
         if (V != "round-robin" && V != "random")
           return "invalid value '" + V +
                  "' for --flow-order (expected round-robin or random)";
         O.RandomFlowOrder = V == "random";
         return std::string();
       }},
      {"--src-net", true,
       [&O](const std::string &V) {
         return parseNet("--src-net", V, O.SrcNet);
       }},
      {"--dst-net", true,
       [&O](const std::string &V) {
         return parseNet("--dst-net", V, O.DstNet);
       }},
      {"--ttl", true,
       [&](const std::string &V) {
         std::string Error = parseUnsigned("--ttl", V, 0, 255, Ttl);
         O.Ttls = {static_cast<unsigned>(Ttl)};
         O.TtlWeights = {1};
         return Error;
       }},
      {"--ttl-mix", true,
       [&O](const std::string &V) {
         return parseNumberMix("--ttl-mix", V, 0, 255, O.Ttls, O.TtlWeights);
       }},
      Rate("--broadcast-rate", O.BroadcastRate),
      Rate("--bad-checksum-rate", O.BadChecksumRate),
      Rate("--bad-version-rate", O.BadVersionRate),
      Rate("--bad-ihl-rate", O.BadIhlRate),
      Rate("--short-rate", O.ShortRate),
      Rate("--bad-length-rate", O.BadLengthRate),
  };
  std::vector<std::string> Operands;
  std::string Error = parseArgs(Argc, Argv, Flags, Operands);
  if (!Error.empty() || O.Help || O.Version)
    return Error;
  if (!Operands.empty())
    return "unexpected argument '" + Operands.front() + "'";
  if (O.Output.empty())
    return "no output file (use -o FILE)";
  // pcap stores 32-bit signed seconds: stay below 2^31 from the epoch.
  if (O.GapNs && O.Count > 440000000ULL * 1000000000ULL / O.GapNs)
    return "--count times --gap-ns exceeds the pcap time stamp range";
  if (O.Output == "-" && O.Report == "-")
    return "the pcap and the report cannot both go to stdout";
  if (uint64_t N = O.DistinctSources) {
    std::string Ns = std::to_string(N);
    if (N > O.Count)
      return "--distinct-sources " + Ns + " exceeds --count " +
             std::to_string(O.Count) + " (every source needs a frame)";
    uint64_t Hosts = uint64_t(O.SrcNet.hostMask()) + 1;
    if (N > Hosts)
      return "--distinct-sources " + Ns + " exceeds the " +
             std::to_string(Hosts) + " addresses of --src-net";
    if (!O.FlowsGiven)
      O.Flows = N;
    else if (O.Flows < N)
      return "--flows " + std::to_string(O.Flows) +
             " is below --distinct-sources " + Ns +
             " (every source needs a flow)";
  }
  return "";
}
