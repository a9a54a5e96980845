//===- MuasmFuzzer.cpp - libFuzzer target: the match-unit assembler -------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// One input is one .mua file. What assembles must survive the tools' round
// trips: image write/read gives the same words, and the disassembly
// assembles to the same words. Errors are fine; a crash, a sanitizer report
// or a round trip that changes the program is a bug.
//
//===----------------------------------------------------------------------===//

#include "runtime/isa/ISA.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace npcc::mu;

static bool sameWords(const std::vector<Word> &a, const std::vector<Word> &b) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (encode(a[i]) != encode(b[i]))
      return false;
  return true;
}

static void fail(const char *what, const std::string &text) {
  fprintf(stderr, "muasm round trip failed: %s\n%s\n", what, text.c_str());
  abort();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  std::vector<Word> program;
  std::vector<Diag> diags;
  if (!assemble("fuzz.mua", text, program, diags)) {
    for (const Diag &d : diags)
      (void)d.str();
    return 0;
  }
  (void)listing(program);
  std::vector<uint8_t> image = writeImage(program);
  std::vector<Word> back;
  Diag d;
  if (!readImage("fuzz.mu", image, back, d) || !sameWords(program, back))
    fail("image", d.str());
  std::string dis = disassemble(program);
  std::vector<Word> again;
  diags.clear();
  if (!assemble("dis.mua", dis, again, diags))
    fail(("disassembly does not assemble: " +
          (diags.empty() ? std::string() : diags[0].str()))
             .c_str(),
         dis);
  if (!sameWords(program, again))
    fail("disassembly assembles to other words", dis);
  return 0;
}
