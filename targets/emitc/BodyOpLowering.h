//===- BodyOpLowering.h - one pattern for the np ops of a body --*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The one conversion pattern of the np ops inside element bodies: a
// function per op builds what replaces it. The shared lowering
// (NPPacketToEmitC.cpp) and a target's own lowering of an op (the HLS
// target's header fields, at a higher benefit) both use it.
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_TARGETS_EMITC_BODYOPLOWERING_H
#define NPCC_TARGETS_EMITC_BODYOPLOWERING_H

#include "targets/emitc/NPToEmitC.h"

namespace npcc::toemitc {

/// What replaces an np op: the values of its results, or none for an op
/// without results or whose results nobody uses; failure when the op is
/// not in a form the lowering takes (decided before anything is built).
using Replacement = mlir::FailureOr<llvm::SmallVector<mlir::Value, 2>>;

inline Replacement replaceWith(mlir::ValueRange values = {}) {
  return llvm::SmallVector<mlir::Value, 2>(values);
}

/// How an op of type `Op` lowers: built at the op, from its converted
/// operands.
template <typename Op>
using LowerFn = Replacement (*)(Op, typename Op::Adaptor,
                                const NPLoweringInfo &, mlir::OpBuilder &);

/// The pattern of an op whose replacement `Lower` builds; where `Lower`
/// fails, a pattern of lower benefit may still match.
template <typename Op, LowerFn<Op> Lower>
struct BodyOpLowering : NPPattern<Op> {
  using NPPattern<Op>::NPPattern;
  mlir::LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  mlir::ConversionPatternRewriter &rw) const override {
    Replacement values = Lower(op, adaptor, this->info, rw);
    if (mlir::failed(values))
      return rw.notifyMatchFailure(op, "not in the form its lowering takes");
    if (values->empty())
      rw.eraseOp(op);
    else
      rw.replaceOp(op, *values);
    return mlir::success();
  }
};

} // namespace npcc::toemitc

#endif // NPCC_TARGETS_EMITC_BODYOPLOWERING_H
