//===- UCodeEmitter.cpp - ucode programs to images and assembly -----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "targets/ucode/UCodeEmitter.h"

#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Format.h"

using namespace mlir;
using namespace npcc;
using namespace npcc::ucode;

/// The label of each address of `program` (empty where none).
static std::vector<std::string> bundleLabels(ProgramOp program) {
  std::vector<std::string> labels;
  for (BundleOp bundle : program.getBundles())
    labels.push_back(bundle.getLabel().value_or("").str());
  return labels;
}

LogicalResult npcc::ucode::encodeProgram(ProgramOp program,
                                         std::vector<mu::Word> &words) {
  if (failed(mlir::verify(program)))
    return failure();
  llvm::StringMap<uint32_t> addresses;
  std::vector<std::string> labels = bundleLabels(program);
  for (size_t addr = 0; addr < labels.size(); ++addr)
    if (!labels[addr].empty())
      addresses[labels[addr]] = static_cast<uint32_t>(addr);

  words.clear();
  for (BundleOp bundle : program.getBundles()) {
    mu::Word word;
    std::string target;
    if (failed(bundle.getWord(word, target)))
      return failure();
    if (!target.empty()) {
      auto it = addresses.find(target);
      assert(it != addresses.end() && "verifier checks branch labels");
      word.BR_TARGET = it->second;
    }
    words.push_back(word);
  }
  return success();
}

LogicalResult npcc::ucode::emitUCodeImage(ProgramOp program,
                                          std::vector<uint8_t> &image,
                                          std::string &listing) {
  std::vector<mu::Word> words;
  if (failed(encodeProgram(program, words)))
    return failure();
  image = mu::writeImage(words);
  listing = mu::listing(words);
  return success();
}

/// The one `ucode.program` of `module`, or null after an error.
static ProgramOp getOnlyProgram(ModuleOp module) {
  auto programs = module.getOps<ProgramOp>();
  size_t count = std::distance(programs.begin(), programs.end());
  if (count != 1) {
    module.emitError("expected one 'ucode.program', found ") << count;
    return {};
  }
  return *programs.begin();
}

LogicalResult npcc::ucode::translateUCodeToAssembly(ModuleOp module,
                                                    llvm::raw_ostream &os) {
  ProgramOp program = getOnlyProgram(module);
  std::vector<mu::Word> words;
  if (!program || failed(encodeProgram(program, words)))
    return failure();
  std::vector<std::string> labels = bundleLabels(program);
  os << "; ucode.program @" << program.getSymName();
  if (std::optional<llvm::StringRef> entry = program.getEntry())
    os << ", entry " << *entry;
  os << "\n";
  for (size_t addr = 0; addr < words.size(); ++addr) {
    // Text starts in column 9; a longer label gets a line of its own.
    std::string label = labels[addr].empty() ? "" : labels[addr] + ":";
    if (label.size() > 7) {
      os << label << "\n";
      label.clear();
    }
    os << llvm::left_justify(label, 8) << mu::printWord(words[addr], &labels)
       << "\n";
  }
  return success();
}

/// The image and the listing of the one `ucode.program` of `module`.
static LogicalResult emitOnlyProgram(ModuleOp module,
                                     std::vector<uint8_t> &image,
                                     std::string &listing) {
  ProgramOp program = getOnlyProgram(module);
  return failure(!program || failed(emitUCodeImage(program, image, listing)));
}

LogicalResult npcc::ucode::translateUCodeToImage(ModuleOp module,
                                                 llvm::raw_ostream &os) {
  std::vector<uint8_t> image;
  std::string listing;
  if (failed(emitOnlyProgram(module, image, listing)))
    return failure();
  os.write(reinterpret_cast<const char *>(image.data()), image.size());
  return success();
}

LogicalResult npcc::ucode::translateUCodeToListing(ModuleOp module,
                                                   llvm::raw_ostream &os) {
  std::vector<uint8_t> image;
  std::string listing;
  if (failed(emitOnlyProgram(module, image, listing)))
    return failure();
  os << listing;
  return success();
}
