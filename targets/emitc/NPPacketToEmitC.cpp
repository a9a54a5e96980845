//===- NPPacketToEmitC.cpp - port and packet ops as libnprt calls ---------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// One conversion pattern per operation. Operands come from the adaptor, so
// a pattern never looks at a value after its producer was retyped; the
// runtime entry points and their arities come from nprt/abi.def.
//
//===----------------------------------------------------------------------===//

#include "targets/emitc/NPToEmitC.h"
#include "targets/emitc/RuntimeABI.h"

#include "dialects/NP/IR/NPOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/EmitC/IR/EmitC.h"

#include <type_traits>

using namespace mlir;
using namespace npcc;
using namespace npcc::toemitc;
using abi::Fn;

Value npcc::toemitc::enclosingInstance(Operation *op) {
  auto fn = op->getParentOfType<emitc::FuncOp>();
  assert(fn && "np op outside a converted element body");
  return fn.getArgument(0);
}

namespace {

Value widen(OpBuilder &b, Location loc, Value v) {
  if (v.getType().getIntOrFloatBitWidth() == 64)
    return v;
  return b.create<arith::ExtUIOp>(loc, b.getI64Type(), v);
}

Value narrow(OpBuilder &b, Location loc, Value v, Type to) {
  if (to.getIntOrFloatBitWidth() == 64)
    return v;
  return b.create<arith::TruncIOp>(loc, to, v);
}

struct RecvLowering : NPPattern<np::RecvOp> {
  using NPPattern::NPPattern;
  LogicalResult matchAndRewrite(np::RecvOp op, OpAdaptor,
                                ConversionPatternRewriter &rw) const override {
    Location loc = op.getLoc();
    Value self = enclosingInstance(op);
    if (isa<np::PacketType>(op.getType())) {
      rw.replaceOp(op, abi::call(rw, loc, Fn::nprt_recv_pkt,
                                 {self, (uint64_t)port(op)}));
      return success();
    }
    Value v = abi::call(rw, loc, Fn::nprt_recv_val, {self, (uint64_t)port(op)});
    rw.replaceOp(op, narrow(rw, loc, v, op.getType()));
    return success();
  }
};

struct TryRecvLowering : NPPattern<np::TryRecvOp> {
  using NPPattern::NPPattern;
  LogicalResult matchAndRewrite(np::TryRecvOp op, OpAdaptor,
                                ConversionPatternRewriter &rw) const override {
    Location loc = op.getLoc();
    Value self = enclosingInstance(op);
    uint64_t p = port(op);
    Value ok = abi::call(rw, loc, Fn::nprt_poll, {self, p});
    Type t = op.getValue().getType();
    Value v =
        isa<np::PacketType>(t)
            ? abi::call(rw, loc, Fn::nprt_try_recv_pkt, {self, p})
            : narrow(rw, loc,
                     abi::call(rw, loc, Fn::nprt_try_recv_val, {self, p}), t);
    rw.replaceOp(op, {ok, v});
    return success();
  }
};

/// The value `op` sends (converted: `v`) as the runtime carries it: a
/// packet handle, or an integer in 64 bits.
template <typename SendLike> Value carried(OpBuilder &b, SendLike op, Value v) {
  if (isa<np::PacketType>(op.getValue().getType()))
    return v;
  return widen(b, op.getLoc(), v);
}

struct SendLowering : NPPattern<np::SendOp> {
  using NPPattern::NPPattern;
  LogicalResult matchAndRewrite(np::SendOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rw) const override {
    bool pkt = isa<np::PacketType>(op.getValue().getType());
    abi::call(rw, op.getLoc(), pkt ? Fn::nprt_send_pkt : Fn::nprt_send_val,
              {enclosingInstance(op), (uint64_t)port(op),
               carried(rw, op, adaptor.getValue())});
    rw.eraseOp(op);
    return success();
  }
};

/// `to = nprt_fused_enter_*(self, port, v); if (to != NULL) {
/// <push>(to, v); nprt_fused_leave(self); }`: the runtime counts the value
/// as sent and received and says whether the call is to be made now; if
/// not, it has sent the value through the channel. The push function is a
/// static function of the same file, which the C compiler can inline.
struct FusedSendLowering : NPPattern<np::FusedSendOp> {
  using NPPattern::NPPattern;
  LogicalResult matchAndRewrite(np::FusedSendOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rw) const override {
    Location loc = op.getLoc();
    Value self = enclosingInstance(op);
    bool pkt = isa<np::PacketType>(op.getValue().getType());
    // The push function takes integers in 64 bits too (ElementLowering).
    Value v = carried(rw, op, adaptor.getValue());
    Value to = abi::call(
        rw, loc, pkt ? Fn::nprt_fused_enter_pkt : Fn::nprt_fused_enter_val,
        {self, (uint64_t)port(op), v});
    Value null = rw.create<emitc::LiteralOp>(
        loc, abi::instanceType(getContext()), "NULL");
    Value call = rw.create<emitc::CmpOp>(loc, rw.getI1Type(),
                                         emitc::CmpPredicate::ne, to, null);
    auto ifOp = rw.create<emitc::IfOp>(loc, call, /*addThenBlock=*/true,
                                       /*addElseBlock=*/false);
    OpBuilder::InsertionGuard g(rw);
    rw.setInsertionPointToStart(&ifOp.getThenRegion().front());
    rw.create<emitc::CallOp>(
        loc, SymbolRefAttr::get(getContext(), info.fusedCallee.at(op)),
        TypeRange(), ValueRange{to, v});
    abi::call(rw, loc, Fn::nprt_fused_leave, {self});
    rw.create<emitc::YieldOp>(loc);
    rw.eraseOp(op);
    return success();
  }
};

struct SelectLowering : NPPattern<np::SelectOp> {
  using NPPattern::NPPattern;
  LogicalResult matchAndRewrite(np::SelectOp op, OpAdaptor,
                                ConversionPatternRewriter &rw) const override {
    Location loc = op.getLoc();
    const auto &indices = info.ports.lookup(op);
    uint64_t mask = 0;
    for (unsigned p : indices)
      mask |= 1ull << p;
    Value r =
        abi::call(rw, loc, Fn::nprt_select, {enclosingInstance(op), mask});
    // The runtime answers with a port index; np.select with a position.
    Value pos = rw.create<arith::ConstantIntOp>(loc, 0, 32);
    for (unsigned k = 1; k < indices.size(); ++k) {
      Value is = rw.create<arith::CmpIOp>(
          loc, arith::CmpIPredicate::eq, r,
          rw.create<arith::ConstantIntOp>(loc, indices[k], 32));
      pos = rw.create<arith::SelectOp>(
          loc, is, rw.create<arith::ConstantIntOp>(loc, k, 32), pos);
    }
    rw.replaceOp(op, pos);
    return success();
  }
};

/// The arguments of the runtime call an op of type `Op` becomes, from the
/// op and its converted operands; `b` builds any conversion they need.
template <typename Op>
using CallArgs = SmallVector<abi::Arg> (*)(Op, typename Op::Adaptor,
                                           OpBuilder &b);

/// An op that becomes one runtime call `F` with the arguments `Args` gives.
/// The call's result, if the op has one, replaces it, truncated to the
/// op's integer type when `Narrow` (the runtime returns integers in 64
/// bits).
template <typename Op, Fn F, CallArgs<Op> Args, bool Narrow = false>
struct RuntimeCallLowering : NPPattern<Op> {
  using NPPattern<Op>::NPPattern;
  LogicalResult matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                                ConversionPatternRewriter &rw) const override {
    Location loc = op.getLoc();
    Value r = abi::call(rw, loc, F, Args(op, adaptor, rw));
    if (!op->getNumResults())
      rw.eraseOp(op);
    else if (Narrow)
      rw.replaceOp(op, narrow(rw, loc, r, op->getResult(0).getType()));
    else
      rw.replaceOp(op, r);
    return success();
  }
};

/// `self` (if the function takes it) and the op's operands in order.
template <typename Op, bool TakesSelf>
SmallVector<abi::Arg> operandArgs(Op op, typename Op::Adaptor adaptor,
                                  OpBuilder &) {
  SmallVector<abi::Arg> args;
  if (TakesSelf)
    args.push_back(enclosingInstance(op));
  for (Value v : adaptor.getOperands())
    args.push_back(v);
  return args;
}

/// An op whose operands are the call's arguments.
template <typename Op, Fn F, bool TakesSelf>
using CallLowering = RuntimeCallLowering<Op, F, operandArgs<Op, TakesSelf>>;

SmallVector<abi::Arg> pktGetArgs(np::PktGetOp op, np::PktGetOp::Adaptor a,
                                 OpBuilder &) {
  return {a.getPkt(), a.getOffset(), (uint64_t)op.getBit(),
          (uint64_t)op.getWidth()};
}

SmallVector<abi::Arg> pktSetArgs(np::PktSetOp op, np::PktSetOp::Adaptor a,
                                 OpBuilder &b) {
  return {a.getPkt(), a.getOffset(), (uint64_t)op.getBit(),
          (uint64_t)op.getWidth(), widen(b, op.getLoc(), a.getValue())};
}

/// np.meta_get / np.meta_set: the field as abi.def's enumerator, then the
/// runtime accessor.
template <typename Op, Fn F> struct MetaLowering : NPPattern<Op> {
  using NPPattern<Op>::NPPattern;
  LogicalResult matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                                ConversionPatternRewriter &rw) const override {
    auto field = abi::metaEnumerator(op.getField());
    if (!field)
      return rw.notifyMatchFailure(op, "metadata field not in nprt/abi.def");
    Location loc = op.getLoc();
    if constexpr (std::is_same_v<Op, np::MetaGetOp>) {
      Value v = abi::call(rw, loc, F, {adaptor.getPkt(), *field});
      rw.replaceOp(op, narrow(rw, loc, v, op.getType()));
    } else {
      abi::call(rw, loc, F,
                {adaptor.getPkt(), *field, widen(rw, loc, adaptor.getValue())});
      rw.eraseOp(op);
    }
    return success();
  }
};

SmallVector<abi::Arg> pktCrcArgs(np::PktCrcOp op, np::PktCrcOp::Adaptor a,
                                 OpBuilder &) {
  return {a.getPkt(), a.getOffset(), a.getLen(), (uint64_t)op.getCastagnoli()};
}

SmallVector<abi::Arg> crcArgs(np::CrcOp op, np::CrcOp::Adaptor a,
                              OpBuilder &b) {
  unsigned bytes = op.getValue().getType().getIntOrFloatBitWidth() / 8;
  return {widen(b, op.getLoc(), a.getValue()), (uint64_t)bytes,
          (uint64_t)op.getCastagnoli()};
}

/// Only the running instance.
template <typename Op>
SmallVector<abi::Arg> selfArg(Op op, typename Op::Adaptor, OpBuilder &) {
  return {enclosingInstance(op)};
}

SmallVector<abi::Arg> printPktArgs(np::PrintPktOp op, np::PrintPktOp::Adaptor a,
                                   OpBuilder &) {
  return {enclosingInstance(op), a.getPkt(), StringRef(cString(op.getLabel())),
          a.getMax()};
}

SmallVector<abi::Arg> printArgs(np::PrintOp op, np::PrintOp::Adaptor a,
                                OpBuilder &b) {
  Location loc = op.getLoc();
  Value v = a.getValue();
  unsigned w = v.getType().getIntOrFloatBitWidth();
  // Sign-extended to 64 bits when signed, so that C prints it as such.
  if (w < 64)
    v = op.getIsSigned()
            ? (Value)b.create<arith::ExtSIOp>(loc, b.getI64Type(), v)
            : (Value)b.create<arith::ExtUIOp>(loc, b.getI64Type(), v);
  return {enclosingInstance(op), StringRef(cString(op.getLabel())), v,
          (uint64_t)op.getIsSigned()};
}

SmallVector<abi::Arg> annoGetArgs(np::AnnoGetOp op, np::AnnoGetOp::Adaptor a,
                                  OpBuilder &) {
  return {a.getPkt(), (uint64_t)op.getSlot()};
}

SmallVector<abi::Arg> annoSetArgs(np::AnnoSetOp op, np::AnnoSetOp::Adaptor a,
                                  OpBuilder &b) {
  return {a.getPkt(), (uint64_t)op.getSlot(),
          widen(b, op.getLoc(), a.getValue())};
}

SmallVector<abi::Arg> handlerArgArgs(np::HandlerArgOp op,
                                     np::HandlerArgOp::Adaptor, OpBuilder &) {
  return {enclosingInstance(op), (uint64_t)op.getIndex()};
}

/// np.handler_load: the runtime finds the write handler by its name among
/// the instance's handler descriptions and runs it once per line.
SmallVector<abi::Arg> handlerLoadArgs(np::HandlerLoadOp op,
                                      np::HandlerLoadOp::Adaptor, OpBuilder &) {
  return {enclosingInstance(op), StringRef(cString(op.getHandler())),
          StringRef(cString(op.getPath()))};
}

SmallVector<abi::Arg> handlerResultArgs(np::HandlerResultOp op,
                                        np::HandlerResultOp::Adaptor a,
                                        OpBuilder &b) {
  return {enclosingInstance(op), widen(b, op.getLoc(), a.getValue())};
}

/// np.table: one call of nprt_table_op on the state array behind the
/// memref (np.state_field's lowering left it under a cast).
struct TableLowering : NPPattern<np::TableOp> {
  using NPPattern::NPPattern;
  LogicalResult matchAndRewrite(np::TableOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rw) const override {
    auto cast = adaptor.getTable().getDefiningOp<UnrealizedConversionCastOp>();
    if (!cast || cast.getNumOperands() != 1)
      return rw.notifyMatchFailure(op, "table is not a state field");
    Location loc = op.getLoc();
    SmallVector<abi::Arg> args = {
        cast.getOperand(0),         (uint64_t)op.getKind(),
        (uint64_t)op.getOp(),       (uint64_t)op.getCapacity(),
        (uint64_t)op.getKeyWords(), (uint64_t)op.getValueWords()};
    for (unsigned k = 0; k < 2; ++k)
      args.push_back(k < adaptor.getArgs().size()
                         ? abi::Arg(adaptor.getArgs()[k])
                         : abi::Arg((uint64_t)0));
    Value r = abi::call(rw, loc, Fn::nprt_table_op, args);
    // An insert or remove whose result is ignored: no cast for the C
    // compiler to call an unused variable.
    if (op.getResult().use_empty()) {
      rw.eraseOp(op);
      return success();
    }
    if (op.getResult().getType().isInteger(1))
      r = rw.create<emitc::CastOp>(loc, rw.getI1Type(), r);
    rw.replaceOp(op, r);
    return success();
  }
};

} // namespace

void npcc::toemitc::populateNPPacketToEmitCPatterns(
    TypeConverter &tc, RewritePatternSet &patterns,
    const NPLoweringInfo &info) {
  using namespace np;
  patterns.add<
      RecvLowering, TryRecvLowering, SendLowering, FusedSendLowering,
      SelectLowering, TableLowering,
      MetaLowering<MetaGetOp, Fn::nprt_pkt_get_meta>,
      MetaLowering<MetaSetOp, Fn::nprt_pkt_set_meta>,
// The np ops of builtins that are one libnprt call (Builtins.def).
#define NPL_BUILTIN_OP(Op, runtimeFn, takesSelf)                               \
  CallLowering<Op, Fn::runtimeFn, takesSelf>,
#include "dialects/NP/IR/Builtins.def"
      CallLowering<PktToWordOp, Fn::nprt_pkt_word, false>,
      CallLowering<WordToPktOp, Fn::nprt_word_pkt, false>,
      RuntimeCallLowering<PktGetOp, Fn::nprt_pkt_get_bits, pktGetArgs, true>,
      RuntimeCallLowering<PktSetOp, Fn::nprt_pkt_set_bits, pktSetArgs>,
      RuntimeCallLowering<PktCrcOp, Fn::nprt_pkt_crc, pktCrcArgs>,
      RuntimeCallLowering<CrcOp, Fn::nprt_crc, crcArgs>,
      RuntimeCallLowering<PrintPktOp, Fn::nprt_print_pkt, printPktArgs>,
      RuntimeCallLowering<PrintOp, Fn::nprt_print_val, printArgs>,
      RuntimeCallLowering<NowOp, Fn::nprt_now, selfArg<NowOp>>,
      RuntimeCallLowering<FinishOp, Fn::nprt_finish, selfArg<FinishOp>>,
      RuntimeCallLowering<AnnoGetOp, Fn::nprt_pkt_get_anno, annoGetArgs, true>,
      RuntimeCallLowering<AnnoSetOp, Fn::nprt_pkt_set_anno, annoSetArgs>,
      RuntimeCallLowering<HandlerArgOp, Fn::nprt_handler_arg, handlerArgArgs,
                          true>,
      RuntimeCallLowering<HandlerLoadOp, Fn::nprt_handler_load,
                          handlerLoadArgs>,
      RuntimeCallLowering<HandlerResultOp, Fn::nprt_handler_result,
                          handlerResultArgs>>(tc, patterns.getContext(), info);
}
