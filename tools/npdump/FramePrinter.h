//===- FramePrinter.h - One stable text line per frame ----------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The line format is part of npcc's test contract (FileCheck reads it):
//   0 len=60 ether 02:00:00:00:00:01 > 02:00:00:00:00:02 type=0x0800
//     ipv4 10.0.0.1 > 192.168.0.2 ttl=64 proto=17 csum=ok udp 1234 > 80
// on one line. Broken fields are named (csum=bad, version=6, ihl=2,
// totlen=900>46, truncated, l4csum=bad); see README.md.
//
//===----------------------------------------------------------------------===//

#ifndef TOOLS_NPDUMP_FRAMEPRINTER_H
#define TOOLS_NPDUMP_FRAMEPRINTER_H

#include "tools/npdump/FrameDecoder.h"

#include <cstdint>
#include <string>

namespace npcc::tools {

struct PrintOptions {
  bool Hex = false;
  bool Time = false;
};

/// Appends the line of frame \p Index (and its hex dump) to \p Out.
/// \p TimeNs is the time stamp in nanoseconds since the Unix epoch.
void printFrame(const DecodedFrame &F, uint64_t Index, uint64_t TimeNs,
                const PrintOptions &Opts, std::string &Out);

} // namespace npcc::tools

#endif // TOOLS_NPDUMP_FRAMEPRINTER_H
