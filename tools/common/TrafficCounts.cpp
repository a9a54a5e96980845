//===- TrafficCounts.cpp - The count object of npgen and npdump -----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "tools/common/TrafficCounts.h"

using namespace npcc::tools;

void TrafficCounts::addClass(FrameClass C) {
  switch (C) {
  case FrameClass::IPv4:
    ++IPv4;
    return;
  case FrameClass::Arp:
    ++Arp;
    return;
  case FrameClass::IPv6:
    ++IPv6;
    return;
  case FrameClass::Other:
    ++Other;
    return;
  }
}

void TrafficCounts::addProto(uint8_t Proto) {
  if (Proto == ProtoUdp)
    ++Udp;
  else if (Proto == ProtoTcp)
    ++Tcp;
  else if (Proto == ProtoIcmp)
    ++Icmp;
}

static void field(std::string &Out, const char *Key, uint64_t Value) {
  if (Out.size() > 1)
    Out += ',';
  Out += '"';
  Out += Key;
  Out += "\":";
  Out += std::to_string(Value);
}

std::string npcc::tools::countsToJson(const TrafficCounts &C,
                                      std::optional<uint64_t> Seed) {
  std::string Out = "{";
  field(Out, "frames", C.Frames);
  field(Out, "bytes", C.Bytes);
  field(Out, "ipv4", C.IPv4);
  field(Out, "arp", C.Arp);
  field(Out, "ipv6", C.IPv6);
  field(Out, "other", C.Other);
  field(Out, "udp", C.Udp);
  field(Out, "tcp", C.Tcp);
  field(Out, "icmp", C.Icmp);
  field(Out, "broadcast", C.Broadcast);
  field(Out, "bad_checksum", C.BadChecksum);
  field(Out, "bad_version", C.BadVersion);
  field(Out, "bad_ihl", C.BadIhl);
  field(Out, "short", C.Short);
  field(Out, "bad_length", C.BadLength);
  Out += ",\"ttl\":{";
  bool First = true;
  for (const auto &[Ttl, Count] : C.Ttl) {
    if (!First)
      Out += ',';
    First = false;
    Out += '"' + std::to_string(Ttl) + "\":" + std::to_string(Count);
  }
  Out += '}';
  field(Out, "flows", C.Flows);
  if (Seed)
    field(Out, "seed", *Seed);
  Out += "}\n";
  return Out;
}
