//===- MapCores.h - mapping a program onto cores ---------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// np-map-cores annotates an np.program with the facts a multicore run needs
// (the `np.mapping` dictionary, see Passes.td); this header reads them back
// for the C target's tables and for `npcc --explain-mapping`.
//
//===----------------------------------------------------------------------===//

#ifndef NPCC_TARGETS_C_MAPPING_MAPCORES_H
#define NPCC_TARGETS_C_MAPPING_MAPCORES_H

#include "dialects/NP/IR/NPOps.h"

#include "llvm/Support/raw_ostream.h"

namespace npcc::c {

/// Largest core count the mapping tables cover (nprt's NPRT_MAX_CORES).
constexpr unsigned kMaxCores = 16;

enum class MappingKind { Auto, Rtc, Pipeline };

/// The `np.mapping` facts of one program, decoded.
struct ProgramMapping {
  /// Per instance: runs on every core (run to completion), or once.
  llvm::SmallVector<bool> replicate;
  /// Per instance: why it runs once ("" when replicated), and the state
  /// decisions (merged fields, read-mostly tables), one line each.
  llvm::SmallVector<std::string> why, notes;
  /// Per instance: estimated cost of one activation, and expected work per
  /// packet read (cost times the share of the traffic it sees), in
  /// thousandths.
  llvm::SmallVector<int64_t> cost, work;
  /// stages[(n - 1) * numInstances + i]: the pipeline stage of instance i
  /// on n cores.
  llvm::SmallVector<int64_t> stages;
  /// Per core count n (index n - 1): what `auto` picks, and the estimated
  /// work per packet of the busiest core under each mapping, thousandths.
  llvm::SmallVector<int64_t> autoPipeline, rtcEstimate, pipelineEstimate;
  /// The --stats-json file the costs were measured in ("" for none), and
  /// per instance whether it named the instance.
  std::string profile;
  llvm::SmallVector<bool> measured;

  unsigned numInstances() const { return replicate.size(); }
  int64_t stage(unsigned cores, unsigned inst) const {
    return stages[(cores - 1) * numInstances() + inst];
  }
  /// Reads `np.mapping` from `program`; false if it has none or it is
  /// malformed.
  bool read(np::ProgramOp program);
};

/// Prints what `--explain-mapping` shows for `cores` cores and `kind`:
/// the choice and why, the stages with their costs, the cut channels, and
/// every instance's state decision.
void explainMapping(np::ProgramOp program, const ProgramMapping &m,
                    unsigned cores, MappingKind kind, llvm::raw_ostream &os);

} // namespace npcc::c

#endif // NPCC_TARGETS_C_MAPPING_MAPCORES_H
