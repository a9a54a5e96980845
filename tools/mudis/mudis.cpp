//===- mudis.cpp - Disassemble match-unit images --------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Reads an image (docs/match-unit-isa.md, "Image") and prints its canonical
// assembly, which muasm turns back into the same bytes.
//
//===----------------------------------------------------------------------===//

#include "nprt/version.h"
#include "runtime/isa/ISA.h"
#include "tools/common/ArgParser.h"
#include "tools/common/Output.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

using namespace npcc;
using namespace npcc::tools;

static const char *const HelpText = R"(usage: mudis [options] IN.mu

Prints the match-unit image IN.mu ('-' for stdin) as canonical assembly,
one line per word, branch targets labelled L<addr>.

Options:
  -o FILE   write the assembly to FILE instead of stdout ('-' for stdout)
  --help    this text
  --version print npcc's version
)";

/// The largest valid image; one byte more is read so that a longer file is
/// reported as trailing data without reading all of it.
static constexpr size_t MaxImageBytes = 16 + 8 * mu::WORD_U64S * mu::MAX_WORDS;

namespace {
struct DisOptions {
  std::string In, Out;
  bool Help = false, Version = false;
};
} // namespace

static std::string parseOptions(int Argc, char **Argv, DisOptions &O) {
  std::vector<Flag> Flags = {
      fileFlag("-o", O.Out),
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
  O.In = Operands.front();
  if (O.Out.empty())
    O.Out = "-";
  return "";
}

static std::string readImageBytes(const std::string &Name,
                                  std::vector<uint8_t> &Bytes) {
  FILE *F = Name == "-" ? stdin : std::fopen(Name.c_str(), "rb");
  if (!F)
    return "cannot open '" + Name + "': " + std::strerror(errno);
  Bytes.resize(MaxImageBytes + 1);
  size_t N = std::fread(Bytes.data(), 1, Bytes.size(), F);
  Bytes.resize(N);
  std::string Error;
  if (std::ferror(F))
    Error = "cannot read '" + Name + "': " + std::strerror(errno);
  if (F != stdin)
    std::fclose(F);
  return Error;
}

int main(int Argc, char **Argv) {
  DisOptions O;
  std::string Error = parseOptions(Argc, Argv, O);
  if (!Error.empty()) {
    printError("mudis", Error);
    return 1;
  }
  if (O.Help) {
    std::fputs(HelpText, stdout);
    return exitAfterPrinting("mudis");
  }
  if (O.Version) {
    std::fputs(versionText("mudis").c_str(), stdout);
    return exitAfterPrinting("mudis");
  }
  std::vector<uint8_t> Bytes;
  if (!(Error = readImageBytes(O.In, Bytes)).empty()) {
    printError("mudis", Error);
    return 1;
  }
  std::vector<mu::Word> Program;
  mu::Diag D;
  if (!mu::readImage(O.In == "-" ? "<stdin>" : O.In, Bytes, Program, D)) {
    std::fprintf(stderr, "%s\n", D.str().c_str());
    return 1;
  }
  std::string Text = mu::disassemble(Program);
  if (!(Error = writeFile(O.Out, Text.data(), Text.size())).empty()) {
    printError("mudis", Error);
    return 1;
  }
  return exitAfterPrinting("mudis");
}
