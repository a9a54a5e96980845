//===- npgen.cpp - Deterministic pcap traffic generator -------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Writes Ethernet/ARP/IPv4/UDP/TCP/ICMP/IPv6 frames for npcc's tests and
// benchmarks: same options and seed, same bytes. See README.md.
//
//===----------------------------------------------------------------------===//

#include "nprt/version.h"
#include "tools/common/ArgParser.h"
#include "tools/common/Output.h"
#include "tools/npgen/GenOptions.h"
#include "tools/npgen/Generator.h"

using namespace npcc::tools;

int main(int Argc, char **Argv) {
  GenOptions Opts;
  std::string Error = parseGenOptions(Argc, Argv, Opts);
  if (Error.empty() && Opts.Help) {
    printGenHelp();
    return exitAfterPrinting("npgen");
  }
  if (Error.empty() && Opts.Version) {
    std::fputs(npcc::versionText("npgen").c_str(), stdout);
    return exitAfterPrinting("npgen");
  }
  if (Error.empty())
    Error = generate(Opts);
  if (!Error.empty()) {
    printError("npgen", Error);
    return 1;
  }
  return exitAfterPrinting("npgen");
}
