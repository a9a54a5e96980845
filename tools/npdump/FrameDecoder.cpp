//===- FrameDecoder.cpp - Parse one frame for npdump ----------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "tools/npdump/FrameDecoder.h"

#include "tools/common/Checksum.h"

using namespace npcc::tools;

static unsigned l4HeaderLen(unsigned Proto) {
  switch (Proto) {
  case ProtoUdp:
    return UdpHeaderLen;
  case ProtoTcp:
    return TcpHeaderLen;
  case ProtoIcmp:
    return IcmpHeaderLen;
  default:
    return 0;
  }
}

static void decodeIPv4L4(const uint8_t *Data, unsigned Len, IPv4Info &Ip) {
  unsigned Proto = Ip.Proto;
  unsigned HeaderLen = l4HeaderLen(Proto);
  if (!HeaderLen)
    return;
  const uint8_t *Seg = Data + Ip.L4Offset;
  unsigned Avail = Len > Ip.L4Offset ? Len - Ip.L4Offset : 0;
  if (Avail >= flowKeyBytes(static_cast<uint8_t>(Proto))) {
    Ip.HasFlowKey = true;
    Ip.Key.Src = Ip.Src;
    Ip.Key.Dst = Ip.Dst;
    Ip.Key.Proto = static_cast<uint8_t>(Proto);
    if (Proto == ProtoIcmp) {
      Ip.Key.SrcPort = load16(Seg + 4);
    } else {
      Ip.Key.SrcPort = load16(Seg);
      Ip.Key.DstPort = load16(Seg + 2);
    }
  }
  Ip.L4Complete = Avail >= HeaderLen;
  if (!Ip.L4Complete)
    return;
  if (Proto == ProtoIcmp) {
    Ip.IcmpType = Seg[0];
    Ip.IcmpCode = Seg[1];
    Ip.IcmpSeq = load16(Seg + 6);
  }
  // Verify the L4 checksum only when the IP header describes the segment.
  if (Ip.Version != 4 || Ip.Ihl != 5 || Ip.BadLength ||
      Ip.TotalLength < IPv4HeaderLen + HeaderLen)
    return;
  unsigned SegLen = Ip.TotalLength - IPv4HeaderLen;
  if (Proto == ProtoUdp && load16(Seg + 6) == 0)
    return; // No checksum.
  uint64_t Sum = Proto == ProtoIcmp
                     ? 0
                     : ipv4PseudoSum(Data + EtherHeaderLen,
                                     static_cast<uint8_t>(Proto), SegLen);
  Ip.L4Checksum = checksumFinish(checksumAdd(Sum, Seg, SegLen)) == 0
                      ? Check::Ok
                      : Check::Bad;
}

static void decodeIPv4(const uint8_t *Data, unsigned Len, IPv4Info &Ip) {
  Ip.Available = Len - EtherHeaderLen;
  if (Len < IPv4FrameMinLen) {
    Ip.Short = true;
    return;
  }
  const uint8_t *H = Data + EtherHeaderLen;
  Ip.Version = H[0] >> 4;
  Ip.Ihl = H[0] & 0xf;
  Ip.TotalLength = load16(H + 2);
  Ip.Ttl = H[8];
  Ip.Proto = H[9];
  Ip.Src = load32(H + 12);
  Ip.Dst = load32(H + 16);
  Ip.BadLength = Ip.TotalLength > Ip.Available;
  unsigned HeaderLen = Ip.Ihl >= 5 ? Ip.Ihl * 4 : IPv4HeaderLen;
  if (HeaderLen <= Ip.Available)
    Ip.HeaderChecksum =
        ipv4HeaderChecksumOk(H, HeaderLen) ? Check::Ok : Check::Bad;
  Ip.L4Offset = EtherHeaderLen + HeaderLen;
  decodeIPv4L4(Data, Len, Ip);
}

static void decodeArp(const uint8_t *Data, unsigned Len, ArpInfo &Arp) {
  if (Len < EtherHeaderLen + ArpLen)
    return;
  const uint8_t *A = Data + EtherHeaderLen;
  Arp.Complete = true;
  Arp.Op = load16(A + 6);
  Arp.SenderMac = A + 8;
  Arp.SenderIp = load32(A + 14);
  Arp.TargetIp = load32(A + 24);
}

static void decodeIPv6(const uint8_t *Data, unsigned Len, IPv6Info &Ip6) {
  if (Len < EtherHeaderLen + IPv6HeaderLen)
    return;
  const uint8_t *H = Data + EtherHeaderLen;
  Ip6.Complete = true;
  Ip6.NextHeader = H[6];
  Ip6.HopLimit = H[7];
  Ip6.Src = H + 8;
  Ip6.Dst = H + 24;
  unsigned L4 = EtherHeaderLen + IPv6HeaderLen;
  if ((Ip6.NextHeader == ProtoUdp || Ip6.NextHeader == ProtoTcp) &&
      Len >= L4 + 4) {
    Ip6.HasPorts = true;
    Ip6.SrcPort = load16(Data + L4);
    Ip6.DstPort = load16(Data + L4 + 2);
  }
}

DecodedFrame npcc::tools::decodeFrame(const uint8_t *Data, unsigned Len) {
  DecodedFrame F;
  F.Data = Data;
  F.Len = Len;
  if (Len < EtherHeaderLen) {
    F.EtherTruncated = true;
    return F;
  }
  F.Broadcast = true;
  for (unsigned I = 0; I < 6; ++I)
    F.Broadcast &= Data[I] == 0xff;
  F.EtherType = load16(Data + 12);
  F.Class = classOfEtherType(F.EtherType);
  switch (F.Class) {
  case FrameClass::IPv4:
    decodeIPv4(Data, Len, F.IPv4);
    break;
  case FrameClass::Arp:
    decodeArp(Data, Len, F.Arp);
    break;
  case FrameClass::IPv6:
    decodeIPv6(Data, Len, F.IPv6);
    break;
  case FrameClass::Other:
    break;
  }
  return F;
}

void npcc::tools::countFrame(const DecodedFrame &F, TrafficCounts &C,
                             std::unordered_set<FlowKey, FlowKeyHash> &Flows) {
  ++C.Frames;
  C.Bytes += F.Len;
  C.addClass(F.Class);
  C.Broadcast += F.Broadcast;
  if (F.Class != FrameClass::IPv4 || F.EtherTruncated)
    return;
  const IPv4Info &Ip = F.IPv4;
  if (Ip.Short) {
    ++C.Short;
    return;
  }
  ++C.Ttl[Ip.Ttl];
  C.addProto(static_cast<uint8_t>(Ip.Proto));
  C.BadChecksum += Ip.HeaderChecksum == Check::Bad;
  C.BadVersion += Ip.Version != 4;
  C.BadIhl += Ip.Ihl < 5;
  C.BadLength += Ip.BadLength;
  if (Ip.HasFlowKey && Flows.insert(Ip.Key).second)
    C.Flows = Flows.size();
}
