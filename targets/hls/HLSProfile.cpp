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

std::string Profile::axisPort(StringRef port) const {
  if (tool == Tool::Vivado2019_2)
    return "#pragma HLS INTERFACE axis register both port=" + port.str();
  return "#pragma HLS INTERFACE mode=axis register_mode=both port=" +
         port.str();
}

std::string Profile::noControl() const {
  if (tool == Tool::Vivado2019_2)
    return "#pragma HLS INTERFACE ap_ctrl_none port=return";
  return "#pragma HLS INTERFACE mode=ap_ctrl_none port=return";
}

std::string Profile::blockRAM(StringRef variable) const {
  if (tool == Tool::Vivado2019_2)
    return "#pragma HLS RESOURCE variable=" + variable.str() +
           " core=RAM_2P_BRAM";
  return "#pragma HLS BIND_STORAGE variable=" + variable.str() +
         " type=ram_2p impl=bram";
}

std::string Profile::registers(StringRef variable) const {
  if (tool == Tool::Vivado2019_2)
    return "#pragma HLS ARRAY_PARTITION variable=" + variable.str() +
           " complete dim=0";
  return "#pragma HLS ARRAY_PARTITION variable=" + variable.str() +
         " type=complete dim=0";
}

std::string Profile::noInterDependence(StringRef variable) const {
  if (tool == Tool::Vivado2019_2)
    return "#pragma HLS DEPENDENCE variable=" + variable.str() + " inter false";
  return "#pragma HLS DEPENDENCE variable=" + variable.str() +
         " type=inter dependent=false";
}
