//===- ArgParser.cpp - Tiny command-line parser for the tools -------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "tools/common/ArgParser.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace npcc::tools;

static const Flag *findFlag(const std::vector<Flag> &Flags,
                            const std::string &Name) {
  for (const Flag &F : Flags)
    if (F.Name == Name)
      return &F;
  return nullptr;
}

std::string npcc::tools::parseArgs(int Argc, char **Argv,
                                   const std::vector<Flag> &Flags,
                                   std::vector<std::string> &Positional) {
  bool OnlyOperands = false;
  for (int I = 1; I < Argc; ++I) {
    std::string Arg = Argv[I];
    if (OnlyOperands || Arg.size() < 2 || Arg[0] != '-') {
      Positional.push_back(Arg);
      continue;
    }
    if (Arg == "--") {
      OnlyOperands = true;
      continue;
    }
    std::string Name = Arg;
    std::string Value;
    bool HasInlineValue = false;
    size_t Eq = Arg.find('=');
    if (Eq != std::string::npos) {
      Name = Arg.substr(0, Eq);
      Value = Arg.substr(Eq + 1);
      HasInlineValue = true;
    }
    const Flag *F = findFlag(Flags, Name);
    if (!F)
      return "unknown flag '" + Name + "' (see --help)";
    if (!F->TakesValue && HasInlineValue)
      return "flag '" + Name + "' takes no value";
    if (F->TakesValue && !HasInlineValue) {
      if (I + 1 >= Argc)
        return "flag '" + Name + "' needs a value";
      Value = Argv[++I];
    }
    std::string Error = F->Apply(Value);
    if (!Error.empty())
      return Error;
  }
  return "";
}

Flag npcc::tools::switchFlag(const char *Name, bool &Out) {
  return Flag{Name, false, [&Out](const std::string &) {
                Out = true;
                return std::string();
              }};
}

Flag npcc::tools::fileFlag(const char *Name, std::string &Out) {
  std::string Spelling = Name;
  return Flag{Name, true, [&Out, Spelling](const std::string &V) {
                if (!Out.empty())
                  return "'" + Spelling + "' given twice";
                if (V.empty())
                  return "empty file name for '" + Spelling + "'";
                Out = V;
                return std::string();
              }};
}

std::string npcc::tools::parseUnsigned(const std::string &Flag,
                                       const std::string &Text, uint64_t Min,
                                       uint64_t Max, uint64_t &Out) {
  std::string Range = " (expected an integer in " + std::to_string(Min) + ".." +
                      std::to_string(Max) + ")";
  if (Text.empty() || Text[0] < '0' || Text[0] > '9')
    return "invalid value '" + Text + "' for " + Flag + Range;
  errno = 0;
  char *End = nullptr;
  unsigned long long V = std::strtoull(Text.c_str(), &End, 10);
  if (*End != '\0' || errno == ERANGE || V < Min || V > Max)
    return "invalid value '" + Text + "' for " + Flag + Range;
  Out = V;
  return "";
}

bool npcc::tools::parseNonNegative(const std::string &Text, double &Out) {
  if (Text.empty() || !(Text[0] == '.' || (Text[0] >= '0' && Text[0] <= '9')))
    return false;
  char *End = nullptr;
  double V = std::strtod(Text.c_str(), &End);
  if (*End != '\0' || !std::isfinite(V) || V < 0)
    return false;
  Out = V;
  return true;
}

std::string npcc::tools::parseRate(const std::string &Flag,
                                   const std::string &Text, double &Out) {
  double V = 0;
  if (!parseNonNegative(Text, V) || V > 1)
    return "invalid rate '" + Text + "' for " + Flag +
           " (expected a number in 0..1)";
  Out = V;
  return "";
}

std::string npcc::tools::parseInputToolArgs(int Argc, char **Argv,
                                            std::vector<Flag> Flags,
                                            InputToolOptions &O) {
  Flags.push_back(switchFlag("--help", O.Help));
  Flags.push_back(switchFlag("--version", O.Version));
  std::vector<std::string> Operands;
  std::string Error = parseArgs(Argc, Argv, Flags, Operands);
  if (!Error.empty() || O.Help || O.Version)
    return Error;
  return takeOneOperand(Operands, O.In);
}

std::string
npcc::tools::takeOneOperand(const std::vector<std::string> &Operands,
                            std::string &In) {
  if (Operands.empty())
    return "no input file (see --help)";
  if (Operands.size() > 1)
    return "unexpected argument '" + Operands[1] + "'";
  In = Operands.front();
  return "";
}

std::vector<std::string> npcc::tools::split(const std::string &Text, char Sep) {
  std::vector<std::string> Pieces;
  size_t Start = 0;
  while (true) {
    size_t Pos = Text.find(Sep, Start);
    Pieces.push_back(Text.substr(Start, Pos - Start));
    if (Pos == std::string::npos)
      return Pieces;
    Start = Pos + 1;
  }
}

void npcc::tools::printError(const char *Tool, const std::string &Message) {
  std::fprintf(stderr, "%s: error: %s\n", Tool, Message.c_str());
}
