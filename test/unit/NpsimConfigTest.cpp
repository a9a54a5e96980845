//===- NpsimConfigTest.cpp - npsim's configuration files ------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// A configuration with an unknown key, a missing field or an impossible
// value is an error naming the file, the line, the key and the reason;
// the shipped ones read cleanly.
//
//===----------------------------------------------------------------------===//

#include "runtime/npsim/Config.h"

#include <gtest/gtest.h>

using namespace npcc::npsim;

namespace {

const char *kGood = R"(# a small machine
name = "t"
clock_mhz = 600
[core]
count = 4
contexts = 8
[interconnect]
latency = 2
ports = 4
[memory.local]
scope = "core"
capacity = "4KiB"
latency = 3
banks = 1
via_interconnect = false
[memory.imem]
scope = "chip"
capacity = 0x40_0000
latency = 150
banks = 4
[placement]
state = "local"
state_once = "imem"
shared = "imem"
tables = "imem"
packets = "imem"
lanes = "imem"
engines = "imem"
[lock]
kind = "none"
)";

std::string errorOf(const std::string &text,
                    std::vector<std::string> overrides = {}) {
  Config cfg;
  std::string err;
  EXPECT_FALSE(parseConfig(text, "m.toml", overrides, cfg, err));
  return err;
}

std::string replace(std::string s, const std::string &from,
                    const std::string &to) {
  size_t p = s.find(from);
  EXPECT_NE(p, std::string::npos) << from;
  return s.replace(p, from.size(), to);
}

} // namespace

TEST(NpsimConfig, ReadsAGoodOne) {
  Config cfg;
  std::string err;
  ASSERT_TRUE(parseConfig(kGood, "m.toml", {}, cfg, err)) << err;
  EXPECT_EQ(cfg.name, "t");
  EXPECT_EQ(cfg.cores, 4u);
  EXPECT_EQ(cfg.contexts, 8u);
  ASSERT_EQ(cfg.memories.size(), 2u);
  EXPECT_EQ(cfg.memories[0].capacity, 4096u);
  EXPECT_EQ(cfg.memories[1].capacity, 0x400000u);
  EXPECT_EQ(cfg.memories[0].scope, Scope::Core);
  EXPECT_FALSE(cfg.memories[0].viaInterconnect);
  EXPECT_EQ(cfg.place.state, 0);
  EXPECT_EQ(cfg.place.packets, 1);
  EXPECT_EQ(cfg.place.os, -1);
  EXPECT_EQ(cfg.lock.kind, LockKind::None);
}

TEST(NpsimConfig, UnknownKeyNamesFileLineAndKey) {
  EXPECT_EQ(errorOf(replace(kGood, "ports = 4", "ports = 4\nportz = 3")),
            "m.toml:10:1: error: unknown key 'portz' in [interconnect] "
            "(known keys: latency, ports)");
}

TEST(NpsimConfig, UnknownTable) {
  EXPECT_NE(errorOf(std::string(kGood) + "[cpu]\nx = 1\n")
                .find("m.toml:31:1: error: unknown table [cpu]"),
            std::string::npos);
}

TEST(NpsimConfig, MissingField) {
  EXPECT_EQ(errorOf(replace(kGood, "latency = 150\n", "")),
            "m.toml:16:1: error: [memory.imem] is missing 'latency'");
  EXPECT_EQ(errorOf(replace(kGood, "[lock]\nkind = \"none\"\n", "")),
            "m.toml: error: the configuration has no [lock] table");
}

TEST(NpsimConfig, ImpossibleValues) {
  EXPECT_EQ(errorOf(replace(kGood, "count = 4", "count = 0")),
            "m.toml:5:1: error: [core] count: must be 1..64 (got 0)");
  EXPECT_EQ(errorOf(replace(kGood, "banks = 4", "banks = 0")),
            "m.toml:20:1: error: [memory.imem] banks: must be 1..4096 (got 0)");
  EXPECT_EQ(errorOf(replace(kGood, "contexts = 8", "contexts = 9")),
            "m.toml:6:1: error: [core] contexts: must be 1..8 (got 9)");
  EXPECT_EQ(
      errorOf(replace(kGood, "capacity = \"4KiB\"", "capacity = \"4kb\"")),
      "m.toml:12:1: error: [memory.local] capacity: expected a size "
      "such as 65536, \"64KiB\" or \"2MiB\"");
  EXPECT_EQ(errorOf(replace(kGood, "packets = \"imem\"", "packets = \"dram\"")),
            "m.toml:26:1: error: [placement] packets: 'dram' is not one of "
            "'local', 'imem'");
  EXPECT_EQ(errorOf(replace(kGood, "clock_mhz = 600", "clock_mhz = 0")),
            "m.toml:3:1: error: clock_mhz: must be more than 0 (got 0)");
}

TEST(NpsimConfig, OnlyIngressCopiesHeaders) {
  EXPECT_EQ(errorOf(std::string(kGood) + "[egress]\nheader_bytes = 64\n"),
            "m.toml:32:1: error: unknown key 'header_bytes' in [egress] "
            "(known keys: gbps, desc_bytes)");
}

TEST(NpsimConfig, MutexNeedsTheSchedulersMemory) {
  EXPECT_EQ(errorOf(replace(kGood, "kind = \"none\"", "kind = \"mutex\"")),
            "m.toml:21:1: error: [placement] is missing 'os'");
}

TEST(NpsimConfig, SyntaxErrorsHaveLineAndColumn) {
  EXPECT_EQ(errorOf(replace(kGood, "latency = 2", "latency = 2 3")),
            "m.toml:8:13: error: unexpected text at the end of the line");
  EXPECT_EQ(errorOf(replace(kGood, "name = \"t\"", "name = \"t")),
            "m.toml:2:10: error: unterminated string");
  EXPECT_EQ(errorOf(replace(kGood, "[core]", "[core")),
            "m.toml:4:6: error: expected ']' after the table name");
  EXPECT_EQ(errorOf(std::string(kGood) + "[core]\n"),
            "m.toml:31:1: error: table [core] is defined twice");
}

TEST(NpsimConfig, OverridesApplyOnTop) {
  Config cfg;
  std::string err;
  ASSERT_TRUE(parseConfig(
      kGood, "m.toml",
      {"core.count=16", "memory.imem.banks=8", "lock.kind=\"spinlock\""}, cfg,
      err))
      << err;
  EXPECT_EQ(cfg.cores, 16u);
  EXPECT_EQ(cfg.memories[1].banks, 8u);
  EXPECT_EQ(cfg.lock.kind, LockKind::Spinlock);
  // A bare word is the string it spells; true stays a boolean.
  ASSERT_TRUE(parseConfig(kGood, "m.toml",
                          {"lock.kind=spinlock", "core.posted_writes=true"},
                          cfg, err))
      << err;
  EXPECT_EQ(cfg.lock.kind, LockKind::Spinlock);
  EXPECT_TRUE(cfg.postedWrites);
  EXPECT_EQ(errorOf(kGood, {"lock.kind=1x"}),
            "npsim: error: --set 'lock.kind=1x': '1x' is not a value (a "
            "number, a \"string\", true or false)");
  EXPECT_EQ(errorOf(kGood, {"core.count=0"}),
            "m.toml: error: [core] count: must be 1..64 (got 0)");
  EXPECT_EQ(errorOf(kGood, {"core.count"}),
            "npsim: error: --set 'core.count': expected KEY=VALUE");
  EXPECT_EQ(errorOf(kGood, {"core.cout=3"}),
            "m.toml: error: unknown key 'cout' in [core] (known keys: count, "
            "contexts, cluster, switch_cycles, stall_below, posted_writes)");
}

TEST(NpsimConfig, SwitchMatrixJoinsNpus) {
  Config cfg;
  std::string err;
  ASSERT_TRUE(parseConfig(std::string(kGood) + "[switch]\nnpus = 4\n", "m.toml",
                          {}, cfg, err))
      << err;
  EXPECT_TRUE(cfg.matrix.present);
  EXPECT_EQ(cfg.matrix.npus, 4u);
  EXPECT_EQ(cfg.matrix.firstPort, 4u); // right after the Ethernet devices
  EXPECT_EQ(cfg.matrix.latency, 0u);
  EXPECT_EQ(errorOf(std::string(kGood) + "[switch]\nlatency = 3\n"),
            "m.toml:31:1: error: [switch] is missing 'npus'");
  EXPECT_EQ(errorOf(std::string(kGood) + "[switch]\nnpus = 1\n"),
            "m.toml:32:1: error: [switch] npus: must be 2..16 (got 1)");
  EXPECT_EQ(
      errorOf(std::string(kGood) + "[switch]\nnpus = 4\nfirst_port = 2\n"),
      "m.toml:33:1: error: [switch] first_port: the ports follow the 4 "
      "Ethernet interfaces (devices 0..3), so at least 4 (got 2)");
}

TEST(NpsimConfig, ShippedConfigurationsRead) {
  for (const std::string &name : shippedConfigNames()) {
    Config cfg;
    std::string err;
    EXPECT_TRUE(loadConfig(name, NPSIM_CONFIG_DIR, {}, cfg, err)) << err;
    EXPECT_EQ(cfg.name, name);
  }
  Config cfg;
  std::string err;
  EXPECT_FALSE(loadConfig("no-such", NPSIM_CONFIG_DIR, {}, cfg, err));
  EXPECT_EQ(err, "npsim: error: cannot read configuration 'no-such' (a "
                 "file, or one of: nfp-like, modular-npu, powernp-like)");
}
