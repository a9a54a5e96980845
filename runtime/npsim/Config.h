//===- Config.h - an npsim machine description ------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The machine npsim simulates: cores and their hardware contexts, the
// memories with their banks, the interconnect, caches, locks, coprocessors,
// the ingress and egress engines, the costs of the runtime's operations,
// and where each kind of data lives. Read from a TOML file
// (docs/npsim.md, "Configuration files"); every key is checked against the
// schema below before anything runs, and a bad one is an error naming the
// file, the line, the key and the reason.
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_RUNTIME_NPSIM_CONFIG_H
#define NPCC_RUNTIME_NPSIM_CONFIG_H

#include "runtime/npsim/Toml.h"

#include <cstdint>
#include <string>
#include <vector>

namespace npcc::npsim {

/// Upper bounds of the model (the 1-64 cores x 1-8 contexts).
constexpr uint32_t kMaxCores = 64;
constexpr uint32_t kMaxContexts = 8;

/// How many copies of a memory there are.
enum class Scope {
  Core,    ///< one per core (local memory, a per-core segment)
  Cluster, ///< one per cluster of `core.cluster` cores (NFP's CLS)
  Chip,    ///< one for the chip
};

struct MemoryCfg {
  std::string name;
  Scope scope = Scope::Chip;
  uint64_t capacity = 0;    ///< bytes per copy
  uint32_t latency = 0;     ///< unloaded cycles from issue to data
  uint32_t banks = 1;       ///< independent banks per copy
  uint32_t bankCycles = 1;  ///< cycles a bank is busy per beat
  uint32_t width = 8;       ///< bytes per beat
  uint32_t interleave = 64; ///< bytes per bank before the next bank
  /// Reached through the interconnect (its latency and ports apply) rather
  /// than from the core's own port.
  bool viaInterconnect = true;
  /// The data cache may keep its lines. False for buffers an engine writes
  /// behind the cores' caches (no coherence): every read goes out.
  bool cached = true;
  SrcLoc loc;
};

struct CacheCfg {
  bool present = false;
  uint32_t size = 0, line = 32, ways = 1;
  uint32_t hit = 1; ///< cycles of a hit
  SrcLoc loc;
};

enum class LockKind { None, Mutex, Spinlock };

struct LockCfg {
  /// The engines' queues: None is hardware queues (no lock), Mutex sleeps
  /// through a scheduler whose data is in `placement.os`, Spinlock retries
  /// the lock word.
  LockKind kind = LockKind::None;
  uint32_t spinBackoff = 8;   ///< cycles between two tries of a spinlock
  uint32_t schedAccesses = 4; ///< accesses to the scheduler's data per sleep
                              ///< and per wake-up (mutex)
  uint32_t schedCycles = 50;  ///< instructions of the scheduler per call
};

struct EngineCfg {
  double gbps = 0;          ///< line rate; 0: packets are always waiting
  uint32_t descBytes = 16;  ///< a descriptor in the engine's queue
  uint32_t headerBytes = 0; ///< bytes the dispatcher copies to local memory
};

/// Several NPUs joined by a switch matrix (the modular-NPU paper's Fig. 2):
/// each NPU is the machine the rest of the file describes. NPU k's
/// Ethernet interface is device k, its port on the matrix device
/// firstPort + k; the matrix reads a frame's 8-byte header (SwitchEncap)
/// and hands it to the port of the NPU it names.
struct SwitchCfg {
  bool present = false;
  uint32_t npus = 1;
  uint32_t firstPort = 0;
  uint32_t latency = 0; ///< cycles from one port to another
  double gbps = 0;      ///< each port's rate; 0: no limit
  SrcLoc loc;
};

struct CoprocCfg {
  std::string name; ///< crc, checksum, lpm, hash
  bool present = false;
  uint32_t units = 1;   ///< identical units sharing one queue
  uint32_t latency = 0; ///< cycles per request ...
  uint32_t perByte = 0; ///< ... plus cycles per byte (1/16 cycles)
  SrcLoc loc;
};

/// Cycles the runtime's own operations take on a core (a channel send, a
/// receive, ...), apart from the memory they touch; and what an operation a
/// coprocessor would do costs in software when there is none.
struct CostsCfg {
  uint32_t send = 12, recv = 12, poll = 4, select = 16;
  uint32_t deviceRecv = 20, deviceSend = 20;
  uint32_t drop = 8, clone = 40, pktNew = 30;
  uint32_t call = 4;        ///< a runtime call that is not one of the above
  uint32_t swCsumPer16 = 6; ///< software checksum, per 16 bytes
  uint32_t swCrcPerByte = 9;
  uint32_t swLpmPerLevel = 6;
  uint32_t swHashProbe = 20;
};

/// Where each kind of data lives: the index of a memory in `memories`.
struct PlacementCfg {
  int state = -1;     ///< state of instances every core copies
  int stateOnce = -1; ///< state of instances that run once
  int shared = -1;    ///< an element's shared state
  int tables = -1;    ///< lookup tables
  int packets = -1;   ///< packet buffers
  int lanes = -1;     ///< lanes between contexts
  int engines = -1;   ///< the engines' queues and lock words
  int os = -1;        ///< the scheduler's data (mutex)
  int code = -1;      ///< code, fetched by the instruction cache
};

struct Config {
  std::string name; ///< the `name` key
  std::string file; ///< where it was read from
  double clockMhz = 0;
  uint32_t cores = 0, contexts = 0; ///< defaults for --cores, --contexts
  uint32_t cluster = 0;             ///< cores per cluster
  uint32_t switchCycles = 0;        ///< a context switch
  /// An access whose unloaded latency is at most this many cycles stalls
  /// the context instead of letting another run.
  uint32_t stallBelow = 0;
  /// A write does not wait for the memory (a write buffer), though it
  /// still occupies the bank.
  bool postedWrites = false;
  uint32_t icLatency = 0, icPorts = 0; ///< the interconnect
  std::vector<MemoryCfg> memories;
  CacheCfg icache, dcache;
  PlacementCfg place;
  LockCfg lock;
  EngineCfg ingress, egress;
  SwitchCfg matrix;               ///< the [switch] table
  std::vector<CoprocCfg> coprocs; ///< crc, checksum, lpm, hash, in this order
  CostsCfg costs;

  int memoryIndex(const std::string &name) const;
  const CoprocCfg &coproc(const char *name) const;
};

/// The named configurations shipped with npsim ("nfp-like", ...).
std::vector<std::string> shippedConfigNames();

/// Reads `nameOrPath`: a shipped name (looked up in `dataDir`), else a
/// file. `overrides` are `table.key=value` settings applied on top (a
/// sweep's axes). Returns false with `err` set to
/// "FILE:LINE:COL: error: ..." (or "npsim: error: ..." for an override).
bool loadConfig(const std::string &nameOrPath, const std::string &dataDir,
                const std::vector<std::string> &overrides, Config &cfg,
                std::string &err);

/// Parses configuration text (`file` names it in errors).
bool parseConfig(const std::string &text, const std::string &file,
                 const std::vector<std::string> &overrides, Config &cfg,
                 std::string &err);

} // namespace npcc::npsim

#endif // NPCC_RUNTIME_NPSIM_CONFIG_H
