//===- MatchOps.cpp - match dialect ---------------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dialects/Match/IR/MatchOps.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace npcc::match;

#include "dialects/Match/IR/MatchOpsDialect.cpp.inc"

void MatchDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dialects/Match/IR/MatchOps.cpp.inc"
      >();
}

LogicalResult ProgramOp::verify() {
  if (getHeaderWords() < 1 || getHeaderWords() > 64 || getItemWords() < 1 ||
      getItemWords() > 64)
    return emitOpError("header and item sizes must be 1..64 words");
  return success();
}

static LogicalResult verifyWord(Operation *op, int64_t index, bool header) {
  auto program = op->getParentOfType<ProgramOp>();
  if (!program)
    return op->emitOpError("must be inside a 'match.program'");
  int64_t words = header ? program.getHeaderWords() : program.getItemWords();
  if (index < 0 || index >= words)
    return op->emitOpError("word ")
           << index << " is outside the " << (header ? "header" : "item")
           << " (" << words << " words)";
  return success();
}

LogicalResult HeaderWordOp::verify() {
  return verifyWord(*this, getIndex(), /*header=*/true);
}

LogicalResult ItemWordOp::verify() {
  return verifyWord(*this, getIndex(), /*header=*/false);
}

LogicalResult FieldOp::verify() {
  int64_t lsb = getLsb(), width = getWidth();
  if (lsb < 0 || width < 1 || lsb + width > 64)
    return emitOpError("field [")
           << lsb << ", " << lsb + width << ") does not fit in a 64-bit word";
  if (getType().getIntOrFloatBitWidth() != width)
    return emitOpError("result type must be i") << width;
  return success();
}

static LogicalResult verifyBitOp(Operation *op, bool bytes) {
  unsigned width = op->getResult(0).getType().getIntOrFloatBitWidth();
  if (width > 64)
    return op->emitOpError("operand must be at most 64 bits wide");
  if (bytes && width % 8)
    return op->emitOpError("operand must be whole bytes, not i") << width;
  return success();
}

LogicalResult PopcountOp::verify() { return verifyBitOp(*this, false); }
LogicalResult ClzOp::verify() { return verifyBitOp(*this, false); }
LogicalResult CtzOp::verify() { return verifyBitOp(*this, false); }
LogicalResult BswapOp::verify() { return verifyBitOp(*this, true); }

LogicalResult SpeculateOp::verify() {
  for (Region *region : {&getAssumed(), &getOtherwise()}) {
    Block &block = region->front();
    if (block.empty() || !isa<AcceptOp>(block.back()))
      return emitOpError("each region must end with 'match.accept'");
    if (block.getNumArguments() != 0)
      return emitOpError("regions take no arguments");
  }
  return success();
}

#define GET_OP_CLASSES
#include "dialects/Match/IR/MatchOps.cpp.inc"
