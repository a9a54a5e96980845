//===- UCodeOps.td - ucode dialect operations --------------*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef NPCC_DIALECTS_UCODE_IR_UCODEOPS_TD
#define NPCC_DIALECTS_UCODE_IR_UCODEOPS_TD

include "dialects/UCode/IR/UCodeDialect.td"
include "mlir/IR/SymbolInterfaces.td"

class UCode_Op<string mnemonic, list<Trait> traits = []>
    : Op<UCode_Dialect, mnemonic, traits>;

def UCode_ProgramOp : UCode_Op<"program", [
    Symbol, SingleBlock, NoTerminator, IsolatedFromAbove]> {
  let summary = "a match-unit program: one bundle per word of microcode";
  let description = [{
    A program is the microcode of one match unit. Its body holds only
    `ucode.bundle` operations; the first is the word at address 0, the next
    at address 1, and so on, up to the 1024 words of the unit's microcode
    memory. Bundle labels are unique within the program and every branch
    target written as a label names one of them.

    `entry`, when present, names the label of the bundle the unit starts
    at. The unit always starts at address 0, so it must label the first
    bundle; it records the entry for readers and later stages.

    Example:

    ```mlir
    ucode.program @Copy attributes {entry = "loop"} {
      ucode.bundle "in.r r1, end=p15" label "loop"
      ucode.bundle "cp.out r1, data ? !p15 | brn p15, loop"
      ucode.bundle "nop"
      ucode.bundle "nop"
      ucode.bundle "halt"
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       OptionalAttr<StrAttr>:$entry);
  let regions = (region SizedRegion<1>:$bodyRegion);
  let assemblyFormat = "$sym_name attr-dict-with-keyword $bodyRegion";
  let hasRegionVerifier = 1;
  let skipDefaultBuilders = 1;
  // Creates the (empty) body block.
  let builders = [
    OpBuilder<(ins "::llvm::StringRef":$name)>
  ];
  let extraClassDeclaration = [{
    /// The bundles in address order.
    auto getBundles() { return getBody()->getOps<BundleOp>(); }
  }];
}

def UCode_BundleOp : UCode_Op<"bundle", [HasParent<"ProgramOp">]> {
  let summary = "one wide word of microcode";
  let description = [{
    One 178-bit wide word. The op holds the word's encoding (`bits`: bits
    0-63, 64-127 and 128-177, as the image stores them), so compiler stages
    hand words to each other as data, never as text to parse again. A
    branch to another bundle names it by `target` (its `label`) with 0 in
    the encoded target field; a branch to an absolute address (0..1023) is
    in the bits.

    The textual form shows the word as one line of match-unit assembly
    (`docs/match-unit-isa.md`, "Assembly") without a label or comment:
    `|`-separated slots, or `nop`, or `.word HI, MID, LO`; `.equ` constants
    are not available. Parsing it encodes the word.

    `label` names the bundle's address. It is an assembler identifier,
    `[A-Za-z_.][A-Za-z0-9_.]*`, unique in the program.

    Example:

    ```mlir
    ucode.bundle "in.t t1, end=p15 | cp.t t10, r12 | br p15, item" label "item"
    ucode.bundle "alu.add r3, r1, r0, lo=0x10"
    ```
  }];
  let arguments = (ins DenseI64ArrayAttr:$bits, OptionalAttr<StrAttr>:$target,
                       OptionalAttr<StrAttr>:$label);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  // `word` with its branch, if any, to the bundle labelled `target` (empty:
  // none); an empty label means none.
  let builders = [
    OpBuilder<(ins "const ::npcc::mu::Word &":$word,
                   "::llvm::StringRef":$target,
                   CArg<"::llvm::StringRef", "\"\"">:$label)>
  ];
  let extraClassDeclaration = [{
    /// The word, with target 0 for a branch to a label, whose name goes to
    /// `targetLabel` (empty for none or an absolute address). Fails (with a
    /// diagnostic on this op) if the bits are not a word.
    ::mlir::LogicalResult getWord(::npcc::mu::Word &word,
                                  std::string &targetLabel);
  }];
}

def UCode_MachineOp : UCode_Op<"machine", [
    Symbol, SingleBlock, NoTerminator, IsolatedFromAbove]> {
  let summary = "a scheduled match-unit program on virtual registers";
  let description = [{
    The form between instruction selection (`match-select-ucode`) and
    register allocation (`ucode-allocate-registers`): every slot operation
    of the program placed at a word of its block, reading and writing
    virtual registers. `files` gives the file of each virtual register
    (`0` ALU, `1` ternary, `2` compare predicates p8-p15, `3`
    predicate-unit predicates p1-p7); `fixed` its preassigned physical
    register or -1. Virtual registers 0, 1 and 2 are r0, t0 and p0.

    The blocks are laid out in order, `init`, `header` (at least 8 words),
    `item` (at least `item_words`), `general` (only with `general`), and the
    allocator adds the drain and flush loops of the list-manager protocol.

    ```mlir
    ucode.machine @Tag attributes {files = array<i32: 0, 1, 3, 0>,
                                   fixed = array<i32: 0, 0, 0, -1>,
                                   item_words = 0} {
      ucode.slot {block = "header", unit = "in", word = 0 : i64,
                  fields = {IN_OP = 1 : i32}, regs = {IN_RD = 3 : i32},
                  reads = array<i32>, writes = array<i32: 3>}
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, DenseI32ArrayAttr:$files,
                       DenseI32ArrayAttr:$fixed, I64Attr:$item_words,
                       UnitAttr:$general);
  let regions = (region SizedRegion<1>:$bodyRegion);
  let assemblyFormat = "$sym_name attr-dict-with-keyword $bodyRegion";
  let hasVerifier = 1;
}

def UCode_SlotOp : UCode_Op<"slot", [HasParent<"MachineOp">]> {
  let summary = "one slot operation at a word of a block";
  let description = [{
    The operation of one unit (`in`, `cp`, `alu`, `tern`, `pred`, `br`) in
    word `word` of block `block` (`init`, `header`, `item`, `general`).
    `fields` are the slot's own fields other than registers, named as in
    `runtime/isa/MatchUnit.def` (absent fields are 0; fields of other
    slots are ignored); `regs` the register
    fields and the virtual register each names. `reads` and `writes` are
    the virtual registers the operation reads and writes (the scheduler's
    and the allocator's view: a compare that accumulates reads the
    predicate it writes). `target` is a branch's label, `answer` marks a
    `cp.out` to the list manager, `pred_unit` which of the two logic units
    a `pred` operation uses.
  }];
  let arguments = (ins StrAttr:$block, StrAttr:$unit, I64Attr:$word,
                       DictionaryAttr:$fields, DictionaryAttr:$regs,
                       DenseI32ArrayAttr:$reads, DenseI32ArrayAttr:$writes,
                       OptionalAttr<StrAttr>:$target, UnitAttr:$answer,
                       UnitAttr:$accumulates,
                       DefaultValuedAttr<I64Attr, "0">:$pred_unit);
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

#endif // NPCC_DIALECTS_UCODE_IR_UCODEOPS_TD
