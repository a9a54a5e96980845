//===- ProgramLowering.h - the np.program as a target's text ----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// What the C and HLS targets' lowerings of the np.program share: the
// target's runtime header included first in the module, the text the target
// writes (tables and main(), or processes and a top function) last.
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_TARGETS_EMITC_PROGRAMLOWERING_H
#define NPCC_TARGETS_EMITC_PROGRAMLOWERING_H

#include "targets/emitc/NPToEmitC.h"

#include "dialects/NP/IR/NPOps.h"

#include "llvm/Support/raw_ostream.h"

namespace npcc::toemitc {

/// Replaces the np.program with `#include "<runtimeHeader>"` at the top of
/// the module and what printProgram writes, verbatim, at its end. A target
/// derives its program lowering from this and writes only the text.
struct ProgramLowering : NPPattern<np::ProgramOp> {
  ProgramLowering(mlir::TypeConverter &tc, mlir::MLIRContext *ctx,
                  const NPLoweringInfo &info, llvm::StringRef runtimeHeader)
      : NPPattern(tc, ctx, info), runtimeHeader(runtimeHeader.str()) {}

  mlir::LogicalResult
  matchAndRewrite(np::ProgramOp program, OpAdaptor,
                  mlir::ConversionPatternRewriter &rw) const final;

  /// Writes what the program becomes in the target's source.
  virtual void printProgram(np::ProgramOp program,
                            llvm::raw_ostream &os) const = 0;

private:
  std::string runtimeHeader;
};

} // namespace npcc::toemitc

#endif // NPCC_TARGETS_EMITC_PROGRAMLOWERING_H
