//===- NPToEmitC.h - np element bodies to EmitC -----------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The lowering of np elements and their bodies to EmitC calls of the
// runtime ABI (nprt/abi.def) that the C and HLS targets share; each target
// adds the patterns of its program (c-convert-np-to-emitc,
// hls-convert-np-to-emitc).
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_TARGETS_EMITC_NPTOEMITC_H
#define NPCC_TARGETS_EMITC_NPTOEMITC_H

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"

#include <functional>
#include <map>
#include <string>

namespace npcc::np {
class ProgramOp;
} // namespace npcc::np

namespace npcc::toemitc {

/// What the patterns need to know about the module beyond the op they
/// rewrite, computed once before the conversion starts (the elements are
/// gone by the time the ops inside them are rewritten).
struct NPLoweringInfo {
  struct Element {
    /// C prefix of everything generated for the element's one instance:
    /// `<prefix>_handler`, `<prefix>_state`, ...
    std::string prefix;
    /// C member name of each state in the state struct.
    llvm::StringMap<std::string> fields;
    /// Some state starts non-zero: `<prefix>_state_init` holds the image.
    bool hasInitImage = false;
    bool hasState = false, hasInit = false, hasSignal = false, hasFini = false;
    /// Nanoseconds between two runs of the timer; 0 without one.
    uint64_t timerPeriod = 0;
    /// The NPL element name and the comma-separated port names.
    std::string name, inPorts, outPorts;
    /// Read and write handlers (np.control), in order.
    unsigned numControls = 0;
    /// np::pushPortMask of the element, taken before its handler lowers.
    uint64_t pushPorts = 0;
    uint64_t selectPorts = 0;
    /// Index of the element's block of shared state in `shared`, or -1.
    int shared = -1;
    /// State declared `merge`: the C member, its element width in bytes,
    /// its length and the runtime's NPRT_MERGE_* name of the operator.
    struct Merge {
      std::string field;
      unsigned bytes, bits, count;
      std::string op;
    };
    std::vector<Merge> merges;
    /// The C function of each np.push body, by port: `<prefix>_push_<port>`
    /// (ordered, so that declarations come out in a fixed order).
    std::map<std::string, std::string> pushFns;
    /// The instances whose code this is, in program order (several when
    /// the C target shares it: targets/c/ShareElementCode.h).
    llvm::SmallVector<unsigned, 1> instances;
  };
  /// The state every element of one source name shares (np.state shared):
  /// one C struct, one runtime-allocated object, reached through
  /// nprt_shared(self).
  struct Shared {
    /// The C struct type, `npcc_shared_<k>_<source name>`.
    std::string type;
    /// C member name of each shared state.
    llvm::StringMap<std::string> fields;
    /// Some shared state starts non-zero: `<type>_init` holds the image.
    bool hasInitImage = false;
    /// The element that declares the struct: the first of the module with
    /// that source name, so the declaration precedes every use.
    mlir::Operation *declarer = nullptr;
  };
  llvm::DenseMap<mlir::Operation *, Element> elements;
  llvm::SmallVector<Shared> shared;
  /// Declare a state member of an odd width N (u12, u13, ...) as
  /// `ap_uint<N>`: the hls target's memories are N bits wide. The bodies
  /// still compute in the C type that holds N bits (c-legalize-int-widths
  /// keeps the bits above N zero, so the conversions lose nothing).
  bool apUintState = false;
  /// The element of each instance of the np.program, by instance index.
  llvm::SmallVector<mlir::Operation *> elementAt;
  /// The member each np.state_field reads, and whether it is a member of
  /// the shared object rather than of the instance's state object.
  struct Member {
    std::string name;
    bool shared = false;
  };
  llvm::DenseMap<mlir::Operation *, Member> stateFields;
  /// For every port operation: the index of its port among the element's
  /// ports of that direction (np.select: one per listed port).
  llvm::DenseMap<mlir::Operation *, llvm::SmallVector<unsigned, 1>> ports;
  /// For every np.fused_send: the C function of the push body it calls.
  llvm::DenseMap<mlir::Operation *, std::string> fusedCallee;
  /// Fused sends whose call stands for the select the consumer's handler
  /// starts with (nprt_link_selected).
  llvm::DenseSet<mlir::Operation *> fusedSelect;
  /// For each channel of the program: a pushed call along it is not
  /// counted in its stack's depth (np::uncountedChannels).
  std::vector<bool> uncountedChannels;
  /// Fused sends on uncounted channels: static hops (nprt_link_pass_*,
  /// FusedHops.cpp).
  llvm::DenseSet<mlir::Operation *> staticSends;
  /// Static hops of a packet that cannot be the sender's stand-in.
  llvm::DenseSet<mlir::Operation *> handedSends;
  /// Fused sends of code several instances share whose consumers do not
  /// share theirs: they call the push body the sender's link holds
  /// (nprt_link_call_*) rather than fusedCallee.
  llvm::DenseSet<mlir::Operation *> indirectSends;
  /// For every np.call_push: the C function of the push body it calls.
  llvm::DenseMap<mlir::Operation *, std::string> callPushCallee;
};

/// A conversion pattern with access to the precomputed facts.
template <typename Op> struct NPPattern : mlir::OpConversionPattern<Op> {
  NPPattern(mlir::TypeConverter &tc, mlir::MLIRContext *ctx,
            const NPLoweringInfo &info, mlir::PatternBenefit benefit = 1)
      : mlir::OpConversionPattern<Op>(tc, ctx, benefit), info(info) {}
  const NPLoweringInfo &info;
};

/// !np.pkt to the runtime's packet handle, !np.self to its instance handle.
void populateNPToEmitCTypeConversions(mlir::TypeConverter &converter);

/// Elements, state and body terminators.
void populateNPStructureToEmitCPatterns(mlir::TypeConverter &converter,
                                        mlir::RewritePatternSet &patterns,
                                        const NPLoweringInfo &info);

/// Port, device and packet operations as libnprt calls.
void populateNPPacketToEmitCPatterns(mlir::TypeConverter &converter,
                                     mlir::RewritePatternSet &patterns,
                                     const NPLoweringInfo &info);

/// Checks the module has the form the patterns expect (one np.program,
/// state made explicit, one element per instance) and fills `info`.
mlir::LogicalResult describeProgram(mlir::ModuleOp module,
                                    NPLoweringInfo &info);

/// Fills `info`'s uncountedChannels, staticSends and handedSends
/// (FusedHops.cpp); after the elements and ports are described.
void classifyFusedSends(np::ProgramOp program, NPLoweringInfo &info);

/// Patterns a target adds to the conversion (its program).
using ExtraPatterns =
    std::function<void(mlir::TypeConverter &, mlir::RewritePatternSet &)>;

/// One dialect conversion in which every np op is illegal: elements and
/// their bodies to EmitC functions calling the runtime ABI, and what
/// `extra` adds (the target's program). Other dialects pass through to
/// c-convert-to-emitc.
mlir::LogicalResult convertNPToEmitC(mlir::ModuleOp module,
                                     const NPLoweringInfo &info,
                                     ExtraPatterns extra = nullptr);

/// The `nprt_inst *` of the function that `op` is in.
mlir::Value enclosingInstance(mlir::Operation *op);

/// `s` as a C string literal.
std::string cString(llvm::StringRef s);

} // namespace npcc::toemitc

#endif // NPCC_TARGETS_EMITC_NPTOEMITC_H
