//===- LegalizeIntWidths.cpp - odd integer widths to C integer types ------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// NPL has u1..u64 (header fields are u4, u13, u48, ...) but C and EmitC have
// only 8, 16, 32 and 64-bit integers. Every iN value is carried in the
// smallest C type that holds it, zero-extended: the bits above N are always
// 0. Operations that can set those bits (add, sub, mul, shl, truncation,
// sign extension) are followed by a mask; operations that read a value as
// signed first sign-extend it from bit N-1. Everything else (and, or, xor,
// unsigned division, unsigned compares, loads, stores, selects) already
// preserves the invariant.
//
//===----------------------------------------------------------------------===//

#include "targets/emitc/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinAttributes.h"

namespace npcc::toemitc {
#define GEN_PASS_DEF_LEGALIZEINTWIDTHS
#include "targets/emitc/Passes.h.inc"
} // namespace npcc::toemitc

using namespace mlir;

namespace {

unsigned containerWidth(unsigned w) {
  return w <= 1 ? 1 : w <= 8 ? 8 : w <= 16 ? 16 : w <= 32 ? 32 : 64;
}

bool isOdd(Type t) {
  auto it = dyn_cast<IntegerType>(t);
  return it && containerWidth(it.getWidth()) != it.getWidth();
}

Type legalType(Type t) {
  if (auto it = dyn_cast<IntegerType>(t))
    return IntegerType::get(t.getContext(), containerWidth(it.getWidth()));
  if (auto mt = dyn_cast<MemRefType>(t))
    return MemRefType::get(mt.getShape(), legalType(mt.getElementType()),
                           mt.getLayout(), mt.getMemorySpace());
  return t;
}

class Legalizer {
public:
  explicit Legalizer(ModuleOp module)
      : module(module), b(module.getContext()) {}
  void run();

private:
  /// Original width of a value that had an odd type, else 0.
  unsigned oddWidth(Value v) { return widths.lookup(v); }
  Value mask(Location loc, Value v, unsigned w);
  Value signExtend(Location loc, Value v, unsigned w);
  void fixOp(Operation *op);

  ModuleOp module;
  OpBuilder b;
  llvm::DenseMap<Value, unsigned> widths;
};

} // namespace

Value Legalizer::mask(Location loc, Value v, unsigned w) {
  auto t = cast<IntegerType>(v.getType());
  if (w >= t.getWidth())
    return v;
  Value m = b.create<arith::ConstantIntOp>(loc, (int64_t)((1ull << w) - 1),
                                           t.getWidth());
  return b.create<arith::AndIOp>(loc, v, m);
}

/// (x ^ s) - s with s = 1 << (w-1): sign-extends the low w bits of x.
Value Legalizer::signExtend(Location loc, Value v, unsigned w) {
  auto t = cast<IntegerType>(v.getType());
  if (w >= t.getWidth())
    return v;
  Value s = b.create<arith::ConstantIntOp>(loc, (int64_t)(1ull << (w - 1)),
                                           t.getWidth());
  Value x = b.create<arith::XOrIOp>(loc, v, s);
  return b.create<arith::SubIOp>(loc, x, s);
}

/// EmitC has no arithmetic on `bool`: the arithmetic of i1 values as logic
/// (+ and - are xor, * is and, a shift by 1 or more clears, x / y is x when
/// y is 1 and 0 by NPL's definition when y is 0, a remainder is 0; signed,
/// 1 is -1, the smaller value).
static void legalizeBoolArith(Operation *op, OpBuilder &b) {
  if (op->getNumResults() != 1 || op->getNumOperands() != 2 ||
      !op->getResult(0).getType().isInteger(1))
    return;
  Location loc = op->getLoc();
  Value x = op->getOperand(0), y = op->getOperand(1);
  b.setInsertionPoint(op);
  Value r;
  if (isa<arith::AddIOp, arith::SubIOp>(op))
    r = b.create<arith::XOrIOp>(loc, x, y);
  else if (isa<arith::MulIOp, arith::DivUIOp, arith::DivSIOp, arith::MinUIOp,
               arith::MaxSIOp>(op))
    r = b.create<arith::AndIOp>(loc, x, y);
  else if (isa<arith::MaxUIOp, arith::MinSIOp>(op))
    r = b.create<arith::OrIOp>(loc, x, y);
  else if (isa<arith::ShLIOp, arith::ShRUIOp>(op))
    r = b.create<arith::AndIOp>(
        loc, x,
        b.create<arith::XOrIOp>(loc, y,
                                b.create<arith::ConstantIntOp>(loc, 1, 1)));
  else if (isa<arith::ShRSIOp>(op))
    r = x;
  else if (isa<arith::RemUIOp, arith::RemSIOp>(op))
    r = b.create<arith::ConstantIntOp>(loc, 0, 1);
  else
    return;
  op->getResult(0).replaceAllUsesWith(r);
  op->erase();
}

/// 0 - zext(x): the i1 `x` read as signed (0 or -1), widened to `t`.
static Value signedBool(Location loc, Value x, Type t, OpBuilder &b) {
  Value z = b.create<arith::ExtUIOp>(loc, t, x);
  Value zero = b.create<arith::ConstantIntOp>(loc, 0, t);
  return b.create<arith::SubIOp>(loc, zero, z);
}

/// EmitC casts an i1 (a C bool) only by zero extension, but an i1 that
/// NPL reads as signed (`x as u8` with `x: i1`, an array index `a[x]`) is 0
/// or -1.
static void signExtendBool(Operation *op, OpBuilder &b) {
  Value in = op->getOperand(0);
  if (!in.getType().isInteger(1))
    return;
  b.setInsertionPoint(op);
  if (auto ext = dyn_cast<arith::ExtSIOp>(op)) {
    ext.replaceAllUsesWith(signedBool(op->getLoc(), in, ext.getType(), b));
    op->erase();
    return;
  }
  // index_cast sign-extends: from a signed byte, which C casts as it should.
  op->setOperand(0, signedBool(op->getLoc(), in, b.getI8Type(), b));
}

/// A signed i1 is 0 or -1, but C compares bools as 0 and 1: a signed
/// comparison of two i1s is the unsigned one the other way round (-1 < 0
/// exactly when true > false).
static void compareBoolsSigned(arith::CmpIOp cmp) {
  using P = arith::CmpIPredicate;
  if (!cmp.getLhs().getType().isInteger(1))
    return;
  switch (cmp.getPredicate()) {
  case P::slt:
    return cmp.setPredicate(P::ugt);
  case P::sle:
    return cmp.setPredicate(P::uge);
  case P::sgt:
    return cmp.setPredicate(P::ult);
  case P::sge:
    return cmp.setPredicate(P::ule);
  default:
    return;
  }
}

void Legalizer::fixOp(Operation *op) {
  Location loc = op->getLoc();
  // Results whose original width is odd and whose op may set high bits.
  auto maskResult = [&](unsigned w) {
    Value r = op->getResult(0);
    b.setInsertionPointAfter(op);
    Value m = mask(loc, r, w);
    r.replaceAllUsesExcept(m, m.getDefiningOp());
    widths[m] = w;
  };
  // Operands read as signed values.
  auto signedOperands = [&]() {
    b.setInsertionPoint(op);
    for (OpOperand &o : op->getOpOperands()) {
      // The amount of an arithmetic shift right is unsigned.
      if (isa<arith::ShRSIOp>(op) && o.getOperandNumber() == 1)
        continue;
      if (unsigned w = oddWidth(o.get()))
        o.set(signExtend(loc, o.get(), w));
    }
  };

  if (auto c = dyn_cast<arith::ConstantOp>(op)) {
    auto attr = dyn_cast<IntegerAttr>(c.getValue());
    if (!attr || !isOdd(attr.getType()))
      return;
    Type t = legalType(attr.getType());
    uint64_t v = attr.getValue().getZExtValue();
    c.setValueAttr(b.getIntegerAttr(t, (int64_t)v));
    return;
  }
  if (isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::ShLIOp>(op)) {
    if (unsigned w = oddWidth(op->getResult(0)))
      maskResult(w);
    return;
  }
  if (isa<arith::DivSIOp, arith::RemSIOp, arith::ShRSIOp, arith::MinSIOp,
          arith::MaxSIOp, arith::IndexCastOp>(op)) {
    unsigned w = op->getNumResults() ? oddWidth(op->getResult(0)) : 0;
    signedOperands();
    if (w)
      maskResult(w);
    return;
  }
  if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
    using P = arith::CmpIPredicate;
    P p = cmp.getPredicate();
    if (p == P::slt || p == P::sle || p == P::sgt || p == P::sge)
      signedOperands();
    return;
  }
  auto castOp = [&](bool isSigned, bool isTrunc) {
    Value in = op->getOperand(0);
    Value out = op->getResult(0);
    unsigned inW =
        oddWidth(in) ? oddWidth(in) : in.getType().getIntOrFloatBitWidth();
    unsigned outW =
        oddWidth(out) ? oddWidth(out) : out.getType().getIntOrFloatBitWidth();
    if (!oddWidth(in) && !oddWidth(out) && in.getType() != out.getType())
      return;
    b.setInsertionPoint(op);
    Value v = in;
    if (isSigned && !isTrunc)
      v = signExtend(loc, v, inW);
    unsigned cin = v.getType().getIntOrFloatBitWidth();
    unsigned cout = out.getType().getIntOrFloatBitWidth();
    if (cout > cin)
      v = isSigned ? (Value)b.create<arith::ExtSIOp>(loc, out.getType(), v)
                   : (Value)b.create<arith::ExtUIOp>(loc, out.getType(), v);
    else if (cout < cin)
      v = b.create<arith::TruncIOp>(loc, out.getType(), v);
    v = mask(loc, v, outW);
    // Later signed uses of the result must see its own width: an odd one
    // recorded, or, when the cast changed nothing in C (u3 as u8), not the
    // input's (an identity bitcast, folded away by the canonicalizer).
    if (unsigned w = oddWidth(out))
      widths[v] = w;
    else if (v == in && oddWidth(in))
      v = b.create<arith::BitcastOp>(loc, out.getType(), v);
    out.replaceAllUsesWith(v);
    // An op created later may reuse the erased result's storage, and with
    // it a stale entry.
    widths.erase(out);
    op->erase();
  };
  if (isa<arith::ExtUIOp>(op))
    return castOp(false, false);
  if (isa<arith::ExtSIOp>(op))
    return castOp(true, false);
  if (isa<arith::TruncIOp>(op))
    return castOp(false, true);
}

void Legalizer::run() {
  // Record the original widths, then retype everything in place.
  module.walk([&](Operation *op) {
    for (Value r : op->getResults())
      if (isOdd(r.getType()))
        widths[r] = cast<IntegerType>(r.getType()).getWidth();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument a : block.getArguments())
          if (isOdd(a.getType()))
            widths[a] = cast<IntegerType>(a.getType()).getWidth();
  });
  SmallVector<Operation *> ops;
  module.walk([&](Operation *op) { ops.push_back(op); });
  for (Operation *op : ops) {
    for (Value r : op->getResults())
      r.setType(legalType(r.getType()));
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument a : block.getArguments())
          a.setType(legalType(a.getType()));
    if (auto f = dyn_cast<func::FuncOp>(op)) {
      auto legal = [](TypeRange ts) {
        return llvm::map_to_vector(ts, [](Type t) { return legalType(t); });
      };
      FunctionType ft = f.getFunctionType();
      f.setFunctionType(FunctionType::get(f.getContext(), legal(ft.getInputs()),
                                          legal(ft.getResults())));
    }
    if (auto g = dyn_cast<memref::GlobalOp>(op)) {
      MemRefType mt = g.getType();
      MemRefType lt = cast<MemRefType>(legalType(mt));
      if (mt != lt) {
        g.setType(lt);
        if (auto init = dyn_cast_or_null<DenseIntElementsAttr>(
                g.getInitialValueAttr())) {
          unsigned w = lt.getElementTypeBitWidth();
          SmallVector<APInt> vals;
          for (APInt v : init.getValues<APInt>())
            vals.push_back(v.zext(w));
          g.setInitialValueAttr(DenseElementsAttr::get(
              RankedTensorType::get(lt.getShape(), lt.getElementType()), vals));
        }
      }
    }
  }
  for (Operation *op : ops)
    fixOp(op);
  ops.clear();
  module.walk([&](Operation *op) { ops.push_back(op); });
  for (Operation *op : ops) {
    if (isa<arith::ExtSIOp, arith::IndexCastOp>(op))
      signExtendBool(op, b);
    else if (auto cmp = dyn_cast<arith::CmpIOp>(op))
      compareBoolsSigned(cmp);
    else
      legalizeBoolArith(op, b);
  }
}

namespace {
struct LegalizeIntWidthsPass
    : npcc::toemitc::impl::LegalizeIntWidthsBase<LegalizeIntWidthsPass> {
  void runOnOperation() override { Legalizer(getOperation()).run(); }
};
} // namespace
