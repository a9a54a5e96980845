//===- Generator.h - npgen's frame loop -------------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Draws a plan for every frame from one seeded generator, builds it, writes
// it with a fixed time stamp and counts what was written.
//
//===----------------------------------------------------------------------===//

#ifndef TOOLS_NPGEN_GENERATOR_H
#define TOOLS_NPGEN_GENERATOR_H

#include "tools/npgen/GenOptions.h"

#include <string>

namespace npcc::tools {

/// Writes the pcap and the report of \p Opts; returns an error or "".
std::string generate(const GenOptions &Opts);

} // namespace npcc::tools

#endif // TOOLS_NPGEN_GENERATOR_H
