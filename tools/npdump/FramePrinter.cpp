//===- FramePrinter.cpp - One stable text line per frame ------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "tools/npdump/FramePrinter.h"

#include <arpa/inet.h>
#include <cinttypes>
#include <cstdarg>
#include <cstdio>

using namespace npcc::tools;

static void appendf(std::string &Out, const char *Fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void appendf(std::string &Out, const char *Fmt, ...) {
  char Buf[128];
  va_list Args;
  va_start(Args, Fmt);
  int N = std::vsnprintf(Buf, sizeof(Buf), Fmt, Args);
  va_end(Args);
  if (N > 0)
    Out.append(Buf, static_cast<size_t>(N) < sizeof(Buf) ? N : sizeof(Buf) - 1);
}

static void appendMac(std::string &Out, const uint8_t *M) {
  appendf(Out, "%02x:%02x:%02x:%02x:%02x:%02x", M[0], M[1], M[2], M[3], M[4],
          M[5]);
}

static void appendIPv4(std::string &Out, uint32_t A) {
  appendf(Out, "%u.%u.%u.%u", A >> 24, A >> 16 & 0xff, A >> 8 & 0xff, A & 0xff);
}

static void appendIPv6(std::string &Out, const uint8_t *A) {
  char Buf[INET6_ADDRSTRLEN];
  if (inet_ntop(AF_INET6, A, Buf, sizeof(Buf)))
    Out += Buf;
}

static const char *checkName(Check C) {
  return C == Check::Ok ? "ok" : C == Check::Bad ? "bad" : "?";
}

static void printIPv4(const IPv4Info &Ip, std::string &Out) {
  Out += " ipv4";
  if (Ip.Short) {
    Out += " truncated";
    return;
  }
  Out += ' ';
  appendIPv4(Out, Ip.Src);
  Out += " > ";
  appendIPv4(Out, Ip.Dst);
  appendf(Out, " ttl=%u proto=%u csum=%s", Ip.Ttl, Ip.Proto,
          checkName(Ip.HeaderChecksum));
  if (Ip.Version != 4)
    appendf(Out, " version=%u", Ip.Version);
  if (Ip.Ihl < 5)
    appendf(Out, " ihl=%u", Ip.Ihl);
  if (Ip.BadLength)
    appendf(Out, " totlen=%u>%u", Ip.TotalLength, Ip.Available);
  const char *Name = Ip.Proto == ProtoUdp    ? "udp"
                     : Ip.Proto == ProtoTcp  ? "tcp"
                     : Ip.Proto == ProtoIcmp ? "icmp"
                                             : nullptr;
  if (!Name)
    return;
  appendf(Out, " %s", Name);
  if (!Ip.L4Complete) {
    Out += " truncated";
    return;
  }
  if (Ip.Proto == ProtoIcmp)
    appendf(Out, " type=%u code=%u id=%u seq=%u", Ip.IcmpType, Ip.IcmpCode,
            Ip.Key.SrcPort, Ip.IcmpSeq);
  else
    appendf(Out, " %u > %u", Ip.Key.SrcPort, Ip.Key.DstPort);
  if (Ip.L4Checksum == Check::Bad)
    Out += " l4csum=bad";
}

static void printArp(const ArpInfo &Arp, std::string &Out) {
  Out += " arp";
  if (!Arp.Complete) {
    Out += " truncated";
    return;
  }
  if (Arp.Op == ArpOpRequest) {
    Out += " request who-has ";
    appendIPv4(Out, Arp.TargetIp);
    Out += " tell ";
    appendIPv4(Out, Arp.SenderIp);
  } else if (Arp.Op == ArpOpReply) {
    Out += " reply ";
    appendIPv4(Out, Arp.SenderIp);
    Out += " is-at ";
    appendMac(Out, Arp.SenderMac);
  } else {
    appendf(Out, " op=%u", Arp.Op);
  }
}

static void printIPv6(const IPv6Info &Ip6, std::string &Out) {
  Out += " ipv6";
  if (!Ip6.Complete) {
    Out += " truncated";
    return;
  }
  Out += ' ';
  appendIPv6(Out, Ip6.Src);
  Out += " > ";
  appendIPv6(Out, Ip6.Dst);
  appendf(Out, " nh=%u hlim=%u", Ip6.NextHeader, Ip6.HopLimit);
  if (Ip6.HasPorts)
    appendf(Out, " %s %u > %u", Ip6.NextHeader == ProtoUdp ? "udp" : "tcp",
            Ip6.SrcPort, Ip6.DstPort);
}

static void printHex(const DecodedFrame &F, std::string &Out) {
  for (unsigned Row = 0; Row < F.Len; Row += 16) {
    appendf(Out, "  %04x:", Row);
    for (unsigned I = Row; I < Row + 16 && I < F.Len; ++I)
      appendf(Out, " %02x", F.Data[I]);
    Out += '\n';
  }
}

void npcc::tools::printFrame(const DecodedFrame &F, uint64_t Index,
                             uint64_t TimeNs, const PrintOptions &Opts,
                             std::string &Out) {
  appendf(Out, "%" PRIu64, Index);
  if (Opts.Time)
    appendf(Out, " ts=%" PRIu64 ".%09" PRIu64, TimeNs / 1000000000,
            TimeNs % 1000000000);
  appendf(Out, " len=%u", F.Len);
  if (F.EtherTruncated) {
    Out += " ether truncated\n";
  } else {
    if (F.RawIP) {
      Out += " raw";
    } else {
      Out += " ether ";
      appendMac(Out, F.Data + 6);
      Out += " > ";
      appendMac(Out, F.Data);
      appendf(Out, " type=0x%04x", F.EtherType);
    }
    if (F.Class == FrameClass::IPv4)
      printIPv4(F.IPv4, Out);
    else if (F.Class == FrameClass::Arp)
      printArp(F.Arp, Out);
    else if (F.Class == FrameClass::IPv6)
      printIPv6(F.IPv6, Out);
    Out += '\n';
  }
  if (Opts.Hex)
    printHex(F, Out);
}
