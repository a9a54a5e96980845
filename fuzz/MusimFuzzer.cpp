//===- MusimFuzzer.cpp - libFuzzer targets: musim's input readers ---------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// fuzz-musim-image: one input is one image file: the image reader, the
// decoder into micro-ops, and a short run of whatever loads (a few list
// items and headers, 10,000 cycles at most).
// fuzz-musim-lists: one input is one text file, read as a list/header file
// (--list, --headers) and as a raw input file (--input).
// Errors are fine; a crash, hang or sanitizer report is a bug.
//
//===----------------------------------------------------------------------===//

#include "runtime/isa/ISA.h"
#include "runtime/musim/InputFiles.h"
#include "runtime/musim/Program.h"
#include "runtime/musim/Run.h"

using namespace npcc;

#ifdef NPCC_FUZZ_MUSIM_IMAGE
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::vector<uint8_t> bytes(data, data + size);
  std::vector<mu::Word> words;
  mu::Diag d;
  if (!mu::readImage("fuzz.mu", bytes, words, d)) {
    (void)d.str();
    return 0;
  }
  musim::Program prog;
  std::string error;
  if (!musim::loadProgram(words, prog, error))
    return 0;
  std::vector<musim::Item> list, headers;
  std::string itemsText = "1 2 3 4 5 6 7 8\n0 0 0 0 0 0 0 0\n"
                          "ff 1 0 ffffffffffffffff 2 3 4 5\n";
  if (!musim::parseItems("list", itemsText, list, error) ||
      !musim::parseItems("headers", itemsText, headers, error))
    abort(); // the fixed text above is valid
  musim::RunConfig config;
  config.maxCycles = 10000;
  musim::RunResult result;
  (void)musim::runList(prog, list, headers, config, result);
  std::vector<musim::InputWord> input = {{1, false}, {2, true}, {3, true}};
  musim::RunResult raw;
  (void)musim::runRaw(prog, input, config, raw);
  return 0;
}
#else
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  std::string error;
  std::vector<musim::Item> items;
  (void)musim::parseItems("fuzz.list", text, items, error);
  std::vector<musim::InputWord> words;
  (void)musim::parseRawInput("fuzz.input", text, words, error);
  return 0;
}
#endif
