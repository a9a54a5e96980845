//===- UCodeOps.cpp - ucode dialect operations ----------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The bundle verifier parses its word with the ISA library, the one parser
// of the assembly syntax; the program verifier checks what spans bundles:
// labels, branch targets and the size of the microcode memory.
//
//===----------------------------------------------------------------------===//

#include "dialects/UCode/IR/UCodeOps.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace npcc::ucode;

#define GET_OP_CLASSES
#include "dialects/UCode/IR/UCodeOps.cpp.inc"

bool npcc::ucode::isValidLabel(llvm::StringRef name) {
  auto isStart = [](char c) {
    return llvm::isAlpha(c) || c == '_' || c == '.';
  };
  return !name.empty() && isStart(name.front()) &&
         llvm::all_of(name.drop_front(),
                      [&](char c) { return isStart(c) || llvm::isDigit(c); });
}

//===----------------------------------------------------------------------===//
// ProgramOp
//===----------------------------------------------------------------------===//

void ProgramOp::build(OpBuilder &builder, OperationState &state,
                      llvm::StringRef name) {
  state.addAttribute(getSymNameAttrName(state.name),
                     builder.getStringAttr(name));
  state.addRegion()->emplaceBlock();
}

LogicalResult ProgramOp::verifyRegions() {
  llvm::StringMap<BundleOp> labels;
  size_t count = 0;
  for (Operation &op : *getBody()) {
    auto bundle = dyn_cast<BundleOp>(op);
    if (!bundle) {
      InFlightDiagnostic diag = emitOpError("may contain only 'ucode.bundle', "
                                            "found '")
                                << op.getName() << "'";
      diag.attachNote(op.getLoc()) << "found here";
      return diag;
    }
    ++count;
    std::optional<llvm::StringRef> label = bundle.getLabel();
    if (!label)
      continue;
    auto [it, inserted] = labels.try_emplace(*label, bundle);
    if (!inserted) {
      InFlightDiagnostic diag = bundle.emitOpError("label '")
                                << *label << "' is defined twice";
      diag.attachNote(it->second.getLoc()) << "first defined here";
      return diag;
    }
  }
  if (count > npcc::mu::MAX_WORDS)
    return emitOpError("has ")
           << count << " bundles, more than the " << npcc::mu::MAX_WORDS
           << " words of microcode memory";

  for (BundleOp bundle : getBundles()) {
    npcc::mu::Word word;
    std::string target;
    if (failed(bundle.parseWord(word, target)))
      return failure();
    if (!target.empty() && !labels.count(target))
      return bundle.emitOpError("branch to undefined label '") << target << "'";
  }

  if (std::optional<llvm::StringRef> entry = getEntry()) {
    auto it = labels.find(*entry);
    if (it == labels.end())
      return emitOpError("entry '") << *entry << "' is not a bundle label";
    if (it->second != *getBundles().begin()) {
      InFlightDiagnostic diag = emitOpError("entry '")
                                << *entry
                                << "' does not label the first bundle: the "
                                   "unit starts at address 0";
      diag.attachNote(it->second.getLoc()) << "label defined here";
      return diag;
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// BundleOp
//===----------------------------------------------------------------------===//

void BundleOp::build(OpBuilder &builder, OperationState &state,
                     llvm::StringRef text, llvm::StringRef label) {
  state.addAttribute(getTextAttrName(state.name), builder.getStringAttr(text));
  if (!label.empty())
    state.addAttribute(getLabelAttrName(state.name),
                       builder.getStringAttr(label));
}

LogicalResult BundleOp::parseWord(npcc::mu::Word &word,
                                  std::string &targetLabel) {
  std::string error;
  if (!npcc::mu::parseWordText(getText().str(), word, targetLabel, error))
    return emitOpError("invalid word: ") << error;
  return success();
}

LogicalResult BundleOp::verify() {
  if (std::optional<llvm::StringRef> label = getLabel())
    if (!isValidLabel(*label))
      return emitOpError("label '")
             << *label << "' is not an identifier ([A-Za-z_.][A-Za-z0-9_.]*)";
  npcc::mu::Word word;
  std::string target;
  return parseWord(word, target);
}
