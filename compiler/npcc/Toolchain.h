//===- Toolchain.h - where npcc finds the rest of its toolchain -*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// npcc reads the element library, and the programs it builds need the
// runtime's headers, libnprt.a and (for --target=hls) the sources an HLS
// project copies. An installed npcc finds them relative to its own
// executable; one run from the build tree finds the checkout's.
//
//===----------------------------------------------------------------------===//

#ifndef NPCC_COMPILER_NPCC_TOOLCHAIN_H
#define NPCC_COMPILER_NPCC_TOOLCHAIN_H

#include "llvm/Support/raw_ostream.h"

#include <string>

namespace npcc {

/// The directories and files of one toolchain.
struct ToolchainPaths {
  /// The NPL element library: std.np and one file per element.
  std::string elementLibrary;
  /// The runtime's public headers (nprt/nprt.h) the emitted C includes.
  std::string runtimeInclude;
  /// libnprt.a, which the emitted C links.
  std::string runtimeLibrary;
  /// libnprt-sim.a, which it links instead with --sim (npsim included).
  std::string simRuntimeLibrary;
  /// The runtime files a --target=hls project copies, in the checkout's
  /// layout (hls/, include/nprt/, nprt/).
  std::string hlsRuntime;
  /// Xilinx's ap_types headers the project's `make csim` compiles against.
  std::string apTypes;
};

/// The toolchain of the running npcc (`argv0` is main's argv[0]). Installed
/// under a prefix P (P/bin/npcc): P/share/npcc/lib, P/include,
/// P/lib/libnprt.a, P/share/npcc/runtime and P/share/npcc/ap_types (else
/// the ap_types directory npcc was configured with). Run from the build
/// tree: the checkout's lib/ and runtime/ and the build's libnprt.a.
/// $NPCC_RUNTIME_DIR (the directory of libnprt.a and libnprt-sim.a) and
/// $NPCC_AP_TYPES_DIR
/// override theirs.
ToolchainPaths findToolchain(const char *argv0);

/// What --print-search-paths prints: one `name: path` line per part.
void printToolchain(const ToolchainPaths &paths, llvm::raw_ostream &os);

} // namespace npcc

#endif // NPCC_COMPILER_NPCC_TOOLCHAIN_H
