//===- Generator.cpp - npgen's frame loop ---------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "tools/npgen/Generator.h"

#include "tools/common/Output.h"
#include "tools/common/TrafficCounts.h"
#include "tools/npgen/FlowTable.h"
#include "tools/npgen/FrameBuilder.h"
#include "tools/npgen/WeightedChoice.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <pcap/pcap.h>

using namespace npcc::tools;

/// Time stamp of the first frame: 2023-11-14T22:13:20Z.
constexpr uint64_t EpochSeconds = 1700000000;
constexpr uint64_t ProgressEvery = 1000000;

namespace {

/// Turns options into per-frame plans and counts the planned frames.
class Planner {
public:
  Planner(const GenOptions &Opts, const FlowTable &Flows)
      : Opts(Opts), Flows(Flows),
        Classes(std::vector<double>(Opts.ClassWeights.begin(),
                                    Opts.ClassWeights.end())),
        Sizes(Opts.SizeWeights), Ttls(Opts.TtlWeights), FlowUsed(Flows.size()) {
  }

  FramePlan plan(uint64_t Index, FlowTable &Table, Random &Rng);
  void count(const FramePlan &Plan);
  TrafficCounts finish();

private:
  const GenOptions &Opts;
  const FlowTable &Flows;
  WeightedChoice Classes, Sizes, Ttls;
  std::vector<bool> FlowUsed;
  size_t LastFlow = 0;
  TrafficCounts Counts;
};

} // namespace

FramePlan Planner::plan(uint64_t Index, FlowTable &Table, Random &Rng) {
  FramePlan P;
  P.Index = Index;
  P.Class = static_cast<FrameClass>(Classes.pick(Rng));
  P.Size = P.Len = Opts.Sizes[Sizes.pick(Rng)];
  P.Broadcast = Rng.chance(Opts.BroadcastRate);
  if (P.Class != FrameClass::IPv4)
    return P;
  LastFlow = Table.next(Rng);
  P.Flow = &Flows[LastFlow];
  P.Ttl = static_cast<uint8_t>(Opts.Ttls[Ttls.pick(Rng)]);
  unsigned IpBytes = P.Size - EtherHeaderLen;
  P.TotalLength = static_cast<uint16_t>(IpBytes);
  if (Rng.chance(Opts.ShortRate))
    P.Len = std::min<unsigned>(
        P.Size, EtherHeaderLen + static_cast<unsigned>(Rng.below(20)));
  if (P.Len < IPv4FrameMinLen)
    return P; // A short frame carries no other error.
  P.BadChecksum = Rng.chance(Opts.BadChecksumRate);
  if (Rng.chance(Opts.BadVersionRate)) {
    unsigned V = static_cast<unsigned>(Rng.below(15));
    P.Version = static_cast<uint8_t>(V >= 4 ? V + 1 : V);
  }
  if (Rng.chance(Opts.BadIhlRate))
    P.Ihl = static_cast<uint8_t>(Rng.below(5));
  if (Rng.chance(Opts.BadLengthRate))
    P.TotalLength =
        static_cast<uint16_t>(IpBytes + 1 + Rng.below(65535 - IpBytes));
  return P;
}

void Planner::count(const FramePlan &P) {
  ++Counts.Frames;
  Counts.Bytes += P.Len;
  Counts.addClass(P.Class);
  Counts.Broadcast += P.Broadcast;
  if (P.Class != FrameClass::IPv4)
    return;
  if (P.Len < IPv4FrameMinLen) {
    ++Counts.Short;
    return;
  }
  ++Counts.Ttl[P.Ttl];
  Counts.addProto(P.Flow->Proto);
  Counts.BadChecksum += P.BadChecksum;
  Counts.BadVersion += P.Version != 4;
  Counts.BadIhl += P.Ihl < 5;
  Counts.BadLength += P.TotalLength > P.Len - EtherHeaderLen;
  if (P.Len >= IPv4FrameMinLen + flowKeyBytes(P.Flow->Proto))
    FlowUsed[LastFlow] = true;
}

TrafficCounts Planner::finish() {
  Counts.Flows =
      static_cast<uint64_t>(std::count(FlowUsed.begin(), FlowUsed.end(), true));
  return Counts;
}

static std::string ioError(const char *What, const std::string &Path) {
  return std::string("cannot ") + What + " '" + Path +
         "': " + std::strerror(errno);
}

std::string npcc::tools::generate(const GenOptions &Opts) {
  Random FlowRng(Opts.Seed ^ 0x666c6f7773ULL); // "flows"
  FlowTable Flows;
  std::string Error = Flows.build(Opts, FlowRng);
  if (!Error.empty())
    return Error;

  // Open the report first so that a bad path fails before the long part.
  FILE *Report = nullptr;
  if (!Opts.Report.empty()) {
    Report = Opts.Report == "-" ? stdout : std::fopen(Opts.Report.c_str(), "w");
    if (!Report)
      return ioError("open report", Opts.Report);
  }
  FILE *Out;
  Error = openOutput(Opts.Output, Out);
  if (!Error.empty()) {
    if (Report && Report != stdout)
      std::fclose(Report);
    return Error;
  }
  std::setvbuf(Out, nullptr, _IOFBF, 1 << 20);
  pcap_t *Dead = pcap_open_dead_with_tstamp_precision(
      DLT_EN10MB, 65535,
      Opts.Nanosecond ? PCAP_TSTAMP_PRECISION_NANO
                      : PCAP_TSTAMP_PRECISION_MICRO);
  pcap_dumper_t *Dumper = Dead ? pcap_dump_fopen(Dead, Out) : nullptr;
  if (!Dumper) {
    if (Out != stdout)
      std::fclose(Out);
    if (Dead)
      pcap_close(Dead);
    if (Report && Report != stdout)
      std::fclose(Report);
    return "cannot start pcap '" + Opts.Output + "'";
  }

  Random Rng(Opts.Seed);
  Planner Plans(Opts, Flows);
  FrameBuilder Builder(Opts);
  auto Buf = std::make_unique<uint8_t[]>(FrameBufferLen);
  bool Progress = !Opts.Quiet && Opts.Count > ProgressEvery;
  for (uint64_t I = 0; I < Opts.Count; ++I) {
    FramePlan P = Plans.plan(I, Flows, Rng);
    Builder.build(P, Rng, Buf.get());
    uint64_t Ns = I * Opts.GapNs;
    pcap_pkthdr Hdr;
    Hdr.ts.tv_sec = static_cast<time_t>(EpochSeconds + Ns / 1000000000);
    Hdr.ts.tv_usec = static_cast<suseconds_t>(
        Opts.Nanosecond ? Ns % 1000000000 : Ns % 1000000000 / 1000);
    Hdr.caplen = Hdr.len = P.Len;
    pcap_dump(reinterpret_cast<u_char *>(Dumper), &Hdr, Buf.get());
    // pcap_dump reports nothing; a full disk shows in the stream's error
    // flag, and there is no point generating the rest.
    if (std::ferror(Out)) {
      Error = writeError(Opts.Output, errno);
      break;
    }
    Plans.count(P);
    if (Progress && (I + 1) % ProgressEvery == 0)
      std::fprintf(stderr, "npgen: %llu/%llu frames\n",
                   static_cast<unsigned long long>(I + 1),
                   static_cast<unsigned long long>(Opts.Count));
  }
  // pcap_dump_close is fclose() with its result thrown away: close the
  // stream ourselves so that the final flush and close are checked.
  std::string CloseError = closeOutput(Out, Opts.Output);
  if (Error.empty())
    Error = CloseError;
  pcap_close(Dead);

  if (Report) {
    if (Error.empty()) {
      std::string Json = countsToJson(Plans.finish(), Opts.Seed);
      std::fputs(Json.c_str(), Report);
    }
    std::string ReportError = closeOutput(Report, Opts.Report);
    if (Error.empty())
      Error = ReportError;
  }
  return Error;
}
