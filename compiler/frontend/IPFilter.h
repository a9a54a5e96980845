//===- IPFilter.h - Click IPClassifier/IPFilter patterns ------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// A pattern in the tcpdump-like syntax of Click's IPClassifier is parsed at
// compile time into a tree of field tests on the IPv4 header at byte 0 of
// a packet and on its transport header (found through the IHL).
//
//===----------------------------------------------------------------------===//

#ifndef NPCC_FRONTEND_IPFILTER_H
#define NPCC_FRONTEND_IPFILTER_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace npcc {

/// One compare: ((raw >> shift) & mask) OP value, where raw is the `width`
/// bytes (1, 2 or 4, network order) at `offset` from the IP header, or from
/// the transport header (IP + 4 * IHL) when `transport`. False when those
/// bytes are not all in the packet.
struct IPFTest {
  bool transport = false;
  unsigned offset = 0;
  unsigned width = 1;
  unsigned shift = 0;
  uint32_t mask = 0xff;
  enum Op { Eq, Gt, Lt } op = Eq;
  uint32_t value = 0;
};

struct IPFNode {
  enum Kind { True, False, Test, Not, And, Or } kind = True;
  IPFTest test;
  std::vector<IPFNode> kids;
};

/// Parses one IPClassifier pattern. False with `error` set when malformed.
bool parseIPFilterPattern(llvm::StringRef text, IPFNode &out,
                          std::string &error);

} // namespace npcc

#endif // NPCC_FRONTEND_IPFILTER_H
