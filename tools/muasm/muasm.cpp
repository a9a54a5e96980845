//===- muasm.cpp - Assemble match-unit microcode --------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Reads assembly (docs/match-unit-isa.md, "Assembly"), writes an image and
// optionally a listing: address, the encoding as three 16-digit hex words
// from high to low, and the canonical text of each word.
//
//===----------------------------------------------------------------------===//

#include "runtime/isa/ISA.h"
#include "tools/common/ArgParser.h"
#include "tools/common/InputFile.h"
#include "tools/common/Output.h"

#include <cinttypes>
#include <cstdio>

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
struct AsmOptions : InputToolOptions {
  std::string Out, Listing;
};
} // namespace

static std::string parseOptions(int Argc, char **Argv, AsmOptions &O) {
  std::string Error = parseInputToolArgs(
      Argc, Argv, {fileFlag("-o", O.Out), fileFlag("--listing", O.Listing)}, O);
  if (Error.empty() && !O.Help && !O.Version && O.Out.empty())
    return "no output file: use -o OUT.mu";
  return Error;
}

/// The assembly text of \p Name, refused when larger than MaxInputBytes.
static std::string readAssembly(const std::string &Name, std::string &Text) {
  std::string Error = readInput(Name, MaxInputBytes + 1, Text);
  if (Error.empty() && Text.size() > MaxInputBytes)
    Error = "'" + Name + "' is larger than " +
            std::to_string(MaxInputBytes >> 20) + " MiB";
  return Error;
}

int main(int Argc, char **Argv) {
  AsmOptions O;
  std::string Error = parseOptions(Argc, Argv, O);
  if (Error.empty() && (O.Help || O.Version))
    return printHelpOrVersion("muasm", O.Help, HelpText);
  std::string Text;
  if (Error.empty())
    Error = readAssembly(O.In, Text);
  if (!Error.empty()) {
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
