//===- NPTableOps.td - lookup tables in element state ------*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// A table is an i64 memref in state: `slot` words through which keys and
// values pass (the caller stores them before and loads them after an op),
// then the opaque region of libnprt's table (runtime/include/nprt/tables.h).
// Every op reads and writes the whole memref, so loads and stores of the
// slot stay ordered around it.
//
//===----------------------------------------------------------------------===//

#ifndef NPCC_DIALECTS_NP_IR_NPTABLEOPS_TD
#define NPCC_DIALECTS_NP_IR_NPTABLEOPS_TD

def NP_TableKind : I32EnumAttr<"TableKind", "kind of a lookup table", [
    I32EnumAttrCase<"Lpm", 0, "lpm">,
    I32EnumAttrCase<"Hash", 1, "hash">]> {
  let cppNamespace = "::npcc::np";
}

def NP_TableOpKind : I32EnumAttr<"TableOpKind", "operation on a table", [
    I32EnumAttrCase<"Insert", 0, "insert">,
    I32EnumAttrCase<"Remove", 1, "remove">,
    I32EnumAttrCase<"Lookup", 2, "lookup">,
    I32EnumAttrCase<"Count", 3, "count">,
    I32EnumAttrCase<"Clear", 4, "clear">]> {
  let cppNamespace = "::npcc::np";
}

def NP_TableOp : NP_Op<"table"> {
  let summary = "an operation on a longest-prefix-match or hash table";
  let description = [{
    Runs `op` on the table in `table`, a state memref of i64 words laid out
    as `slot` words then the region of a libnprt table of `kind` with room
    for `capacity` entries (`key_words` and `value_words` words per entry
    for a hash table; an LPM table has a 1-word value). `result` is the
    operation's answer: for insert, remove and lookup whether it succeeded
    (1 or 0), for count the number of entries, for clear 0.

    LPM: `args` are the address and, for insert and remove, the prefix
    length (i32 each); the value is slot word 0, read by insert and written
    by a lookup that finds a prefix. Hash: no `args`; the key is slot words
    0..key_words-1, the value the next value_words words, read by insert
    and written by a successful lookup.

    Example:

    ```mlir
    %ok = np.table lookup lpm %t(%addr) {capacity = 16 : i32, key_words = 1 : i32, value_words = 1 : i32} : memref<99xi64> -> i1
    ```
  }];
  let arguments = (ins
      Arg<MemRefOf<[I64]>, "the table's state", [MemRead, MemWrite]>:$table,
      Variadic<I32>:$args, NP_TableOpKind:$op, NP_TableKind:$kind,
      I32Attr:$capacity, I32Attr:$key_words, I32Attr:$value_words);
  let results = (outs AnySignlessInteger:$result);
  let assemblyFormat = [{
    $op $kind $table `(` $args `)` attr-dict `:` type($table) `->` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Words before the table region: keys and values pass through them.
    static uint64_t slotWords(TableKind kind, uint32_t keyWords,
                              uint32_t valueWords);
    /// Words of the libnprt region (NPRT_LPM_BYTES / NPRT_HASH_BYTES / 8).
    static uint64_t regionWords(TableKind kind, uint32_t capacity,
                                uint32_t keyWords, uint32_t valueWords);
  }];
}

#endif // NPCC_DIALECTS_NP_IR_NPTABLEOPS_TD
