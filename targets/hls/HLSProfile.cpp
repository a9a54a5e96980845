//===- HLSProfile.cpp - pragma spelling per HLS tool ----------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "targets/hls/HLSProfile.h"

#include "llvm/ADT/StringSwitch.h"

using namespace npcc::hls;
using llvm::StringRef;

std::optional<Tool> npcc::hls::parseTool(StringRef name) {
  return llvm::StringSwitch<std::optional<Tool>>(name)
      .Case("vivado-2019.2", Tool::Vivado2019_2)
      .Case("vitis-2023", Tool::Vitis2023)
      .Default(std::nullopt);
}

StringRef npcc::hls::toolNames() { return "vivado-2019.2, vitis-2023"; }

StringRef npcc::hls::toolName(Tool tool) {
  return tool == Tool::Vivado2019_2 ? "vivado-2019.2" : "vitis-2023";
}

/// The pragma `tool` spells as `vivado` (Vivado 2019.2) or `vitis` (Vitis
/// 2023), with `name` in place of `{0}`.
static std::string spell(Tool tool, StringRef vivado, StringRef vitis,
                         StringRef name = "") {
  std::string text = (tool == Tool::Vivado2019_2 ? vivado : vitis).str();
  if (size_t at = text.find("{0}"); at != std::string::npos)
    text.replace(at, 3, name.str());
  return text;
}

std::string Profile::axisPort(StringRef port) const {
  return spell(tool, "#pragma HLS INTERFACE axis register both port={0}",
               "#pragma HLS INTERFACE mode=axis register_mode=both port={0}",
               port);
}

std::string Profile::noControl() const {
  return spell(tool, "#pragma HLS INTERFACE ap_ctrl_none port=return",
               "#pragma HLS INTERFACE mode=ap_ctrl_none port=return");
}

std::string Profile::blockRAM(StringRef variable) const {
  return spell(tool, "#pragma HLS RESOURCE variable={0} core=RAM_2P_BRAM",
               "#pragma HLS BIND_STORAGE variable={0} type=ram_2p impl=bram",
               variable);
}

std::string Profile::registers(StringRef variable) const {
  return spell(tool, "#pragma HLS ARRAY_PARTITION variable={0} complete dim=0",
               "#pragma HLS ARRAY_PARTITION variable={0} type=complete dim=0",
               variable);
}

std::string Profile::noInterDependence(StringRef variable) const {
  return spell(tool, "#pragma HLS DEPENDENCE variable={0} inter false",
               "#pragma HLS DEPENDENCE variable={0} type=inter dependent=false",
               variable);
}
