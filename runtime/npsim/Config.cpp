//===- Config.cpp - reading and checking an npsim machine description -----===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "runtime/npsim/Config.h"

#include "runtime/npsim/ShippedConfigs.h"

#include <cctype>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

using namespace npcc::npsim;

int Config::memoryIndex(const std::string &n) const {
  for (size_t i = 0; i < memories.size(); ++i)
    if (memories[i].name == n)
      return int(i);
  return -1;
}

const CoprocCfg &Config::coproc(const char *n) const {
  for (const CoprocCfg &c : coprocs)
    if (c.name == n)
      return c;
  static const CoprocCfg none;
  return none;
}

std::vector<std::string> npcc::npsim::shippedConfigNames() {
  return {"nfp-like", "modular-npu", "powernp-like"};
}

namespace {

const char *const kCoprocNames[] = {"crc", "checksum", "lpm", "hash"};

/// Reads the keys of one table, checking each against what the caller
/// asks for; `done` then reports any key nobody asked for.
class Fields {
public:
  Fields(const TomlTable &t, const std::string &file, std::string &err)
      : t(t), file(file), err(err) {}

  bool u32(const char *key, uint32_t &out, bool required, uint64_t lo,
           uint64_t hi) {
    uint64_t v = out;
    if (!u64(key, v, required, lo, hi))
      return false;
    out = uint32_t(v);
    return true;
  }

  bool u64(const char *key, uint64_t &out, bool required, uint64_t lo,
           uint64_t hi) {
    const TomlValue *v = take(key);
    if (!v)
      return !required || missing(key);
    int64_t x;
    if (v->kind == TomlValue::INT)
      x = v->i;
    else if (v->kind == TomlValue::STRING) {
      if (!sized(*v, x))
        return bad(*v, key,
                   "expected a size such as 65536, \"64KiB\" or \"2MiB\"");
    } else
      return bad(*v, key,
                 std::string("expected an integer, got ") + v->kindName());
    if (x < 0 || uint64_t(x) < lo || uint64_t(x) > hi) {
      std::string range = hi == UINT64_MAX
                              ? "at least " + std::to_string(lo)
                              : std::to_string(lo) + ".." + std::to_string(hi);
      return bad(*v, key,
                 "must be " + range + " (got " + std::to_string(x) + ")");
    }
    out = uint64_t(x);
    return true;
  }

  bool f64(const char *key, double &out, bool required, double lo,
           bool openLo) {
    const TomlValue *v = take(key);
    if (!v)
      return !required || missing(key);
    double x;
    if (v->kind == TomlValue::INT)
      x = double(v->i);
    else if (v->kind == TomlValue::FLOAT)
      x = v->f;
    else
      return bad(*v, key,
                 std::string("expected a number, got ") + v->kindName());
    if (!std::isfinite(x) || x < lo || (openLo && x == lo)) {
      std::ostringstream os;
      os << "must be " << (openLo ? "more than " : "at least ") << lo
         << " (got " << x << ")";
      return bad(*v, key, os.str());
    }
    out = x;
    return true;
  }

  bool str(const char *key, std::string &out, bool required,
           const TomlValue **where = nullptr) {
    const TomlValue *v = take(key);
    if (!v)
      return !required || missing(key);
    if (v->kind != TomlValue::STRING)
      return bad(*v, key,
                 std::string("expected a string, got ") + v->kindName());
    out = v->s;
    if (where)
      *where = v;
    return true;
  }

  bool boolean(const char *key, bool &out) {
    const TomlValue *v = take(key);
    if (!v)
      return true;
    if (v->kind != TomlValue::BOOL)
      return bad(*v, key,
                 std::string("expected true or false, got ") + v->kindName());
    out = v->b;
    return true;
  }

  /// One of `names`; its index in `out`.
  bool choice(const char *key, int &out, bool required,
              const std::vector<std::string> &names) {
    std::string s;
    const TomlValue *where = nullptr;
    if (!str(key, s, required, &where))
      return false;
    if (!where)
      return true;
    for (size_t i = 0; i < names.size(); ++i)
      if (names[i] == s) {
        out = int(i);
        return true;
      }
    std::string list;
    for (size_t i = 0; i < names.size(); ++i)
      list += (i ? ", " : "") + ("'" + names[i] + "'");
    return bad(*where, key, "'" + s + "' is not one of " + list);
  }

  bool done() {
    for (const auto &kv : t.keys)
      if (!used.count(kv.first))
        return at(kv.second.loc, "unknown key '" + kv.first + "' in " +
                                     tableName() + expected());
    return true;
  }

  /// An error at `loc` (the table's header when 0).
  bool at(SrcLoc loc, const std::string &what) {
    err = file;
    if (loc.line)
      err += ":" + std::to_string(loc.line) + ":" + std::to_string(loc.col);
    err += ": error: " + what;
    return false;
  }

  std::string tableName() const {
    return t.name.empty() ? std::string("the top level") : "[" + t.name + "]";
  }

  bool bad(const TomlValue &v, const char *key, const std::string &why) {
    std::string where = t.name.empty() ? "" : tableName() + " ";
    return at(v.loc.line ? v.loc : SrcLoc{}, where + key + ": " + why);
  }

  const TomlTable &t;

private:
  const std::string &file;
  std::string &err;
  std::set<std::string> used;
  std::vector<std::string> asked;

  const TomlValue *take(const char *key) {
    used.insert(key);
    asked.push_back(key);
    return t.find(key);
  }

  bool missing(const char *key) {
    return at(t.loc, tableName() + " is missing '" + key + "'");
  }

  std::string expected() const {
    std::string s = " (known keys: ";
    for (size_t i = 0; i < asked.size(); ++i)
      s += (i ? ", " : "") + asked[i];
    return s + ")";
  }

  static bool sized(const TomlValue &v, int64_t &x) {
    const std::string &s = v.s;
    size_t i = 0;
    uint64_t n = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
      n = n * 10 + uint64_t(s[i] - '0');
      if (n > (1ull << 40))
        return false;
      ++i;
    }
    if (i == 0)
      return false;
    std::string unit = s.substr(i);
    uint64_t mul = unit == "" || unit == "B" ? 1
                   : unit == "KiB"           ? 1ull << 10
                   : unit == "MiB"           ? 1ull << 20
                   : unit == "GiB"           ? 1ull << 30
                                             : 0;
    if (!mul)
      return false;
    x = int64_t(n * mul);
    return true;
  }
};

/// `table.key=value` on top of the document.
bool applyOverride(TomlDoc &doc, const std::string &o, std::string &err) {
  size_t eq = o.find('=');
  size_t dot = eq == std::string::npos ? eq : o.rfind('.', eq);
  if (eq == std::string::npos || eq == 0) {
    err = "npsim: error: --set '" + o + "': expected KEY=VALUE";
    return false;
  }
  std::string table = dot == std::string::npos ? "" : o.substr(0, dot);
  std::string key = o.substr(dot == std::string::npos ? 0 : dot + 1,
                             eq - (dot == std::string::npos ? 0 : dot + 1));
  TomlValue v;
  std::string verr;
  std::string text = o.substr(eq + 1);
  // On a command line quotes are a chore: a bare word that starts with a
  // letter and is not true or false is the string it spells.
  bool word = !text.empty() && isalpha((unsigned char)text[0]) &&
              text != "true" && text != "false" &&
              text.find_first_of("\"[]{},= ") == std::string::npos;
  if (word) {
    v.kind = TomlValue::STRING;
    v.s = text;
  } else if (!parseTomlValue(text, v, verr)) {
    size_t p = verr.find("error: ");
    err = "npsim: error: --set '" + o +
          "': " + (p == std::string::npos ? verr : verr.substr(p + 7));
    return false;
  }
  v.loc = SrcLoc{};
  TomlTable &t = doc.get(table);
  for (auto &kv : t.keys)
    if (kv.first == key) {
      kv.second = v;
      return true;
    }
  t.keys.emplace_back(key, v);
  return true;
}

bool readMemory(Fields &f, MemoryCfg &m) {
  int scope = 2;
  if (!f.choice("scope", scope, true, {"core", "cluster", "chip"}))
    return false;
  m.scope = Scope(scope);
  m.loc = f.t.loc;
  return f.u64("capacity", m.capacity, true, 1, UINT64_MAX) &&
         f.u32("latency", m.latency, true, 0, 100000) &&
         f.u32("banks", m.banks, true, 1, 4096) &&
         f.u32("bank_cycles", m.bankCycles, false, 1, 100000) &&
         f.u32("width", m.width, false, 1, 4096) &&
         f.u32("interleave", m.interleave, false, 1, 1u << 30) &&
         f.boolean("via_interconnect", m.viaInterconnect) &&
         f.boolean("cached", m.cached) && f.done();
}

bool readCache(Fields &f, CacheCfg &c) {
  c.present = true;
  c.loc = f.t.loc;
  if (!(f.u32("size", c.size, true, 1, 1u << 30) &&
        f.u32("line", c.line, true, 4, 4096) &&
        f.u32("ways", c.ways, false, 1, 64) &&
        f.u32("hit", c.hit, false, 0, 1000) && f.done()))
    return false;
  if (c.line & (c.line - 1))
    return f.at(f.t.keyLoc("line"), f.tableName() +
                                        " line: must be a power of two (got " +
                                        std::to_string(c.line) + ")");
  if (c.size % (c.line * c.ways) != 0)
    return f.at(f.t.keyLoc("size"),
                f.tableName() + " size: must be a multiple of line x ways (" +
                    std::to_string(c.line * c.ways) + ")");
  return true;
}

bool readConfig(const TomlDoc &doc, const std::string &file, Config &cfg,
                std::string &err) {
  cfg = Config();
  cfg.file = file;
  // The memories first: placement names them.
  for (const TomlTable &t : doc.tables) {
    if (t.name.rfind("memory.", 0) != 0)
      continue;
    Fields f(t, file, err);
    MemoryCfg m;
    m.name = t.name.substr(7);
    if (!readMemory(f, m))
      return false;
    if (m.interleave < m.width)
      return f.at(t.keyLoc("interleave"),
                  f.tableName() + " interleave: must be at least the width (" +
                      std::to_string(m.width) + ")");
    cfg.memories.push_back(m);
  }
  for (const char *n : kCoprocNames) {
    CoprocCfg c;
    c.name = n;
    cfg.coprocs.push_back(c);
  }
  std::set<std::string> seen;
  for (const TomlTable &t : doc.tables) {
    Fields f(t, file, err);
    const std::string &n = t.name;
    seen.insert(n);
    bool ok = true;
    if (n.empty()) {
      ok = f.str("name", cfg.name, true) &&
           f.f64("clock_mhz", cfg.clockMhz, true, 0, true) && f.done();
    } else if (n == "core") {
      ok = f.u32("count", cfg.cores, true, 1, kMaxCores) &&
           f.u32("contexts", cfg.contexts, true, 1, kMaxContexts) &&
           f.u32("cluster", cfg.cluster, false, 1, kMaxCores) &&
           f.u32("switch_cycles", cfg.switchCycles, false, 0, 1000) &&
           f.u32("stall_below", cfg.stallBelow, false, 0, 100000) &&
           f.boolean("posted_writes", cfg.postedWrites) && f.done();
      if (ok && !cfg.cluster)
        cfg.cluster = kMaxCores;
    } else if (n == "interconnect") {
      ok = f.u32("latency", cfg.icLatency, true, 0, 100000) &&
           f.u32("ports", cfg.icPorts, true, 1, 4096) && f.done();
    } else if (n.rfind("memory.", 0) == 0) {
      continue;
    } else if (n == "cache.icache" || n == "cache.dcache") {
      ok = readCache(f, n == "cache.icache" ? cfg.icache : cfg.dcache);
    } else if (n == "placement") {
      std::vector<std::string> names;
      for (const MemoryCfg &m : cfg.memories)
        names.push_back(m.name);
      PlacementCfg &p = cfg.place;
      bool mutex = false;
      if (const TomlTable *l = doc.find("lock"))
        if (const TomlValue *k = l->find("kind"))
          mutex = k->kind == TomlValue::STRING && k->s == "mutex";
      bool icache = doc.find("cache.icache") != nullptr;
      ok = f.choice("state", p.state, true, names) &&
           f.choice("state_once", p.stateOnce, true, names) &&
           f.choice("shared", p.shared, true, names) &&
           f.choice("tables", p.tables, true, names) &&
           f.choice("packets", p.packets, true, names) &&
           f.choice("lanes", p.lanes, true, names) &&
           f.choice("engines", p.engines, true, names) &&
           f.choice("os", p.os, mutex, names) &&
           f.choice("code", p.code, icache, names) && f.done();
    } else if (n == "lock") {
      int kind = 0;
      ok = f.choice("kind", kind, true, {"none", "mutex", "spinlock"}) &&
           f.u32("spin_backoff", cfg.lock.spinBackoff, false, 1, 100000) &&
           f.u32("sched_accesses", cfg.lock.schedAccesses, false, 0, 1000) &&
           f.u32("sched_cycles", cfg.lock.schedCycles, false, 0, 100000) &&
           f.done();
      cfg.lock.kind = LockKind(kind);
    } else if (n == "ingress" || n == "egress") {
      EngineCfg &e = n == "ingress" ? cfg.ingress : cfg.egress;
      ok = f.f64("gbps", e.gbps, false, 0, false) &&
           f.u32("desc_bytes", e.descBytes, false, 1, 4096) &&
           (n == "egress" ||
            f.u32("header_bytes", e.headerBytes, false, 0, 65536)) &&
           f.done();
    } else if (n == "switch") {
      SwitchCfg &s = cfg.matrix;
      s.present = true;
      s.loc = t.loc;
      s.firstPort = 0;
      ok = f.u32("npus", s.npus, true, 2, 16) &&
           f.u32("first_port", s.firstPort, false, 2, 1000) &&
           f.u32("latency", s.latency, false, 0, 1000000) &&
           f.f64("gbps", s.gbps, false, 0, false) && f.done();
      if (ok && !s.firstPort)
        s.firstPort = s.npus; // the ports right after the Ethernet ones
      if (ok && s.firstPort < s.npus)
        return f.at(t.keyLoc("first_port"),
                    "[switch] first_port: the ports follow the " +
                        std::to_string(s.npus) +
                        " Ethernet interfaces (devices 0.." +
                        std::to_string(s.npus - 1) + "), so at least " +
                        std::to_string(s.npus) + " (got " +
                        std::to_string(s.firstPort) + ")");
    } else if (n.rfind("coprocessor.", 0) == 0) {
      std::string which = n.substr(12);
      CoprocCfg *c = nullptr;
      for (CoprocCfg &k : cfg.coprocs)
        if (k.name == which)
          c = &k;
      if (!c)
        return f.at(t.loc, "unknown coprocessor [" + n +
                               "] (known: crc, checksum, lpm, hash)");
      c->present = true;
      c->loc = t.loc;
      ok = f.u32("units", c->units, false, 1, 1024) &&
           f.u32("latency", c->latency, true, 0, 100000) &&
           f.u32("per_byte_16ths", c->perByte, false, 0, 100000) && f.done();
    } else if (n == "costs") {
      CostsCfg &c = cfg.costs;
      const uint64_t M = 1000000;
      ok = f.u32("send", c.send, false, 0, M) &&
           f.u32("recv", c.recv, false, 0, M) &&
           f.u32("poll", c.poll, false, 0, M) &&
           f.u32("select", c.select, false, 0, M) &&
           f.u32("device_recv", c.deviceRecv, false, 0, M) &&
           f.u32("device_send", c.deviceSend, false, 0, M) &&
           f.u32("drop", c.drop, false, 0, M) &&
           f.u32("clone", c.clone, false, 0, M) &&
           f.u32("pkt_new", c.pktNew, false, 0, M) &&
           f.u32("call", c.call, false, 0, M) &&
           f.u32("sw_csum_per16", c.swCsumPer16, false, 0, M) &&
           f.u32("sw_crc_per_byte", c.swCrcPerByte, false, 0, M) &&
           f.u32("sw_lpm_per_level", c.swLpmPerLevel, false, 0, M) &&
           f.u32("sw_hash_probe", c.swHashProbe, false, 0, M) && f.done();
    } else {
      return f.at(t.loc,
                  "unknown table [" + n +
                      "] (known: core, interconnect, memory.NAME, "
                      "cache.icache, cache.dcache, placement, lock, ingress, "
                      "egress, switch, coprocessor.NAME, costs)");
    }
    if (!ok)
      return false;
  }
  // Tables every machine needs.
  for (const char *need : {"core", "interconnect", "placement", "lock"})
    if (!seen.count(need)) {
      err = file + ": error: the configuration has no [" + need + "] table";
      return false;
    }
  if (cfg.memories.empty()) {
    err = file + ": error: the configuration has no [memory.NAME] table";
    return false;
  }
  return true;
}

} // namespace

bool npcc::npsim::parseConfig(const std::string &text, const std::string &file,
                              const std::vector<std::string> &overrides,
                              Config &cfg, std::string &err) {
  TomlDoc doc;
  std::string perr;
  if (!parseToml(text, doc, perr)) {
    err = file + ":" + perr;
    return false;
  }
  for (const std::string &o : overrides)
    if (!applyOverride(doc, o, err))
      return false;
  return readConfig(doc, file, cfg, err);
}

bool npcc::npsim::loadConfig(const std::string &nameOrPath,
                             const std::string &dataDir,
                             const std::vector<std::string> &overrides,
                             Config &cfg, std::string &err) {
  if (const char *text = shippedConfigText(nameOrPath))
    if (dataDir.empty())
      return parseConfig(text, nameOrPath + ".toml", overrides, cfg, err);
  std::string path = nameOrPath;
  for (const std::string &n : shippedConfigNames())
    if (n == nameOrPath)
      path = dataDir + "/" + n + ".toml";
  std::ifstream in(path);
  if (!in) {
    std::string names;
    for (const std::string &n : shippedConfigNames())
      names += (names.empty() ? "" : ", ") + n;
    err = "npsim: error: cannot read configuration '" + nameOrPath +
          "' (a file, or one of: " + names + ")";
    return false;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  return parseConfig(ss.str(), path, overrides, cfg, err);
}
