//===- Toolchain.cpp - where npcc finds the rest of its toolchain ---------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The installed layout is the one compiler/cmake/NPCCInstall.cmake writes.
// The build tree's paths are compiled into this file alone (CMake passes
// them as definitions) and used only when npcc runs from that build's bin/,
// so an installed or moved toolchain never reads the checkout.
//
//===----------------------------------------------------------------------===//

#include "compiler/npcc/Toolchain.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdlib>

using namespace npcc;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

namespace {

/// Any function of this executable: getMainExecutable needs an address in
/// it where /proc/self/exe is not available.
void anchor() {}

std::string join(llvm::StringRef dir, const llvm::Twine &rel) {
  llvm::SmallString<256> p(dir);
  path::append(p, rel);
  return std::string(p);
}

/// The toolchain below the prefix `prefix` (the parent of bin/). The
/// ap_types headers are installed only when the build found them; the
/// configured directory (or AP_TYPES= at `make csim`) serves otherwise.
ToolchainPaths installedToolchain(llvm::StringRef prefix) {
  std::string apTypes = join(prefix, "share/npcc/ap_types");
  return {join(prefix, "share/npcc/lib"),
          join(prefix, "include"),
          join(prefix, "lib/libnprt.a"),
          join(prefix, "lib/libnprt-sim.a"),
          join(prefix, "share/npcc/runtime"),
          fs::is_directory(apTypes) ? apTypes : NPCC_AP_TYPES_DIR};
}

/// The checkout's library and runtime sources, the build's libnprt.a.
ToolchainPaths buildTreeToolchain() {
  return {NPCC_LIB_DIR,         NPCC_RUNTIME_INCLUDE_DIR, NPCC_RUNTIME_LIB,
          NPCC_SIM_RUNTIME_LIB, NPCC_RUNTIME_SOURCE_DIR,  NPCC_AP_TYPES_DIR};
}

} // namespace

ToolchainPaths npcc::findToolchain(const char *argv0) {
  std::string exe = fs::getMainExecutable(argv0, (void *)&anchor);
  llvm::StringRef binDir = path::parent_path(exe);
  ToolchainPaths paths = fs::equivalent(binDir, NPCC_BUILD_BIN_DIR)
                             ? buildTreeToolchain()
                             : installedToolchain(path::parent_path(binDir));
  if (const char *dir = std::getenv("NPCC_RUNTIME_DIR")) {
    paths.runtimeLibrary = join(dir, "libnprt.a");
    paths.simRuntimeLibrary = join(dir, "libnprt-sim.a");
  }
  if (const char *dir = std::getenv("NPCC_AP_TYPES_DIR"))
    paths.apTypes = dir;
  return paths;
}

void npcc::printToolchain(const ToolchainPaths &paths, llvm::raw_ostream &os) {
  os << "library: " << paths.elementLibrary << "\n"
     << "runtime-include: " << paths.runtimeInclude << "\n"
     << "runtime-library: " << paths.runtimeLibrary << "\n"
     << "sim-runtime-library: " << paths.simRuntimeLibrary << "\n"
     << "hls-runtime: " << paths.hlsRuntime << "\n"
     << "ap-types: " << paths.apTypes << "\n";
}
