//===- NPStructureToEmitC.cpp - elements and their state as EmitC ---------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// An element (one per instance after np-instantiate-elements) becomes a
// struct type for its state object and one static C function per body,
// each taking `nprt_inst *self`; state fields are reached through
// nprt_state(self), shared state through nprt_shared(self), one struct per
// source name. Nothing generated is mutable at file scope: the runtime
// allocates every state and shared object. The np.program is each
// target's own text (targets/c/ProgramToEmitC.cpp, targets/hls), written
// through ProgramLowering.h.
//
//===----------------------------------------------------------------------===//

#include "targets/emitc/NPToEmitC.h"
#include "targets/emitc/RuntimeABI.h"

#include "dialects/NP/IR/NPOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace npcc;
using namespace npcc::toemitc;

std::string npcc::toemitc::cString(StringRef s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      out.push_back('\\');
    if (llvm::isPrint(c)) {
      out.push_back(c);
    } else {
      // Octal escapes stop after three digits, unlike \x.
      char buf[8];
      snprintf(buf, sizeof(buf), "\\%03o", (unsigned char)c);
      out += buf;
    }
  }
  return out + "\"";
}

namespace {

/// Marks the cast of nprt_state(self) to the element's state struct
/// ("state") and of nprt_shared(self) to its shared struct ("shared"),
/// which np.state_field patterns read members of.
constexpr llvm::StringLiteral StateObjectAttr = "npcc.state_object";

unsigned containerWidth(unsigned w) {
  return w <= 1 ? 1 : w <= 8 ? 8 : w <= 16 ? 16 : w <= 32 ? 32 : 64;
}

/// The C element type of a state of type `t` (what c-legalize-int-widths
/// will make of it).
Type stateElementType(MemRefType t) {
  return IntegerType::get(
      t.getContext(),
      containerWidth(t.getElementType().getIntOrFloatBitWidth()));
}

std::string cIntType(unsigned width) {
  return width == 1 ? "bool" : "int" + std::to_string(width) + "_t";
}

/// A C literal of `v` as a value of the signed C type of width `w`.
std::string cIntLiteral(APInt v, unsigned w) {
  if (w == 1)
    return v.isZero() ? "0" : "1";
  int64_t s = v.zext(64).trunc(w).sext(64).getSExtValue();
  if (s == INT64_MIN)
    return "(-9223372036854775807 - 1)";
  return std::to_string(s);
}

/// `{...}` for the row-major values `vals` of a shape, nested per dimension.
void printInitializer(llvm::raw_ostream &os, ArrayRef<int64_t> shape,
                      ArrayRef<std::string> vals, size_t &next) {
  os << "{";
  for (int64_t i = 0; i < shape.front(); ++i) {
    if (i)
      os << ", ";
    if (shape.size() == 1)
      os << vals[next++];
    else
      printInitializer(os, shape.drop_front(), vals, next);
  }
  os << "}";
}

struct ElementLowering : NPPattern<np::ElementOp> {
  using NPPattern::NPPattern;

  LogicalResult matchAndRewrite(np::ElementOp element, OpAdaptor,
                                ConversionPatternRewriter &rw) const override {
    const NPLoweringInfo::Element &e = info.elements.at(element);
    Location loc = element.getLoc();
    MLIRContext *ctx = getContext();
    rw.setInsertionPoint(element);
    SmallVector<np::StateOp> states, shared;
    for (np::StateOp s : element.getBody()->getOps<np::StateOp>())
      (s.getShared() ? shared : states).push_back(s);
    std::string stateType = e.prefix + "_state";
    if (!states.empty())
      declareState(rw, loc, states, e.fields, e.hasInitImage, stateType);
    const NPLoweringInfo::Shared *sh =
        e.shared >= 0 ? &info.shared[e.shared] : nullptr;
    if (sh && sh->declarer == element)
      declareState(rw, loc, shared, sh->fields, sh->hasInitImage, sh->type);
    auto objectType = [&](StringRef type) {
      return emitc::PointerType::get(emitc::OpaqueType::get(ctx, type));
    };

    std::string controls; // the nprt_handler_desc initialisers
    unsigned numControls = 0;
    for (Operation &body : llvm::make_early_inc_range(*element.getBody())) {
      if (!isa<np::InitOp, np::HandlerOp, np::PushOp, np::SignalOp, np::TimerOp,
               np::FiniOp, np::ControlOp>(body))
        continue;
      std::string suffix = isa<np::InitOp>(body)      ? "init"
                           : isa<np::HandlerOp>(body) ? "handler"
                           : isa<np::TimerOp>(body)   ? "timer"
                           : isa<np::FiniOp>(body)    ? "fini"
                                                      : "signal";
      if (auto c = dyn_cast<np::ControlOp>(body)) {
        suffix = "control_" + std::to_string(numControls++);
        controls += describeControl(rw, loc, c, e.prefix + "_" + suffix);
      }
      std::string name = e.prefix + "_" + suffix;
      auto push = dyn_cast<np::PushOp>(body);
      if (push)
        name = e.pushFns.at(push.getPort().str());
      Region &region = body.getRegion(0);
      TypeConverter::SignatureConversion signature(region.getNumArguments());
      for (auto [i, t] : llvm::enumerate(region.getArgumentTypes())) {
        Type c = getTypeConverter()->convertType(t);
        // A push body is handed integers as the runtime carries them, in
        // 64 bits (nprt_fused_enter_val's `v`): a C type whatever the
        // port's width. The body narrows it again (the argument
        // materialization).
        if (push && isa<IntegerType>(c))
          c = rw.getI64Type();
        signature.addInputs(i, c);
      }
      auto fn = rw.create<emitc::FuncOp>(
          body.getLoc(), name,
          rw.getFunctionType(signature.getConvertedTypes(), {}));
      // A push function is called from the fused sends in front of it,
      // where a C compiler inlines it; `inline` also keeps one whose
      // calls were folded away from warning as unused.
      fn.setSpecifiersAttr(push ? rw.getStrArrayAttr({"static", "inline"})
                                : rw.getStrArrayAttr({"static"}));
      rw.inlineRegionBefore(region, fn.getBody(), fn.end());
      if (failed(rw.convertRegionTypes(&fn.getBody(), *getTypeConverter(),
                                       &signature)))
        return failure();
      // The objects the body's np.state_field ops read members of;
      // c-convert-to-emitc erases those a body does not use.
      OpBuilder::InsertionGuard g(rw);
      rw.setInsertionPointToStart(&fn.getBody().front());
      Value self = fn.getBody().front().getArgument(0);
      auto object = [&](abi::Fn get, StringRef type, StringRef kind) {
        Value raw = abi::call(rw, loc, get, {self});
        auto cast = rw.create<emitc::CastOp>(loc, objectType(type), raw);
        cast->setAttr(StateObjectAttr, rw.getStringAttr(kind));
      };
      if (!states.empty())
        object(abi::Fn::nprt_state, stateType, "state");
      if (sh)
        object(abi::Fn::nprt_shared, sh->type, "shared");
    }
    if (numControls)
      rw.create<emitc::VerbatimOp>(
          loc, rw.getStringAttr("static const nprt_handler_desc " + e.prefix +
                                "_handlers[] = {\n" + controls + "};"));
    rw.eraseOp(element);
    return success();
  }

  /// The nprt_handler_desc of handler `c` whose function is `fn`, after
  /// the arrays of its parameters' value kinds and defaults.
  std::string describeControl(ConversionPatternRewriter &rw, Location loc,
                              np::ControlOp c, const std::string &fn) const {
    llvm::StringMap<std::string> v;
    v["name"] = cString(c.getName());
    v["write"] = c.getWrite() ? "true" : "false";
    v["fn"] = fn;
    v["result"] = std::to_string(c.getResultKind()) + "u";
    size_t n = c.getParamKinds().size();
    v["n_params"] = std::to_string(n) + "u";
    v["params"] = v["defaults"] = "NULL";
    if (n) {
      std::string kinds, defaults;
      for (size_t k = 0; k < n; ++k) {
        kinds += (k ? ", " : "") + std::to_string(c.getParamKinds()[k]) + "u";
        defaults += (k ? ", " : "") +
                    std::to_string((uint64_t)c.getParamDefaults()[k]) + "ull";
      }
      rw.create<emitc::VerbatimOp>(
          loc, rw.getStringAttr("static const uint32_t " + fn + "_kinds[] = {" +
                                kinds + "};\nstatic const uint64_t " + fn +
                                "_defaults[] = {" + defaults + "};"));
      v["params"] = fn + "_kinds";
      v["defaults"] = fn + "_defaults";
    }
    return "  " + abi::designated("nprt_handler_desc", v) + ",\n";
  }

  /// `typedef struct {...} T;` with the member `fields` names for each of
  /// `states` and, if any state starts non-zero, a constant image `T_init`
  /// the runtime copies into each new object.
  void declareState(ConversionPatternRewriter &rw, Location loc,
                    ArrayRef<np::StateOp> states,
                    const llvm::StringMap<std::string> &fields,
                    bool hasInitImage, StringRef stateType) const {
    std::string decl, init;
    llvm::raw_string_ostream os(decl), is(init);
    os << "typedef struct " << stateType << " {\n";
    bool anyInit = false;
    for (np::StateOp s : states) {
      MemRefType t = s.getMemRefType();
      unsigned w = stateElementType(t).getIntOrFloatBitWidth();
      unsigned bits = t.getElementType().getIntOrFloatBitWidth();
      std::string field = fields.lookup(s.getSymName());
      os << "  "
         << (info.apUintState && bits != w
                 ? "ap_uint<" + std::to_string(bits) + ">"
                 : cIntType(w))
         << " " << field;
      for (int64_t d : t.getShape())
        os << "[" << d << "]";
      os << ";\n";
      auto dense =
          dyn_cast_or_null<DenseIntElementsAttr>(s.getInitialValueAttr());
      if (!dense || (dense.isSplat() && dense.getSplatValue<APInt>().isZero()))
        continue;
      SmallVector<std::string> vals;
      for (APInt v : dense.getValues<APInt>())
        vals.push_back(cIntLiteral(v, w));
      is << (anyInit ? ",\n" : "") << "  ." << field << " = ";
      size_t next = 0;
      printInitializer(is, t.getShape(), vals, next);
      anyInit = true;
    }
    os << "} " << stateType << ";";
    rw.create<emitc::VerbatimOp>(loc, rw.getStringAttr(decl));
    assert(anyInit == hasInitImage && "precomputed init image disagrees");
    if (anyInit)
      rw.create<emitc::VerbatimOp>(
          loc,
          rw.getStringAttr("static const " + stateType.str() + " " +
                           stateType.str() + "_init = {\n" + init + "\n};"));
  }
};

struct StateFieldLowering : NPPattern<np::StateFieldOp> {
  using NPPattern::NPPattern;

  LogicalResult matchAndRewrite(np::StateFieldOp op, OpAdaptor,
                                ConversionPatternRewriter &rw) const override {
    auto fn = op->getParentOfType<emitc::FuncOp>();
    const NPLoweringInfo::Member &m = info.stateFields.at(op);
    StringRef kind = m.shared ? "shared" : "state";
    Value object;
    for (Operation &o : fn.getBody().front())
      if (auto k = o.getAttrOfType<StringAttr>(StateObjectAttr);
          k && k.getValue() == kind)
        object = o.getResult(0);
    if (!object)
      return rw.notifyMatchFailure(op, "no state object in the function");
    MemRefType t = cast<MemRefType>(op.getType());
    auto array = emitc::ArrayType::get(t.getShape(), stateElementType(t));
    Value member =
        rw.create<emitc::MemberOfPtrOp>(op.getLoc(), array, m.name, object);
    // memref.load/store still expect the memref; c-convert-to-emitc folds
    // this cast away when it turns the memref into the same array.
    rw.replaceOpWithNewOp<UnrealizedConversionCastOp>(op, t, member);
    return success();
  }
};

struct YieldLowering : OpConversionPattern<np::YieldOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(np::YieldOp op, OpAdaptor,
                                ConversionPatternRewriter &rw) const override {
    rw.replaceOpWithNewOp<emitc::ReturnOp>(op, Value());
    return success();
  }
};

/// `if (cond) break;` inside the emitc.for the enclosing scf.for becomes:
/// the loop stops where every later iteration would do nothing.
struct ExitLoopIfLowering : OpConversionPattern<np::ExitLoopIfOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(np::ExitLoopIfOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rw) const override {
    auto ifOp = rw.create<emitc::IfOp>(op.getLoc(), adaptor.getCond(),
                                       /*addThenBlock=*/true,
                                       /*addElseBlock=*/false);
    OpBuilder::InsertionGuard g(rw);
    rw.setInsertionPointToStart(&ifOp.getThenRegion().front());
    rw.create<emitc::VerbatimOp>(op.getLoc(), rw.getStringAttr("break"));
    rw.create<emitc::YieldOp>(op.getLoc());
    rw.eraseOp(op);
    return success();
  }
};

} // namespace

void npcc::toemitc::populateNPToEmitCTypeConversions(TypeConverter &tc) {
  tc.addConversion(
      [](np::PacketType t) { return abi::packetType(t.getContext()); });
  tc.addConversion(
      [](np::SelfType t) { return abi::instanceType(t.getContext()); });
  // A push body's integer argument arrives in 64 bits (ElementLowering).
  tc.addArgumentMaterialization([](OpBuilder &b, IntegerType to, ValueRange in,
                                   Location loc) -> std::optional<Value> {
    auto from =
        in.size() == 1 ? dyn_cast<IntegerType>(in[0].getType()) : IntegerType();
    if (!from || from.getWidth() <= to.getWidth())
      return std::nullopt;
    return b.create<arith::TruncIOp>(loc, to, in[0]).getResult();
  });
}

void npcc::toemitc::populateNPStructureToEmitCPatterns(
    TypeConverter &tc, RewritePatternSet &patterns,
    const NPLoweringInfo &info) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<ElementLowering, StateFieldLowering>(tc, ctx, info);
  patterns.add<YieldLowering, ExitLoopIfLowering>(tc, ctx);
}
