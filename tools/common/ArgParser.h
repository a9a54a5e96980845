//===- ArgParser.h - Tiny command-line parser for the tools -----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// A table of flags, each with a handler that validates its value. Accepts
// `--flag value` and `--flag=value`; a handler returns an error message or
// the empty string. Nothing here exits or throws: the tool's main prints the
// error and returns 1.
//
//===----------------------------------------------------------------------===//

#ifndef TOOLS_COMMON_ARGPARSER_H
#define TOOLS_COMMON_ARGPARSER_H

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace npcc::tools {

struct Flag {
  /// Spelling with dashes: "--count" or "-o".
  std::string Name;
  bool TakesValue;
  /// Applies the value (empty for a switch); returns an error or "".
  std::function<std::string(const std::string &Value)> Apply;
};

/// A switch that sets \p Out when present.
Flag switchFlag(const char *Name, bool &Out);

/// A flag naming a file: rejects an empty name and a second occurrence.
Flag fileFlag(const char *Name, std::string &Out);

/// Parses \p Argv against \p Flags. Operands (and "-") are appended to
/// \p Positional. Returns the first error, or "".
std::string parseArgs(int Argc, char **Argv, const std::vector<Flag> &Flags,
                      std::vector<std::string> &Positional);

/// The input file of a tool that takes exactly one operand: "" with \p In
/// set, or the error for none ("no input file") or a second one.
std::string takeOneOperand(const std::vector<std::string> &Operands,
                           std::string &In);

/// The options of a tool that reads one input file (muasm, mudis).
struct InputToolOptions {
  std::string In; // the one operand, "-" for stdin
  bool Help = false, Version = false;
};

/// parseArgs with --help and --version added to \p Flags; unless one of
/// them is given, exactly one operand is required: the input, in \p O.In.
std::string parseInputToolArgs(int Argc, char **Argv, std::vector<Flag> Flags,
                               InputToolOptions &O);

/// Parses a decimal integer in [Min, Max]; returns an error naming \p Flag.
std::string parseUnsigned(const std::string &Flag, const std::string &Text,
                          uint64_t Min, uint64_t Max, uint64_t &Out);

/// Parses a non-negative finite decimal number.
bool parseNonNegative(const std::string &Text, double &Out);

/// Parses a rate in [0, 1]; returns an error naming \p Flag.
std::string parseRate(const std::string &Flag, const std::string &Text,
                      double &Out);

/// Splits \p Text at \p Sep; keeps empty pieces.
std::vector<std::string> split(const std::string &Text, char Sep);

/// Prints "<tool>: error: <message>" to stderr.
void printError(const char *Tool, const std::string &Message);

} // namespace npcc::tools

#endif // TOOLS_COMMON_ARGPARSER_H
