//===- ProgramLowering.cpp - the np.program as a target's text -----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "targets/emitc/ProgramLowering.h"

#include "mlir/Dialect/EmitC/IR/EmitC.h"

using namespace mlir;
using namespace npcc;
using namespace npcc::toemitc;

LogicalResult
ProgramLowering::matchAndRewrite(np::ProgramOp program, OpAdaptor,
                                 ConversionPatternRewriter &rw) const {
  Location loc = program.getLoc();
  auto module = program->getParentOfType<ModuleOp>();
  rw.setInsertionPointToStart(module.getBody());
  rw.create<emitc::IncludeOp>(loc, runtimeHeader,
                              /*is_standard_include=*/false);
  std::string text;
  llvm::raw_string_ostream os(text);
  printProgram(program, os);
  rw.setInsertionPoint(module.getBody(), module.getBody()->end());
  rw.create<emitc::VerbatimOp>(loc, rw.getStringAttr(text));
  rw.eraseOp(program);
  return success();
}
