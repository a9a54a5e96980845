//===- HLSMemory.h - where the HLS target keeps element state ---*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The one classification of state that the HLS passes (np-scatter-memory,
// np-delay-write), the II report and the HLS emitter share, so that what
// the report promises is what the emitted pragmas ask for.
//
//===----------------------------------------------------------------------===//

#ifndef NPCC_DIALECTS_NP_TRANSFORMS_HLSMEMORY_H
#define NPCC_DIALECTS_NP_TRANSFORMS_HLSMEMORY_H

#include "dialects/NP/IR/NPOps.h"

namespace npcc::np {

/// How a state is implemented on the FPGA.
enum class HLSMemoryKind {
  /// Scalars and small arrays, completely partitioned: any number of
  /// accesses per clock, a read sees the previous clock's write.
  Registers,
  /// Larger arrays: one block RAM (true dual port: two accesses per clock,
  /// a read returns one clock after its address).
  BlockRAM,
};

/// Arrays of at most this many elements are completely partitioned into
/// registers (`#pragma HLS ARRAY_PARTITION complete`).
constexpr int64_t kHLSRegisterArrayLimit = 16;

/// Ports of one block RAM per clock.
constexpr unsigned kHLSBlockRAMPorts = 2;

/// Discardable attribute on `np.state`: the name of the struct array the
/// state is a field of. Fields with the same `memory` share one block RAM
/// (a C array of structs), until np-scatter-memory gives each its own.
constexpr llvm::StringLiteral kHLSMemoryAttr = "memory";

/// Unit attribute on `np.state`: np-delay-write forwards its last write
/// through a register, so a read in the next packet's iteration does not
/// wait for the write (the emitter then declares the array free of
/// inter-iteration dependences).
constexpr llvm::StringLiteral kHLSDelayedWriteAttr = "delayed_write";

HLSMemoryKind hlsMemoryKind(StateOp state);

/// The memory `state` lives in: the struct array named by its `memory`
/// attribute, else the state itself.
llvm::StringRef hlsMemoryName(StateOp state);

/// Whether np-delay-write rewrote the accesses to `state`.
bool hasDelayedWrite(StateOp state);

} // namespace npcc::np

#endif // NPCC_DIALECTS_NP_TRANSFORMS_HLSMEMORY_H
