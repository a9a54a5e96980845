//===- Checksum.cpp - Internet checksums ----------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "tools/common/Checksum.h"

#include "tools/common/PacketLayout.h"

using namespace npcc::tools;

uint64_t npcc::tools::checksumAdd(uint64_t Sum, const uint8_t *Data,
                                  size_t Len) {
  size_t I = 0;
  for (; I + 1 < Len; I += 2)
    Sum += load16(Data + I);
  if (I < Len)
    Sum += uint64_t(Data[I]) << 8;
  return Sum;
}

uint16_t npcc::tools::checksumFinish(uint64_t Sum) {
  while (Sum >> 16)
    Sum = (Sum & 0xffff) + (Sum >> 16);
  return static_cast<uint16_t>(~Sum);
}

uint16_t npcc::tools::ipv4HeaderChecksum(const uint8_t *Ip,
                                         unsigned HeaderLen) {
  uint64_t Sum = checksumAdd(0, Ip, 10);
  Sum = checksumAdd(Sum, Ip + 12, HeaderLen - 12);
  return checksumFinish(Sum);
}

bool npcc::tools::ipv4HeaderChecksumOk(const uint8_t *Ip, unsigned HeaderLen) {
  return checksumFinish(checksumAdd(0, Ip, HeaderLen)) == 0;
}

uint64_t npcc::tools::ipv4PseudoSum(const uint8_t *Ip, uint8_t Proto,
                                    unsigned Len) {
  uint64_t Sum = checksumAdd(0, Ip + 12, 8);
  return Sum + Proto + Len;
}

uint64_t npcc::tools::ipv6PseudoSum(const uint8_t *Ip6, uint8_t NextHeader,
                                    unsigned Len) {
  uint64_t Sum = checksumAdd(0, Ip6 + 8, 32);
  return Sum + NextHeader + Len;
}
