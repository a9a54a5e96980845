//===- IIReport.h - initiation interval of elements on the FPGA -*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The initiation interval (clocks between two data a handler can take) that
// the HLS target's code for an element reaches, and why it is above 1: the
// model of docs/hls-ii-report.md over the classification of HLSMemory.h.
// np-ii-report prints it; the HLS emitter and `npcc --hls-report` use it.
//
//===----------------------------------------------------------------------===//

#ifndef NPCC_TARGETS_HLS_TRANSFORMS_IIREPORT_H
#define NPCC_TARGETS_HLS_TRANSFORMS_IIREPORT_H

#include "dialects/NP/IR/NPOps.h"

#include "llvm/Support/JSON.h"

#include <string>

namespace npcc::hls {

/// One cause that keeps an element's II above 1.
struct IIReason {
  /// `ports` (a memory with more accesses than ports), `stream` (a port
  /// used more than once), `dependence` (read-after-write across
  /// iterations), `loop` (a loop that stays a loop) or `table`.
  std::string kind;
  /// What it is about: a memory (`ports`, `dependence`, `table`), a port
  /// (`stream`) or the loop (`loop`, e.g. "for 0..16").
  std::string subject;
  /// The clocks per datum this cause alone asks for (0: unbounded).
  unsigned ii = 1;
  /// Where: the first access, use or loop.
  mlir::Location loc;
  /// One readable sentence, stable across runs.
  std::string text;
};

struct IIResult {
  /// Clocks per datum; 0 when a loop without a trip count leaves it
  /// unbounded.
  unsigned ii = 1;
  /// Highest II first; ties in the order found.
  llvm::SmallVector<IIReason> reasons;
  /// "II=1", or "II=3: " and the text of the first reason.
  std::string summary() const;
};

struct IIOptions {
  /// Model the code after np-scatter-memory, np-unroll and np-delay-write
  /// have run, whether or not they have: no state keeps a `memory`, every
  /// block RAM state has `delayed_write`, every loop with constant bounds
  /// is unrolled. For the report of what those passes can still reach.
  bool assumeHLSPasses = false;
};

/// The II of `element`'s handler (init, signal, timer and control bodies
/// are not on the packet path and do not count).
IIResult computeII(np::ElementOp element, const IIOptions &options = {});

/// The report of every instance of the flat top graph (or `np.program`;
/// without either, of every element), as np-ii-report writes it.
llvm::json::Value iiReportJSON(mlir::ModuleOp module,
                               const IIOptions &options = {});

/// Writes iiReportJSON to `path` ("-": standard output).
mlir::LogicalResult writeIIReport(mlir::ModuleOp module, llvm::StringRef path,
                                  const IIOptions &options = {});

} // namespace npcc::hls

#endif // NPCC_TARGETS_HLS_TRANSFORMS_IIREPORT_H
