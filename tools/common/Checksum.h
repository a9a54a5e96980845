//===- Checksum.h - Internet checksums for IPv4, UDP, TCP, ICMP -*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// RFC 1071 one's-complement sums. The generator stores them; the dumper
// verifies them with the same code.
//
//===----------------------------------------------------------------------===//

#ifndef TOOLS_COMMON_CHECKSUM_H
#define TOOLS_COMMON_CHECKSUM_H

#include <cstddef>
#include <cstdint>

namespace npcc::tools {

/// Adds \p Len bytes at \p Data to a running one's-complement sum.
uint64_t checksumAdd(uint64_t Sum, const uint8_t *Data, size_t Len);

/// Folds a running sum and complements it: the value to store in a header.
uint16_t checksumFinish(uint64_t Sum);

/// Checksum of an IPv4 header of \p HeaderLen bytes whose checksum field is
/// taken as zero.
uint16_t ipv4HeaderChecksum(const uint8_t *Ip, unsigned HeaderLen);

/// True when the stored IPv4 header checksum is correct.
bool ipv4HeaderChecksumOk(const uint8_t *Ip, unsigned HeaderLen);

/// Sum of the IPv4 pseudo-header for a segment of \p Len bytes.
uint64_t ipv4PseudoSum(const uint8_t *Ip, uint8_t Proto, unsigned Len);

/// Sum of the IPv6 pseudo-header for a segment of \p Len bytes.
uint64_t ipv6PseudoSum(const uint8_t *Ip6, uint8_t NextHeader, unsigned Len);

} // namespace npcc::tools

#endif // TOOLS_COMMON_CHECKSUM_H
