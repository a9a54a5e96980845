//===- HLSProfile.h - pragma spelling per HLS tool ---------------*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Vivado HLS 2019.2 and Vitis HLS 2023 accept the same C++ but spell some
// pragmas differently (UG902 vs UG1399): storage binding, interface modes
// and dependence declarations. Everything the emitter writes that differs
// between them comes from here.
//
//===----------------------------------------------------------------------===//

#ifndef NPCC_TARGETS_HLS_HLSPROFILE_H
#define NPCC_TARGETS_HLS_HLSPROFILE_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace npcc::hls {

enum class Tool { Vivado2019_2, Vitis2023 };

/// The tool named `name` (`vivado-2019.2`, `vitis-2023`), if known.
std::optional<Tool> parseTool(llvm::StringRef name);
/// The names parseTool accepts, for messages and --help.
llvm::StringRef toolNames();
llvm::StringRef toolName(Tool tool);

struct Profile {
  Tool tool;
  /// An AXI4-Stream port of the top function.
  std::string axisPort(llvm::StringRef port) const;
  /// A free-running function: no start/done handshake.
  std::string noControl() const;
  /// `variable` kept in a true dual-port block RAM.
  std::string blockRAM(llvm::StringRef variable) const;
  /// `variable` split into registers.
  std::string registers(llvm::StringRef variable) const;
  /// No dependence between iterations through `variable`.
  std::string noInterDependence(llvm::StringRef variable) const;
};

} // namespace npcc::hls

#endif // NPCC_TARGETS_HLS_HLSPROFILE_H
