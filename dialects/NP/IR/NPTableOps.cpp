//===- NPTableOps.cpp - lookup tables in element state --------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dialects/NP/IR/NPOps.h"

using namespace mlir;
using namespace npcc::np;

uint64_t TableOp::slotWords(TableKind kind, uint32_t keyWords,
                            uint32_t valueWords) {
  return kind == TableKind::Lpm ? 1 : keyWords + valueWords;
}

// The same arithmetic as NPRT_LPM_BYTES and NPRT_HASH_BYTES; generated C
// checks the two agree with a static assertion.
uint64_t TableOp::regionWords(TableKind kind, uint32_t capacity,
                              uint32_t keyWords, uint32_t valueWords) {
  if (kind == TableKind::Lpm)
    return (16 + 2 * 24 * (uint64_t)capacity) / 8;
  uint64_t need = ((uint64_t)capacity * 4 + 2) / 3, slots = 1;
  while (slots < need)
    slots <<= 1;
  return 1 + slots * (1 + keyWords + valueWords);
}

LogicalResult TableOp::verify() {
  TableKind kind = getKind();
  TableOpKind op = getOp();
  uint32_t kw = getKeyWords(), vw = getValueWords(), cap = getCapacity();
  if (cap == 0 || cap > (1u << 20))
    return emitOpError("capacity must be 1..") << (1u << 20);
  if (kind == TableKind::Lpm && (kw != 1 || vw != 1))
    return emitOpError("an LPM table has 1-word keys and values");
  if (kind == TableKind::Hash && (kw < 1 || kw > 4 || vw > 8))
    return emitOpError("a hash table has 1..4 key words and 0..8 value "
                       "words");
  unsigned wantArgs = 0;
  if (kind == TableKind::Lpm)
    wantArgs = op == TableOpKind::Lookup                                ? 1
               : op == TableOpKind::Insert || op == TableOpKind::Remove ? 2
                                                                        : 0;
  if (getArgs().size() != wantArgs)
    return emitOpError("takes ")
           << wantArgs << " operands, not " << getArgs().size();
  uint64_t words = slotWords(kind, kw, vw) + regionWords(kind, cap, kw, vw);
  auto t = getTable().getType();
  if (t.getRank() != 1 || (uint64_t)t.getDimSize(0) != words)
    return emitOpError("table state must be memref<")
           << words << "xi64> for this kind and capacity";
  if (op == TableOpKind::Count ? !getResult().getType().isInteger(32)
                               : !getResult().getType().isInteger(1))
    return emitOpError("result must be ")
           << (op == TableOpKind::Count ? "i32" : "i1");
  return success();
}
