//===- NPPacketToEmitC.cpp - port and packet ops as libnprt calls ---------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// One pattern, BodyOpLowering (BodyOpLowering.h), with a function per
// operation that builds its replacement: most are one runtime call
// (lowerToCall) with the arguments a function of the op gives. Operands come
// from the adaptor, so a lowering never looks at a value after its producer was
// retyped; the runtime entry points and their arities come from nprt/abi.def.
//
//===----------------------------------------------------------------------===//

#include "targets/emitc/BodyOpLowering.h"
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

/// An integer as the body types it, from the 64 bits the runtime returns
/// it in; a packet handle as it is.
Value fromCarried(OpBuilder &b, Location loc, Value v, Type t) {
  return isa<np::PacketType>(t) ? v : narrow(b, loc, v, t);
}

/// The value `op` sends (converted: `v`) as the runtime carries it: a
/// packet handle, or an integer in 64 bits.
template <typename SendLike> Value carried(OpBuilder &b, SendLike op, Value v) {
  if (isa<np::PacketType>(op.getValue().getType()))
    return v;
  return widen(b, op.getLoc(), v);
}

/// The runtime's entry point for a value of type `t`: `pkt` for a packet,
/// `val` for an integer.
Fn forValue(Type t, Fn pkt, Fn val) {
  return isa<np::PacketType>(t) ? pkt : val;
}

/// The index of the port `op` names (np.select: of its first).
uint64_t portOf(const NPLoweringInfo &info, Operation *op) {
  return info.ports.lookup(op)[0];
}

Replacement lowerRecv(np::RecvOp op, np::RecvOp::Adaptor,
                      const NPLoweringInfo &info, OpBuilder &b) {
  Location loc = op.getLoc();
  Type t = op.getType();
  Value v = abi::call(b, loc, forValue(t, Fn::nprt_recv_pkt, Fn::nprt_recv_val),
                      {enclosingInstance(op), portOf(info, op)});
  return replaceWith(fromCarried(b, loc, v, t));
}

Replacement lowerTryRecv(np::TryRecvOp op, np::TryRecvOp::Adaptor,
                         const NPLoweringInfo &info, OpBuilder &b) {
  Location loc = op.getLoc();
  Value self = enclosingInstance(op);
  uint64_t p = portOf(info, op);
  Value ok = abi::call(b, loc, Fn::nprt_poll, {self, p});
  Type t = op.getValue().getType();
  Value v = abi::call(b, loc,
                      forValue(t, Fn::nprt_try_recv_pkt, Fn::nprt_try_recv_val),
                      {self, p});
  return replaceWith({ok, fromCarried(b, loc, v, t)});
}

Replacement lowerSend(np::SendOp op, np::SendOp::Adaptor a,
                      const NPLoweringInfo &info, OpBuilder &b) {
  abi::call(
      b, op.getLoc(),
      forValue(op.getValue().getType(), Fn::nprt_send_pkt, Fn::nprt_send_val),
      {enclosingInstance(op), portOf(info, op), carried(b, op, a.getValue())});
  return replaceWith();
}

/// `to = nprt_link_enter_*(self, port, v); if (to != NULL) {
/// <push>(to, v); nprt_link_leave(self, port); }`: the runtime counts the
/// value as sent and received and says whether the call is to be made now
/// (inline while the port's link is armed, nprt/link.h); if not, it has
/// sent the value through the channel. The push function is a static
/// function of the same file, which the C compiler can inline. A static
/// hop (FusedHops.cpp) calls nprt_link_pass_* and nprt_link_pass_leave.
Replacement lowerFusedSend(np::FusedSendOp op, np::FusedSendOp::Adaptor a,
                           const NPLoweringInfo &info, OpBuilder &b) {
  Location loc = op.getLoc();
  Value self = enclosingInstance(op);
  // The push function takes integers in 64 bits too (ElementLowering).
  Value v = carried(b, op, a.getValue());
  bool isStatic = info.staticSends.contains(op);
  Fn enter = forValue(op.getValue().getType(), Fn::nprt_link_enter_pkt,
                      Fn::nprt_link_enter_val);
  if (isStatic)
    enter = info.handedSends.contains(op)
                ? Fn::nprt_link_forward_pkt
                : forValue(op.getValue().getType(), Fn::nprt_link_pass_pkt,
                           Fn::nprt_link_pass_val);
  Value to = abi::call(b, loc, enter, {self, portOf(info, op), v});
  Value null = b.create<emitc::LiteralOp>(
      loc, abi::instanceType(b.getContext()), "NULL");
  Value call = b.create<emitc::CmpOp>(loc, b.getI1Type(),
                                      emitc::CmpPredicate::ne, to, null);
  auto ifOp = b.create<emitc::IfOp>(loc, call, /*addThenBlock=*/true,
                                    /*addElseBlock=*/false);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  if (info.fusedSelect.contains(op))
    abi::call(b, loc, Fn::nprt_link_selected, {self, portOf(info, op)});
  if (info.indirectSends.contains(op))
    abi::call(b, loc,
              forValue(op.getValue().getType(), Fn::nprt_link_call_pkt,
                       Fn::nprt_link_call_val),
              {self, portOf(info, op), to, v});
  else
    b.create<emitc::CallOp>(
        loc, SymbolRefAttr::get(b.getContext(), info.fusedCallee.at(op)),
        TypeRange(), ValueRange{to, v});
  abi::call(b, loc, isStatic ? Fn::nprt_link_pass_leave : Fn::nprt_link_leave,
            {self, portOf(info, op)});
  b.create<emitc::YieldOp>(loc);
  return replaceWith();
}

Replacement lowerCallPush(np::CallPushOp op, np::CallPushOp::Adaptor a,
                          const NPLoweringInfo &info, OpBuilder &b) {
  b.create<emitc::CallOp>(
      op.getLoc(),
      SymbolRefAttr::get(b.getContext(), info.callPushCallee.at(op)),
      TypeRange(), ValueRange{a.getSelf(), carried(b, op, a.getValue())});
  return replaceWith();
}

Replacement lowerSelect(np::SelectOp op, np::SelectOp::Adaptor,
                        const NPLoweringInfo &info, OpBuilder &b) {
  Location loc = op.getLoc();
  const auto &indices = info.ports.lookup(op);
  uint64_t mask = 0;
  for (unsigned p : indices)
    mask |= 1ull << p;
  Value r = abi::call(b, loc, Fn::nprt_select, {enclosingInstance(op), mask});
  // The runtime answers with a port index; np.select with a position.
  Value pos = b.create<arith::ConstantIntOp>(loc, 0, 32);
  for (unsigned k = 1; k < indices.size(); ++k) {
    Value is = b.create<arith::CmpIOp>(
        loc, arith::CmpIPredicate::eq, r,
        b.create<arith::ConstantIntOp>(loc, indices[k], 32));
    pos = b.create<arith::SelectOp>(
        loc, is, b.create<arith::ConstantIntOp>(loc, k, 32), pos);
  }
  return replaceWith(pos);
}

/// The arguments of the runtime call an op of type `Op` becomes, from the
/// op and its converted operands; `b` builds any conversion they need.
template <typename Op>
using CallArgs = SmallVector<abi::Arg> (*)(Op, typename Op::Adaptor,
                                           OpBuilder &b);

/// One runtime call `F` with the arguments `Args` gives. The call's
/// result, if the op has one, replaces it, truncated to the op's integer
/// type when `Narrow` (the runtime returns integers in 64 bits).
template <typename Op, Fn F, CallArgs<Op> Args, bool Narrow>
Replacement lowerToCall(Op op, typename Op::Adaptor adaptor,
                        const NPLoweringInfo &, OpBuilder &b) {
  Location loc = op.getLoc();
  Value r = abi::call(b, loc, F, Args(op, adaptor, b));
  if (!op->getNumResults())
    return replaceWith();
  if (Narrow)
    r = narrow(b, loc, r, op->getResult(0).getType());
  return replaceWith(r);
}

/// An op that becomes one runtime call (lowerToCall).
template <typename Op, Fn F, CallArgs<Op> Args, bool Narrow = false>
using RuntimeCallLowering =
    BodyOpLowering<Op, lowerToCall<Op, F, Args, Narrow>>;

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
template <typename Op, Fn F>
Replacement lowerMeta(Op op, typename Op::Adaptor a, const NPLoweringInfo &,
                      OpBuilder &b) {
  auto field = abi::metaEnumerator(op.getField());
  if (!field)
    return failure(); // a field not in nprt/abi.def
  Location loc = op.getLoc();
  if constexpr (std::is_same_v<Op, np::MetaGetOp>) {
    Value v = abi::call(b, loc, F, {a.getPkt(), *field});
    return replaceWith(narrow(b, loc, v, op.getType()));
  } else {
    abi::call(b, loc, F, {a.getPkt(), *field, widen(b, loc, a.getValue())});
    return replaceWith();
  }
}

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
Replacement lowerTable(np::TableOp op, np::TableOp::Adaptor a,
                       const NPLoweringInfo &, OpBuilder &b) {
  auto cast = a.getTable().getDefiningOp<UnrealizedConversionCastOp>();
  if (!cast || cast.getNumOperands() != 1)
    return failure(); // the table is not a state field
  Location loc = op.getLoc();
  SmallVector<abi::Arg> args = {
      cast.getOperand(0),         (uint64_t)op.getKind(),
      (uint64_t)op.getOp(),       (uint64_t)op.getCapacity(),
      (uint64_t)op.getKeyWords(), (uint64_t)op.getValueWords()};
  for (unsigned k = 0; k < 2; ++k)
    args.push_back(k < a.getArgs().size() ? abi::Arg(a.getArgs()[k])
                                          : abi::Arg((uint64_t)0));
  Value r = abi::call(b, loc, Fn::nprt_table_op, args);
  // An insert or remove whose result is ignored: no cast for the C
  // compiler to call an unused variable.
  if (op.getResult().use_empty())
    return replaceWith();
  if (op.getResult().getType().isInteger(1))
    r = b.create<emitc::CastOp>(loc, b.getI1Type(), r);
  return replaceWith(r);
}

} // namespace

void npcc::toemitc::populateNPPacketToEmitCPatterns(
    TypeConverter &tc, RewritePatternSet &patterns,
    const NPLoweringInfo &info) {
  using namespace np;
  patterns.add<
      BodyOpLowering<RecvOp, lowerRecv>,
      BodyOpLowering<TryRecvOp, lowerTryRecv>,
      BodyOpLowering<SendOp, lowerSend>,
      BodyOpLowering<FusedSendOp, lowerFusedSend>,
      BodyOpLowering<CallPushOp, lowerCallPush>,
      BodyOpLowering<SelectOp, lowerSelect>,
      BodyOpLowering<TableOp, lowerTable>,
      BodyOpLowering<MetaGetOp, lowerMeta<MetaGetOp, Fn::nprt_pkt_get_meta>>,
      BodyOpLowering<MetaSetOp, lowerMeta<MetaSetOp, Fn::nprt_pkt_set_meta>>,
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
