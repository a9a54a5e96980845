//===- ConvertToEmitC.cpp - func/arith/scf/memref to EmitC ----------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// One conversion with one type converter, following the MLIR 19 recipe:
// the upstream passes do not compose when chained.
//
//===----------------------------------------------------------------------===//

#include "targets/emitc/Passes.h"

#include "mlir/Conversion/ArithToEmitC/ArithToEmitC.h"
#include "mlir/Conversion/MemRefToEmitC/MemRefToEmitC.h"
#include "mlir/Conversion/SCFToEmitC/SCFToEmitC.h"
#include "mlir/Dialect/EmitC/Transforms/TypeConversions.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/DialectConversion.h"

namespace npcc::toemitc {
#define GEN_PASS_DEF_CONVERTTOEMITC
#include "targets/emitc/Passes.h.inc"
} // namespace npcc::toemitc

using namespace mlir;

namespace {

struct FuncLowering : OpConversionPattern<func::FuncOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(func::FuncOp op, OpAdaptor,
                                ConversionPatternRewriter &rw) const override {
    FunctionType ft = op.getFunctionType();
    if (ft.getNumResults() > 1)
      return rw.notifyMatchFailure(op, "more than one result");
    TypeConverter::SignatureConversion sig(ft.getNumInputs());
    SmallVector<Type> results;
    if (failed(getTypeConverter()->convertSignatureArgs(ft.getInputs(), sig)) ||
        failed(getTypeConverter()->convertTypes(ft.getResults(), results)))
      return rw.notifyMatchFailure(op, "unconvertible signature");
    auto fn = rw.create<emitc::FuncOp>(
        op.getLoc(), op.getName(),
        rw.getFunctionType(sig.getConvertedTypes(), results));
    if (op.isPrivate())
      fn.setSpecifiersAttr(rw.getStrArrayAttr({"static"}));
    rw.inlineRegionBefore(op.getBody(), fn.getBody(), fn.end());
    if (failed(rw.convertRegionTypes(&fn.getBody(), *getTypeConverter(), &sig)))
      return failure();
    rw.eraseOp(op);
    return success();
  }
};

struct ReturnLowering : OpConversionPattern<func::ReturnOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(func::ReturnOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rw) const override {
    rw.replaceOpWithNewOp<emitc::ReturnOp>(
        op, adaptor.getOperands().empty() ? Value() : adaptor.getOperands()[0]);
    return success();
  }
};

/// Unsigned division and remainder, which ArithToEmitC 19 lacks: both
/// operands are cast to the unsigned C type.
template <typename ArithOp, typename EmitCOp>
struct UnsignedLowering : OpConversionPattern<ArithOp> {
  using OpConversionPattern<ArithOp>::OpConversionPattern;
  LogicalResult matchAndRewrite(ArithOp op, typename ArithOp::Adaptor adaptor,
                                ConversionPatternRewriter &rw) const override {
    Type t = this->getTypeConverter()->convertType(op.getType());
    Type u = emitc::getUnsignedTypeFor(t).value_or(Type());
    if (!u)
      return rw.notifyMatchFailure(op, "no unsigned type");
    Location loc = op.getLoc();
    Value a = rw.create<emitc::CastOp>(loc, u, adaptor.getLhs());
    Value b = rw.create<emitc::CastOp>(loc, u, adaptor.getRhs());
    Value r = rw.create<EmitCOp>(loc, u, a, b);
    rw.replaceOpWithNewOp<emitc::CastOp>(op, t, r);
    return success();
  }
};

/// min/max as a compare and a conditional.
template <typename ArithOp, emitc::CmpPredicate Pred, bool Unsigned>
struct MinMaxLowering : OpConversionPattern<ArithOp> {
  using OpConversionPattern<ArithOp>::OpConversionPattern;
  LogicalResult matchAndRewrite(ArithOp op, typename ArithOp::Adaptor adaptor,
                                ConversionPatternRewriter &rw) const override {
    Location loc = op.getLoc();
    Type t = this->getTypeConverter()->convertType(op.getType());
    Value a = adaptor.getLhs(), b = adaptor.getRhs();
    Value ca = a, cb = b;
    if (Unsigned) {
      Type u = emitc::getUnsignedTypeFor(t).value_or(Type());
      ca = rw.create<emitc::CastOp>(loc, u, a);
      cb = rw.create<emitc::CastOp>(loc, u, b);
    }
    Value pick = rw.create<emitc::CmpOp>(loc, rw.getI1Type(), Pred, ca, cb);
    rw.replaceOpWithNewOp<emitc::ConditionalOp>(op, t, pick, a, b);
    return success();
  }
};

Value castMaterialization(OpBuilder &b, Type to, ValueRange in, Location loc) {
  if (in.size() != 1 || !emitc::CastOp::areCastCompatible(in[0].getType(), to))
    return {};
  return b.create<emitc::CastOp>(loc, to, in[0]);
}

struct ConvertToEmitCPass
    : npcc::toemitc::impl::ConvertToEmitCBase<ConvertToEmitCPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    TypeConverter tc;
    tc.addConversion([](Type t) { return t; });
    populateEmitCSizeTTypeConversions(tc);
    populateMemRefToEmitCTypeConversion(tc);
    tc.addSourceMaterialization(castMaterialization);
    tc.addTargetMaterialization(castMaterialization);
    tc.addArgumentMaterialization(castMaterialization);

    RewritePatternSet patterns(ctx);
    populateArithToEmitCPatterns(tc, patterns);
    populateMemRefToEmitCConversionPatterns(patterns, tc);
    populateSCFToEmitCConversionPatterns(patterns);
    patterns
        .add<FuncLowering, ReturnLowering,
             UnsignedLowering<arith::DivUIOp, emitc::DivOp>,
             UnsignedLowering<arith::RemUIOp, emitc::RemOp>,
             MinMaxLowering<arith::MinUIOp, emitc::CmpPredicate::lt, true>,
             MinMaxLowering<arith::MaxUIOp, emitc::CmpPredicate::gt, true>,
             MinMaxLowering<arith::MinSIOp, emitc::CmpPredicate::lt, false>,
             MinMaxLowering<arith::MaxSIOp, emitc::CmpPredicate::gt, false>>(
            tc, ctx);

    ConversionTarget target(*ctx);
    target.addLegalDialect<emitc::EmitCDialect>();
    target.addLegalOp<ModuleOp>();
    target.addIllegalDialect<arith::ArithDialect, func::FuncDialect,
                             memref::MemRefDialect, scf::SCFDialect>();
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();

    // The conversions of np IR (c- and hls-convert-np-to-emitc) hand state
    // arrays over as memrefs; the memref lowering reads the array behind
    // them and leaves the cast dead, or casts back to the same array type.
    IRRewriter rw(ctx);
    module.walk([&](UnrealizedConversionCastOp c) {
      if (c->use_empty()) {
        rw.eraseOp(c);
        return;
      }
      auto in =
          c.getNumOperands() == 1
              ? c.getOperand(0).getDefiningOp<UnrealizedConversionCastOp>()
              : UnrealizedConversionCastOp();
      if (!in || in.getNumOperands() != 1 || c.getNumResults() != 1 ||
          in.getOperand(0).getType() != c.getResult(0).getType())
        return;
      c.getResult(0).replaceAllUsesWith(in.getOperand(0));
      rw.eraseOp(c);
      if (in->use_empty())
        rw.eraseOp(in);
    });
    // MLIR 19 leaves one-to-one unrealized casts (index <-> size_t) that
    // the printer cannot print; they are plain C casts.
    module.walk([&](UnrealizedConversionCastOp c) {
      if (c.getNumOperands() == 1 && c.getNumResults() == 1 &&
          emitc::CastOp::areCastCompatible(c.getOperand(0).getType(),
                                           c.getResult(0).getType())) {
        rw.setInsertionPoint(c);
        rw.replaceOpWithNewOp<emitc::CastOp>(c, c.getResult(0).getType(),
                                             c.getOperand(0));
      }
    });
    // C has no negative literals: `-9223372036854775808` negates a constant
    // too large for int64_t (a warning, an error under -Werror).
    module.walk([&](emitc::ConstantOp c) {
      auto v = dyn_cast<IntegerAttr>(c.getValue());
      if (!v || v.getType().getIntOrFloatBitWidth() != 64 ||
          !v.getValue().isMinSignedValue())
        return;
      c.setValueAttr(emitc::OpaqueAttr::get(ctx, "(-9223372036854775807 - 1)"));
    });
    // A state object whose every access folded away would be an unused C
    // variable; member access and nprt_state have no side effects.
    module.walk([&](emitc::MemberOfPtrOp m) {
      if (m->use_empty())
        rw.eraseOp(m);
    });
    module.walk([&](emitc::CastOp c) {
      if (!c->hasAttr("npcc.state_object") || !c->use_empty())
        return;
      Operation *raw = c.getSource().getDefiningOp();
      rw.eraseOp(c);
      if (raw && raw->use_empty())
        rw.eraseOp(raw);
    });
    // A runtime call whose value is unused (a received value that is
    // dropped on the floor) would print as an unused C variable.
    module.walk([&](emitc::CallOpaqueOp call) {
      if (call.getNumResults() == 0 || !call->use_empty())
        return;
      rw.setInsertionPoint(call);
      rw.create<emitc::CallOpaqueOp>(
          call.getLoc(), TypeRange(), call.getCalleeAttr(), call.getOperands(),
          call.getArgsAttr(), call.getTemplateArgsAttr());
      rw.eraseOp(call);
    });
  }
};

} // namespace
