//===- HLSMemory.h - where the HLS target keeps element state ---*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The one classification of state that the HLS passes (np-scatter-memory,
// np-unroll, np-delay-write), the II report and the HLS emitter share, so
// that what the report promises is what the emitted pragmas ask for: the
// attributes the passes leave, the names of the registers they add, which
// bodies are on the packet path and which elements the hls target builds
// (docs/hls-optimisations.md).
//
//===----------------------------------------------------------------------===//

#ifndef NPCC_TARGETS_HLS_TRANSFORMS_HLSMEMORY_H
#define NPCC_TARGETS_HLS_TRANSFORMS_HLSMEMORY_H

#include "dialects/NP/IR/NPOps.h"

#include "mlir/IR/BuiltinOps.h"

#include <optional>
#include <string>

namespace npcc::hls {

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
/// state is a field of, as the front end records it (np::kStructArrayAttr).
/// The HLS target decides that fields with the same `memory` share one block
/// RAM (a C array of structs), until np-scatter-memory gives each its own.
constexpr llvm::StringLiteral kHLSMemoryAttr = np::kStructArrayAttr;

/// Unit attribute on `np.state`: np-delay-write forwards its last write
/// through a register, so a read in the next packet's iteration does not
/// wait for the write (the emitter then declares the array free of
/// inter-iteration dependences). The register covers a dependence distance
/// of one iteration: the write must land at most one initiation interval
/// after the read of the same iteration, which a read-modify-write of one
/// block RAM port pair at II=1 does. For a struct array whose fields still
/// share a memory (`memory`), the memory is free of the dependence only if
/// every field a packet path both loads and stores is `delayed_write`
/// (np-delay-write marks each such field).
constexpr llvm::StringLiteral kHLSDelayedWriteAttr = "delayed_write";

/// Discardable string attribute on the register states np-delay-write
/// adds: the name of the state whose last write they hold. The report and
/// the emitter recognise the registers by it (not by their names).
constexpr llvm::StringLiteral kHLSForwardOfAttr = "forward_of";

/// The three registers np-delay-write adds next to a state `S` it marks
/// `delayed_write`, each `memref<1x...>` with `forward_of = "S"`:
///  - `S.fwd_idx`   the index last written (`iK`, K = bits of S's size - 1,
///                  at least 1),
///  - `S.fwd_val`   the value last written (S's element type),
///  - `S.fwd_valid` `i1`, 1 once a packet path wrote S, 0 again after any
///                  other body (init, control, signal, timer) wrote S.
/// Every store to S in a packet-path body also writes the three; every load
/// of S in one reads `fwd_valid && idx == fwd_idx ? fwd_val : S[idx]`.
/// S itself is still written at once, so it always holds what it held
/// before the pass: the registers equal S at `fwd_idx` whenever
/// `fwd_valid`, and every body that does not forward reads S as before.
enum class HLSForwardPart { Index, Value, Valid };
constexpr llvm::StringLiteral kHLSForwardSuffix[] = {".fwd_idx", ".fwd_val",
                                                     ".fwd_valid"};

/// The name of `part` of the forward register of the state named `state`.
std::string hlsForwardStateName(llvm::StringRef state, HLSForwardPart part);

/// The state whose last write `state` holds (its `forward_of`), or "" when
/// `state` is not a register np-delay-write added.
llvm::StringRef hlsForwardedState(np::StateOp state);

/// np-unroll leaves no attribute: after it, an `scf.for` still in a
/// packet-path body is one it did not unroll (a remark says why: more
/// iterations than its `max-trip-count`, or an unknown trip count), and
/// takes at least a clock per iteration. Loops the front end marks
/// `np.unroll` (NPL's `unroll`) are unrolled whatever their bound.
constexpr llvm::StringLiteral kUnrollAttr = "np.unroll";

/// np-header-window marks an `np.pkt_get` or `np.pkt_set` at a computed
/// offset with this unit attribute when it proved that the bytes accessed
/// lie inside the header window (the first kHLSHeaderWindowBytes bytes of
/// the frame) on every path: a register of the datum, not a port of the
/// packet buffer. Copies of the op (np-unroll's) keep the proof.
constexpr llvm::StringLiteral kHLSHeaderWindowAttr = "np.header_window";
/// Bytes of the header window: the first two flits, enough for an
/// Ethernet header, an IPv4 header with 40 bytes of options and the ICMP,
/// UDP or TCP header after it (ICMPError writes bytes 60 to 67 of the
/// error it builds when it reverses a source route).
constexpr int64_t kHLSHeaderWindowBytes = 128;

/// Bytes of a frame an op reads or writes: `length` bytes from `offset`,
/// or `bytes` of them when `length` is null (a header field).
struct PacketByteRange {
  mlir::Value offset, length;
  int64_t bytes = 0;
};

/// The frame bytes `op` accesses: one range for np.pkt_get, np.pkt_set,
/// np.pkt_csum and np.pkt_crc, two for np.pkt_copy (destination, then
/// source), none for any other op.
llvm::SmallVector<PacketByteRange, 2> packetByteRanges(mlir::Operation *op);

/// The first byte and the byte count of `range` when both are constants.
std::optional<std::pair<uint64_t, uint64_t>>
constantByteRange(const PacketByteRange &range);

/// The ops of `element` that need more of a packet than its header window
/// on the FPGA, each with what it does: an access np-header-window did not
/// prove inside the window (or a constant range past it), a clone, a print,
/// a packet queued in state, a packet passed to a function, an access after
/// a pull, a put in an element that also shortens frames. An element with
/// none is header-only. On the FPGA every element buffers the flits of a
/// packet's header window and leaves the rest in the stream, to go on at
/// the send (docs/hls-target.md, "Flits"); before one of these ops runs,
/// the packet is read in whole.
llvm::SmallVector<std::pair<mlir::Operation *, std::string>>
wholePacketOps(np::ElementOp element);

/// Whether `body` runs per packet: the handler and push bodies (np-unroll
/// and np-delay-write change only these; init, fini, timer, signal and
/// control bodies are not on the packet path).
bool isPacketPathBody(mlir::Operation *body);

/// The elements the HLS optimisations change (their `elements` option):
enum class HLSElements {
  /// every element none of whose instances is placed `host` (default: the
  /// hls target compiles every instance but those placed `host`);
  NotHost,
  /// only elements all of whose instances are placed `fpga`;
  FPGA,
  /// every element.
  All,
};

/// Parses the `elements` option: `not-host`, `fpga` or `all`.
std::optional<HLSElements> parseHLSElements(llvm::StringRef text);

/// The elements of `module` that `which` selects, in module order. The
/// placements come from the `np.instance`s of every graph, or after
/// np-describe-graph from the `np.program`; an element no instance uses
/// counts as placed `npu`.
llvm::SmallVector<np::ElementOp> selectHLSElements(mlir::ModuleOp module,
                                                   HLSElements which);

/// The same for the text of a pass's `elements` option; an unknown value
/// is an error on `module` naming `pass`.
mlir::FailureOr<llvm::SmallVector<np::ElementOp>>
selectHLSElements(mlir::ModuleOp module, llvm::StringRef elements,
                  llvm::StringRef pass);

HLSMemoryKind hlsMemoryKind(np::StateOp state);

/// The name of the state a memref value is, when the `np.state_field` or
/// `np.state_ref` that defines it says so; empty otherwise.
llvm::StringRef stateNameOf(mlir::Value memref);

/// The memory `state` lives in: the struct array named by its `memory`
/// attribute, else the state itself.
llvm::StringRef hlsMemoryName(np::StateOp state);

/// Whether np-delay-write rewrote the accesses to `state`.
bool hasDelayedWrite(np::StateOp state);

} // namespace npcc::hls

#endif // NPCC_TARGETS_HLS_TRANSFORMS_HLSMEMORY_H
