//===- npsim-config.cpp - read and check an npsim configuration -----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// npsim-config CONFIG [--set TABLE.KEY=VALUE]... [--json]: reads a machine
// description (a file or a shipped name) with npsim's own reader and
// prints what it describes, or the error (file:line:col, key, reason) and
// exits 1. `npsim-config --list` names the shipped ones. The npsim driver
// (tools/npsim/npsim.py) uses it to check a sweep's configurations before
// anything runs.
//
//===----------------------------------------------------------------------===//

#include "runtime/npsim/Config.h"
#include "runtime/npsim/ShippedConfigs.h"
#include "tools/common/ArgParser.h"

#include <cstdio>

using namespace npcc::npsim;
using namespace npcc::tools;

namespace {

const char *scopeName(Scope s) {
  return s == Scope::Core ? "core" : s == Scope::Cluster ? "cluster" : "chip";
}

const char *lockName(LockKind k) {
  return k == LockKind::Mutex      ? "mutex"
         : k == LockKind::Spinlock ? "spinlock"
                                   : "none";
}

void printText(const Config &c) {
  printf("%s (%s): %u cores x %u contexts at %g MHz, cluster %u, "
         "switch %u cycles\n",
         c.name.c_str(), c.file.c_str(), c.cores, c.contexts, c.clockMhz,
         c.cluster, c.switchCycles);
  printf("  interconnect: latency %u, %u ports\n", c.icLatency, c.icPorts);
  for (const MemoryCfg &m : c.memories)
    printf("  memory %s: %s, %llu bytes, latency %u, %u banks x %u cycles, "
           "%u-byte beats, interleave %u%s\n",
           m.name.c_str(), scopeName(m.scope), (unsigned long long)m.capacity,
           m.latency, m.banks, m.bankCycles, m.width, m.interleave,
           m.viaInterconnect ? "" : ", beside the interconnect");
  for (const CacheCfg *k : {&c.icache, &c.dcache})
    if (k->present)
      printf("  %s: %u bytes, %u-byte lines, %u ways, hit %u\n",
             k == &c.icache ? "icache" : "dcache", k->size, k->line, k->ways,
             k->hit);
  printf("  lock: %s\n", lockName(c.lock.kind));
  for (const CoprocCfg &k : c.coprocs)
    if (k.present)
      printf("  coprocessor %s: %u units, latency %u\n", k.name.c_str(),
             k.units, k.latency);
}

void printJson(const Config &c) {
  printf("{\"name\": \"%s\", \"cores\": %u, \"contexts\": %u, "
         "\"clock_mhz\": %g, \"lock\": \"%s\", \"memories\": [",
         c.name.c_str(), c.cores, c.contexts, c.clockMhz,
         lockName(c.lock.kind));
  for (size_t i = 0; i < c.memories.size(); ++i)
    printf("%s{\"name\": \"%s\", \"scope\": \"%s\", \"capacity\": %llu}",
           i ? ", " : "", c.memories[i].name.c_str(),
           scopeName(c.memories[i].scope),
           (unsigned long long)c.memories[i].capacity);
  printf("]}\n");
}

void usage(FILE *f) {
  fprintf(f,
          "usage: npsim-config CONFIG [--set TABLE.KEY=VALUE]... [--json]\n"
          "       npsim-config --list\n"
          "Reads an npsim machine description (a file, or one of the shipped\n"
          "names) and prints what it describes; an error names the file, the\n"
          "line and column, the key and the reason (docs/npsim.md).\n"
          "\n"
          "  --set TABLE.KEY=VALUE  change one key (repeatable)\n"
          "  --json                 print as JSON\n"
          "  --list                 print the shipped configurations' names\n"
          "  --help                 print this help\n");
}

} // namespace

int main(int argc, char **argv) {
  std::vector<std::string> sets, operands;
  bool json = false, list = false, help = false;
  std::vector<Flag> flags = {{"--set", true,
                              [&](const std::string &v) {
                                sets.push_back(v);
                                return std::string();
                              }},
                             switchFlag("--json", json),
                             switchFlag("--list", list),
                             switchFlag("--help", help)};
  std::string err = parseArgs(argc, argv, flags, operands);
  if (!err.empty()) {
    fprintf(stderr, "npsim-config: error: %s\n", err.c_str());
    return 1;
  }
  if (help) {
    usage(stdout);
    return 0;
  }
  if (list) {
    for (const std::string &n : shippedConfigNames())
      printf("%s\n", n.c_str());
    return 0;
  }
  std::string in;
  err = takeOneOperand(operands, in);
  if (!err.empty()) {
    fprintf(stderr, "npsim-config: error: %s\n", err.c_str());
    usage(stderr);
    return 1;
  }
  Config cfg;
  if (!loadConfig(in, "", sets, cfg, err)) {
    fprintf(stderr, "%s\n", err.c_str());
    return 1;
  }
  if (json)
    printJson(cfg);
  else
    printText(cfg);
  return 0;
}
