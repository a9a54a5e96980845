//===- HLSProject.h - the directory --target=hls writes ---------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef NPCC_TARGETS_HLS_HLSPROJECT_H
#define NPCC_TARGETS_HLS_HLSPROJECT_H

#include "targets/hls/HLSProfile.h"

#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace npcc::hls {

/// Where the project's copies of the runtime come from.
struct ProjectSources {
  /// runtime/ of the npcc checkout, or share/npcc/runtime of an installed
  /// toolchain (hls/, include/nprt and nprt/ below it).
  std::string runtimeDir;
  /// Xilinx's ap_types headers (ap_int.h, hls_stream.h) for `make csim`.
  std::string apTypesDir;
};

/// Writes `dir`: design.cpp (`design`, the printed design), tb.cpp, the
/// runtime it includes (include/, src/), a Makefile whose `csim` target
/// builds and runs the testbench with g++ against the ap_types headers,
/// and run_hls.tcl for `tool` (csim, csynth, cosim, export). `lowered` is
/// the module after hls-convert-np-to-emitc (its device attributes).
mlir::LogicalResult writeProject(mlir::ModuleOp lowered, llvm::StringRef design,
                                 llvm::StringRef dir, Tool tool,
                                 const ProjectSources &sources,
                                 std::string &error);

/// Module attributes hls-convert-np-to-emitc leaves for writeProject: the
/// input and output device numbers, in the order of the first instance
/// that uses each (the top function takes them in increasing order).
constexpr llvm::StringLiteral kDevicesInAttr = "hls.devices_in";
constexpr llvm::StringLiteral kDevicesOutAttr = "hls.devices_out";

} // namespace npcc::hls

#endif // NPCC_TARGETS_HLS_HLSPROJECT_H
