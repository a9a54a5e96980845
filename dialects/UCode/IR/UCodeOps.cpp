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
    if (failed(bundle.getWord(word, target)))
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
                     const npcc::mu::Word &word, llvm::StringRef target,
                     llvm::StringRef label) {
  npcc::mu::Bits bits = npcc::mu::encode(word);
  state.addAttribute(
      getBitsAttrName(state.name),
      builder.getDenseI64ArrayAttr(
          {(int64_t)bits[0], (int64_t)bits[1], (int64_t)bits[2]}));
  if (!target.empty())
    state.addAttribute(getTargetAttrName(state.name),
                       builder.getStringAttr(target));
  if (!label.empty())
    state.addAttribute(getLabelAttrName(state.name),
                       builder.getStringAttr(label));
}

LogicalResult BundleOp::getWord(npcc::mu::Word &word,
                                std::string &targetLabel) {
  ArrayRef<int64_t> b = getBits();
  if (b.size() != npcc::mu::WORD_U64S)
    return emitOpError("bits must hold ")
           << npcc::mu::WORD_U64S << " 64-bit words, found " << b.size();
  npcc::mu::Bits bits = {(uint64_t)b[0], (uint64_t)b[1], (uint64_t)b[2]};
  if (!npcc::mu::decode(bits, word))
    return emitOpError("bits above bit 177 are set");
  targetLabel = getTarget().value_or("").str();
  return success();
}

ParseResult BundleOp::parse(OpAsmParser &parser, OperationState &state) {
  std::string text;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseString(&text))
    return failure();
  npcc::mu::Word word;
  std::string target, error;
  if (!npcc::mu::parseWordText(text, word, target, error))
    return parser.emitError(loc, "invalid word: ") << error;
  std::string label;
  if (succeeded(parser.parseOptionalKeyword("label")) &&
      parser.parseString(&label))
    return failure();
  Builder b(parser.getContext());
  OperationState built(state.location, state.name);
  OpBuilder ob(parser.getContext());
  build(ob, built, word, target, label);
  state.addAttributes(built.attributes);
  return parser.parseOptionalAttrDict(state.attributes);
}

void BundleOp::print(OpAsmPrinter &p) {
  npcc::mu::Word word;
  std::string target;
  std::vector<std::string> labels;
  if (succeeded(getWord(word, target)) && !target.empty())
    labels.push_back(target); // the word's target field is 0
  p << " ";
  p.printString(npcc::mu::printWord(word, labels.empty() ? nullptr : &labels));
  if (std::optional<StringRef> label = getLabel()) {
    p << " label ";
    p.printString(*label);
  }
  p.printOptionalAttrDict(
      (*this)->getAttrs(),
      {getBitsAttrName(), getTargetAttrName(), getLabelAttrName()});
}

LogicalResult BundleOp::verify() {
  if (std::optional<llvm::StringRef> label = getLabel())
    if (!isValidLabel(*label))
      return emitOpError("label '")
             << *label << "' is not an identifier ([A-Za-z_.][A-Za-z0-9_.]*)";
  npcc::mu::Word word;
  std::string target;
  return getWord(word, target);
}

//===----------------------------------------------------------------------===//
// The machine form: slot operations on virtual registers
//===----------------------------------------------------------------------===//

namespace {
struct FieldEntry {
  llvm::StringLiteral name;
  uint32_t npcc::mu::Word::*field;
  unsigned width;
};
const FieldEntry wordFields[] = {
#define MU_FIELD(SLOT, NAME, LSB, WIDTH, DOC)                                  \
  {#SLOT "_" #NAME, &npcc::mu::Word::SLOT##_##NAME, WIDTH},
#include "runtime/isa/MatchUnit.def"
};
} // namespace

uint32_t npcc::mu::Word::*npcc::ucode::wordField(llvm::StringRef name) {
  for (const FieldEntry &e : wordFields)
    if (e.name == name)
      return e.field;
  return nullptr;
}

llvm::StringRef npcc::ucode::wordFieldName(uint32_t npcc::mu::Word::*field) {
  for (const FieldEntry &e : wordFields)
    if (e.field == field)
      return e.name;
  return "";
}

LogicalResult MachineOp::verify() {
  if (getFiles().size() != getFixed().size())
    return emitOpError("'files' and 'fixed' must name the same virtual "
                       "registers");
  for (auto [v, file] : llvm::enumerate(getFiles()))
    if (file < 0 || file > 3)
      return emitOpError("virtual register ")
             << v << " has no register file " << file;
  // Compare results are p8-p15, predicate-unit results p0-p7.
  for (auto [v, phys] : llvm::enumerate(getFixed())) {
    int file = getFiles()[v];
    int lo = file == 2 ? 8 : 0, hi = file == 3 ? 7 : 15;
    if (phys != -1 && (phys < lo || phys > hi))
      return emitOpError("virtual register ")
             << v << " is fixed to a register its file lacks: " << phys;
  }
  if (getItemWords() < 0)
    return emitOpError("'item_words' must not be negative");
  return success();
}

LogicalResult SlotOp::verify() {
  if (!llvm::is_contained({"init", "header", "item", "general"}, getBlock()))
    return emitOpError("unknown block '") << getBlock() << "'";
  if (!llvm::is_contained({"in", "cp", "alu", "tern", "pred", "br"}, getUnit()))
    return emitOpError("unknown unit '") << getUnit() << "'";
  if (getWord() < 0 || getWord() >= 1024)
    return emitOpError("word ") << getWord() << " is outside the microcode";
  if (getPredUnit() != 0 && getPredUnit() != 1)
    return emitOpError("'pred_unit' must be 0 or 1");
  // Branches go to the labels the allocator lays out.
  if ((getUnit() == "br") != getTarget().has_value())
    return emitOpError("a 'br' slot, and only one, names a 'target'");
  auto machine = (*this)->getParentOfType<MachineOp>();
  if (auto target = getTarget()) {
    if (!llvm::is_contained(
            {"hdr", "hdr4", "item", "general", "matched", "flush"}, *target))
      return emitOpError("unknown branch target '") << *target << "'";
    if (*target == "general" && !machine.getGeneral())
      return emitOpError("branches to 'general', but the machine has no "
                         "general path");
  }
  int64_t vregs = machine.getFiles().size();
  for (DictionaryAttr dict : {getFields(), getRegs()})
    for (NamedAttribute a : dict) {
      if (!wordField(a.getName()))
        return emitOpError("no field '")
               << a.getName().getValue() << "' in a word";
      auto value = dyn_cast<IntegerAttr>(a.getValue());
      if (!value)
        return emitOpError("field '")
               << a.getName().getValue() << "' must be an integer";
      unsigned width = 0;
      for (const FieldEntry &e : wordFields)
        if (e.name == a.getName().getValue())
          width = e.width;
      // Field values are the bits of an i32 (ALU_IMM uses all of them).
      if (value.getValue().getActiveBits() > 32)
        return emitOpError("field '")
               << a.getName().getValue() << "' does not fit 32 bits";
      uint64_t bits = value.getValue().getZExtValue();
      if (dict == getFields() && width < 64 && bits >> width != 0)
        return emitOpError("field '")
               << a.getName().getValue() << "' is " << width << " bits wide; "
               << bits << " does not fit";
      if (dict == getRegs() && (int64_t)bits >= vregs)
        return emitOpError("field '")
               << a.getName().getValue() << "' names virtual register " << bits
               << " of " << vregs;
    }
  for (ArrayRef<int32_t> list : {getReads(), getWrites()})
    for (int32_t v : list)
      if (v < 0 || v >= vregs)
        return emitOpError("virtual register ")
               << v << " is not in the machine's " << vregs;
  return success();
}
