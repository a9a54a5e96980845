//===- mudis.cpp - Disassemble match-unit images --------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Reads an image (docs/match-unit-isa.md, "Image") and prints its canonical
// assembly, which muasm turns back into the same bytes.
//
//===----------------------------------------------------------------------===//

#include "runtime/isa/ISA.h"
#include "tools/common/ArgParser.h"
#include "tools/common/InputFile.h"
#include "tools/common/Output.h"

#include <cstdio>

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
struct DisOptions : InputToolOptions {
  std::string Out;
};
} // namespace

static std::string parseOptions(int Argc, char **Argv, DisOptions &O) {
  std::string Error =
      parseInputToolArgs(Argc, Argv, {fileFlag("-o", O.Out)}, O);
  if (O.Out.empty())
    O.Out = "-";
  return Error;
}

int main(int Argc, char **Argv) {
  DisOptions O;
  std::string Error = parseOptions(Argc, Argv, O);
  if (Error.empty() && (O.Help || O.Version))
    return printHelpOrVersion("mudis", O.Help, HelpText);
  std::string Bytes;
  if (Error.empty())
    Error = readInput(O.In, MaxImageBytes + 1, Bytes);
  if (!Error.empty()) {
    printError("mudis", Error);
    return 1;
  }
  std::vector<mu::Word> Program;
  mu::Diag D;
  if (!mu::readImage(O.In == "-" ? "<stdin>" : O.In,
                     std::vector<uint8_t>(Bytes.begin(), Bytes.end()), Program,
                     D)) {
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
