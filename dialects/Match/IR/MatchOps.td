//===- MatchOps.td - match dialect ---------------------------*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef NPCC_DIALECTS_MATCH_IR_MATCHOPS_TD
#define NPCC_DIALECTS_MATCH_IR_MATCHOPS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Match_Dialect : Dialect {
  let name = "match";
  let cppNamespace = "::npcc::match";
  let summary = "Match functions over a message header and a list item";
  let description = [{
    A `match.program` is the body of an NPL `match` declaration after
    if-conversion: a straight-line dataflow over the words of one message
    header and one posted-receive list item, with `match.fail_if` for every
    way an item can fail and one `match.accept` giving the offset and
    length of a match. Arithmetic is upstream `arith`. The match-unit
    back end selects, schedules and allocates it into `ucode` bundles.
    See `dialects/Match/Rationale.md`.
  }];
}

class Match_Op<string mnemonic, list<Trait> traits = []>
    : Op<Match_Dialect, mnemonic, traits>;

def Match_ProgramOp : Match_Op<"program", [
    Symbol, IsolatedFromAbove, SingleBlock]> {
  let summary = "a match function";
  let description = [{
    The body runs once per (header, list item) pair. `header_words` and
    `item_words` give how many 64-bit words the list manager streams for
    each.

    ```mlir
    match.program @Tag attributes {header_words = 8, item_words = 8} {
      %h = match.header_word 0 : i64
      %i = match.item_word 0 : i64
      %ne = arith.cmpi ne, %h, %i : i64
      match.fail_if %ne
      %c0 = arith.constant 0 : i64
      match.accept %c0, %c0
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       DefaultValuedAttr<I64Attr, "8">:$header_words,
                       DefaultValuedAttr<I64Attr, "8">:$item_words);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$sym_name attr-dict-with-keyword $body";
  let hasVerifier = 1;
}

class Match_WordOp<string mnemonic> : Match_Op<mnemonic, [Pure]> {
  let arguments = (ins I64Attr:$index);
  let results = (outs I64:$result);
  let assemblyFormat = "$index attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Match_HeaderWordOp : Match_WordOp<"header_word"> {
  let summary = "a 64-bit word of the message header";
  let description = [{
    Word `index` of the header, as the list manager streams it.

    ```mlir
    %w = match.header_word 1 : i64
    ```
  }];
}

def Match_ItemWordOp : Match_WordOp<"item_word"> {
  let summary = "a 64-bit word of the posted-receive list item";
  let description = [{
    Word `index` of the list item being matched.

    ```mlir
    %w = match.item_word 2 : i64
    ```
  }];
}

def Match_FieldOp : Match_Op<"field", [Pure]> {
  let summary = "a bit field of a 64-bit word";
  let description = [{
    Bits `lsb` .. `lsb + width - 1` of `word`, zero-extended to the result
    width (which must equal `width`). Fields aligned to the 16-bit lanes of
    the match unit's SIMD units compare without any shifting.

    ```mlir
    %nid = match.field %w {lsb = 0 : i64, width = 32 : i64} : i32
    ```
  }];
  let arguments = (ins I64:$word, I64Attr:$lsb, I64Attr:$width);
  let results = (outs AnySignlessInteger:$result);
  let assemblyFormat = "$word attr-dict `:` type($result)";
  let hasVerifier = 1;
}

// Bit counts and the byte swap: `arith` has none of them, and the match
// unit has no instruction for the counts, so the back end expands each into
// a sequence of its own (docs/match-unit-compiler.md gives the cost).
class Match_BitOp<string mnemonic> : Match_Op<mnemonic, [
    Pure, AllTypesMatch<["input", "result"]>]> {
  let arguments = (ins AnySignlessInteger:$input);
  let results = (outs AnySignlessInteger:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Match_PopcountOp : Match_BitOp<"popcount"> {
  let summary = "the number of bits set";
  let description = [{
    NPL's `popcount(x)`, of the result's width (the front end converts it
    to `u32`).

    ```mlir
    %n = match.popcount %x : i16
    ```
  }];
}

def Match_ClzOp : Match_BitOp<"clz"> {
  let summary = "the number of leading zero bits";
  let description = [{
    NPL's `clz(x)`: the zero bits above the highest set bit, the width for
    0.

    ```mlir
    %n = match.clz %x : i64
    ```
  }];
}

def Match_CtzOp : Match_BitOp<"ctz"> {
  let summary = "the number of trailing zero bits";
  let description = [{
    NPL's `ctz(x)`: the zero bits below the lowest set bit, the width for 0.

    ```mlir
    %n = match.ctz %x : i32
    ```
  }];
}

def Match_BswapOp : Match_BitOp<"bswap"> {
  let summary = "the bytes in reverse order";
  let description = [{
    NPL's `bswap(x)`; the width is a multiple of 8. The match unit's byte
    permute (`alu.perm`) computes it.

    ```mlir
    %r = match.bswap %x : i32
    ```
  }];
}

def Match_FailIfOp : Match_Op<"fail_if"> {
  let summary = "the item does not match when the condition holds";
  let description = [{
    The list item fails to match if `cond` is true. The order of the
    `fail_if` operations is the source order of the checks, which the back
    end uses to test the most common failure first.

    ```mlir
    match.fail_if %ne
    ```
  }];
  let arguments = (ins I1:$cond);
  let assemblyFormat = "$cond attr-dict";
}

def Match_AcceptOp : Match_Op<"accept", [
    Terminator, ParentOneOf<["ProgramOp", "SpeculateOp"]>]> {
  let summary = "the item matches: offset and length of the match";
  let description = [{
    Reached when no `fail_if` held. `offset` and `length` are answered to
    the list manager (as 64-bit values).

    ```mlir
    match.accept %off, %len
    ```
  }];
  let arguments = (ins I64:$offset, I64:$length);
  let assemblyFormat = "$offset `,` $length attr-dict";
}

def Match_SpeculateOp : Match_Op<"speculate", [
    Terminator, HasParent<"ProgramOp">]> {
  let summary = "the rest of the match function, under an assumption";
  let description = [{
    Ends a program whose last checks and answers depend on option flags of
    the item (`match-speculate-option-flags`). The `match.fail_if`
    operations before it apply to every item. Then, when `assumption`
    holds, the checks and the answer of the `assumed` region decide the
    item; otherwise those of the `otherwise` region do. Each region is one
    block of pure operations and `match.fail_if`, ended by `match.accept`,
    and may use every value defined before the `match.speculate`.

    The two regions compute the same decision for every item for which the
    assumption holds: `assumed` is `otherwise` with the flag tests that the
    assumption decides replaced by their values and folded. The back end
    selects `assumed` for the item loop and `otherwise` for the general
    path that items with a flag set branch to.

    ```mlir
    %m = arith.constant 6 : i8
    %f = arith.andi %flags, %m : i8
    %simple = arith.cmpi eq, %f, %c0 : i8
    match.speculate %simple {
      match.accept %off, %len
    } otherwise {
      %o = arith.select %remote, %roff, %off : i64
      match.accept %o, %len
    }
    ```
  }];
  let arguments = (ins I1:$assumption);
  let regions = (region SizedRegion<1>:$assumed, SizedRegion<1>:$otherwise);
  let assemblyFormat = [{
    $assumption $assumed `otherwise` $otherwise attr-dict
  }];
  let hasVerifier = 1;
}

#endif // NPCC_DIALECTS_MATCH_IR_MATCHOPS_TD
