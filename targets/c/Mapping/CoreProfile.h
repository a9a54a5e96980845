//===- CoreProfile.h - measured costs for np-map-cores ----------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// `npcc --profile=STATS.json`: what a run measured (the executable's
// --stats-json), read back for np-map-cores, which replaces its static cost
// estimates by the measured cycles and traffic of the instances the profile
// names (docs/multicore.md, "Profiles").
//
//===----------------------------------------------------------------------===//

#ifndef NPCC_TARGETS_C_MAPPING_COREPROFILE_H
#define NPCC_TARGETS_C_MAPPING_COREPROFILE_H

#include "dialects/NP/IR/NPOps.h"

#include "llvm/ADT/StringMap.h"

#include <vector>

namespace npcc::c {

/// One instance as the run measured it.
struct MeasuredInstance {
  /// Estimated cycles over the run, and handler activations.
  double cycles = 0, iterations = 0;
  /// Values sent through each output port, in port order.
  std::vector<double> outPackets;
};

struct CoreProfile {
  std::string path;
  /// Packets the run read from its input devices.
  double read = 0;
  llvm::StringMap<MeasuredInstance> instances;
};

/// Reads `path`, the --stats-json output of a run of `program`. A file that
/// cannot be read, is not JSON or has no measured cycles is an error; a
/// profile of another program, or naming instances `program` does not
/// have, draws warnings. Diagnostics name the file and go to `program`.
mlir::LogicalResult readCoreProfile(np::ProgramOp program, llvm::StringRef path,
                                    CoreProfile &out);

} // namespace npcc::c

#endif // NPCC_TARGETS_C_MAPPING_COREPROFILE_H
