//===- muasm.cpp - Assemble match-unit microcode --------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Reads assembly (docs/match-unit-isa.md, "Assembly"), writes an image and
// optionally a listing: address, the encoding as three 16-digit hex words
// from high to low, and the canonical text of each word.
//
//===----------------------------------------------------------------------===//

#include "nprt/version.h"
#include "runtime/isa/ISA.h"
#include "tools/common/ArgParser.h"
#include "tools/common/Output.h"

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>

using namespace npcc;
using namespace npcc::tools;

static const char *const HelpText = R"(usage: muasm [options] IN.mua -o OUT.mu

Assembles match-unit microcode (docs/match-unit-isa.md) into an image.
IN.mua may be '-' for stdin.

Options:
  -o FILE          the image to write ('-' for stdout)
  --listing FILE   also write one line per word: address, encoding (bits
                   128-177, 64-127, 0-63 in hex) and canonical text
                   ('-' for stdout)
  --help           this text
  --version        print npcc's version
)";

/// Assembly input larger than this is refused rather than read.
static constexpr size_t MaxInputBytes = size_t(16) << 20;

namespace {
struct AsmOptions {
  std::string In, Out, Listing;
  bool Help = false, Version = false;
};
} // namespace

static std::string parseOptions(int Argc, char **Argv, AsmOptions &O) {
  std::vector<Flag> Flags = {
      fileFlag("-o", O.Out),
      fileFlag("--listing", O.Listing),
      switchFlag("--help", O.Help),
      switchFlag("--version", O.Version),
  };
  std::vector<std::string> Operands;
  std::string Error = parseArgs(Argc, Argv, Flags, Operands);
  if (!Error.empty() || O.Help || O.Version)
    return Error;
  if (Operands.empty())
    return "no input file (see --help)";
  if (Operands.size() > 1)
    return "unexpected argument '" + Operands[1] + "'";
  if (O.Out.empty())
    return "no output file: use -o OUT.mu";
  O.In = Operands.front();
  return "";
}

static std::string readInput(const std::string &Name, std::string &Text) {
  FILE *F = Name == "-" ? stdin : std::fopen(Name.c_str(), "rb");
  if (!F)
    return "cannot open '" + Name + "': " + std::strerror(errno);
  char Buf[1 << 16];
  size_t N;
  std::string Error;
  while ((N = std::fread(Buf, 1, sizeof(Buf), F)) > 0) {
    if (Text.size() + N > MaxInputBytes) {
      Error = "'" + Name + "' is larger than " +
              std::to_string(MaxInputBytes >> 20) + " MiB";
      break;
    }
    Text.append(Buf, N);
  }
  if (Error.empty() && std::ferror(F))
    Error = "cannot read '" + Name + "': " + std::strerror(errno);
  if (F != stdin)
    std::fclose(F);
  return Error;
}

int main(int Argc, char **Argv) {
  AsmOptions O;
  std::string Error = parseOptions(Argc, Argv, O);
  if (!Error.empty()) {
    printError("muasm", Error);
    return 1;
  }
  if (O.Help) {
    std::fputs(HelpText, stdout);
    return exitAfterPrinting("muasm");
  }
  if (O.Version) {
    std::fputs(versionText("muasm").c_str(), stdout);
    return exitAfterPrinting("muasm");
  }
  std::string Text;
  if (!(Error = readInput(O.In, Text)).empty()) {
    printError("muasm", Error);
    return 1;
  }
  std::vector<mu::Word> Program;
  std::vector<mu::Diag> Diags;
  if (!mu::assemble(O.In == "-" ? "<stdin>" : O.In, Text, Program, Diags)) {
    for (const mu::Diag &D : Diags)
      std::fprintf(stderr, "%s\n", D.str().c_str());
    return 1;
  }
  std::vector<uint8_t> Image = mu::writeImage(Program);
  if (!(Error = writeFile(O.Out, Image.data(), Image.size())).empty()) {
    printError("muasm", Error);
    return 1;
  }
  if (!O.Listing.empty()) {
    std::string List = mu::listing(Program);
    if (!(Error = writeFile(O.Listing, List.data(), List.size())).empty()) {
      printError("muasm", Error);
      return 1;
    }
  }
  return exitAfterPrinting("muasm");
}
