//===- Toml.h - the TOML subset of npsim's configuration files --*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// npsim's machine descriptions are TOML (docs/npsim.md, "Configuration
// files"): comments, `[table]` and `[a.b]` headers, and `key = value` lines
// whose value is an integer (decimal or 0x, `_` between digits), a float, a
// string, a boolean or an array of those on one line. That is all a machine
// description needs; anything else is an error with its line and column,
// never a guess.
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_RUNTIME_NPSIM_TOML_H
#define NPCC_RUNTIME_NPSIM_TOML_H

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace npcc::npsim {

/// Where something is in a configuration file (1-based; 0: nowhere, as a
/// value set from the command line).
struct SrcLoc {
  unsigned line = 0, col = 0;
};

struct TomlValue {
  enum Kind { INT, FLOAT, STRING, BOOL, ARRAY } kind = INT;
  int64_t i = 0;
  double f = 0;
  std::string s;
  bool b = false;
  std::vector<TomlValue> items;
  SrcLoc loc;

  const char *kindName() const;
};

/// One `[table]`: its keys in file order, and where its header was.
struct TomlTable {
  std::string name; // "" for the keys before any header
  SrcLoc loc;
  std::vector<std::pair<std::string, TomlValue>> keys;
  SrcLoc keyLoc(const std::string &key) const;
  const TomlValue *find(const std::string &key) const;
};

struct TomlDoc {
  std::vector<TomlTable> tables; // the root table first, then file order
  const TomlTable *find(const std::string &name) const;
  TomlTable &get(const std::string &name); // made when missing
};

/// Parses `text`; on error returns false with `err` set to
/// "LINE:COL: error: WHAT" (the caller puts the file name in front).
bool parseToml(const std::string &text, TomlDoc &doc, std::string &err);

/// Parses the value part of a `--set key=value` override (no location).
bool parseTomlValue(const std::string &text, TomlValue &v, std::string &err);

} // namespace npcc::npsim

#endif // NPCC_RUNTIME_NPSIM_TOML_H
