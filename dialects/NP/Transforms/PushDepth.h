//===- PushDepth.h - pushed calls that count toward the limit -*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef NPCC_DIALECTS_NP_TRANSFORMS_PUSHDEPTH_H
#define NPCC_DIALECTS_NP_TRANSFORMS_PUSHDEPTH_H

#include <vector>

namespace npcc::np {

class ProgramOp;

/// The runtime's NPRT_LINK_STATIC_DEPTH (nprt/link.h).
constexpr unsigned kUncountedDepth = 32;

/// For each channel of `program`: whether a pushed call along it is left
/// out of the count of calls nested on one stack (nprt_channel_desc's
/// `uncounted`). The count exists so that a value going round a cycle
/// cannot overflow the stack: the channels that close the graph's cycles
/// (found by a depth-first search in program order) count, and so do
/// those after which kUncountedDepth calls or more can follow without
/// closing one; the others cannot deepen a stack by more than the graph
/// does. Every target and the interpreter take the same answer, so that
/// values wait in the same channels everywhere.
std::vector<bool> uncountedChannels(ProgramOp program);

} // namespace npcc::np

#endif // NPCC_DIALECTS_NP_TRANSFORMS_PUSHDEPTH_H
