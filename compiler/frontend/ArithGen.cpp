//===- ArithGen.cpp - NPL operators with one meaning everywhere -----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Bitwise operators, +, -, * and comparisons lower the same way in element
// handlers and in match programs; division, remainder and shifts do not
// (handlers define x / 0, match programs reject them for the match unit).
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/MLIRGenImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using mlir::Value;

Value npcc::emitPlainBinary(mlir::OpBuilder &b, mlir::Location l,
                            llvm::StringRef op, Value a, Value c,
                            bool isSigned) {
  using P = mlir::arith::CmpIPredicate;
  if (op == "&&" || op == "&")
    return b.create<mlir::arith::AndIOp>(l, a, c);
  if (op == "||" || op == "|")
    return b.create<mlir::arith::OrIOp>(l, a, c);
  if (op == "^")
    return b.create<mlir::arith::XOrIOp>(l, a, c);
  if (op == "+")
    return b.create<mlir::arith::AddIOp>(l, a, c);
  if (op == "-")
    return b.create<mlir::arith::SubIOp>(l, a, c);
  if (op == "*")
    return b.create<mlir::arith::MulIOp>(l, a, c);
  std::optional<P> pred = op == "=="   ? P::eq
                          : op == "!=" ? P::ne
                          : op == "<"  ? (isSigned ? P::slt : P::ult)
                          : op == "<=" ? (isSigned ? P::sle : P::ule)
                          : op == ">"  ? (isSigned ? P::sgt : P::ugt)
                          : op == ">=" ? (isSigned ? P::sge : P::uge)
                                       : std::optional<P>();
  if (!pred)
    return nullptr;
  return b.create<mlir::arith::CmpIOp>(l, *pred, a, c);
}

Value npcc::emitIntUnary(mlir::OpBuilder &b, mlir::Location l,
                         llvm::StringRef op, Value a) {
  auto constant = [&](int64_t v) -> Value {
    return b.create<mlir::arith::ConstantOp>(l, a.getType(),
                                             b.getIntegerAttr(a.getType(), v));
  };
  if (op == "~")
    return b.create<mlir::arith::XOrIOp>(l, a, constant(~0ll));
  return b.create<mlir::arith::SubIOp>(l, constant(0), a);
}

Value npcc::emitCast(mlir::OpBuilder &b, mlir::Location l, Value a,
                     const ast::Ty &from, const ast::Ty &to) {
  if (to.kind == ast::Ty::Bool) {
    if (from.kind == ast::Ty::Bool)
      return a;
    Value zero = b.create<mlir::arith::ConstantOp>(
        l, a.getType(), b.getIntegerAttr(a.getType(), 0));
    return b.create<mlir::arith::CmpIOp>(l, mlir::arith::CmpIPredicate::ne, a,
                                         zero);
  }
  mlir::Type type = b.getIntegerType(to.width);
  unsigned wf = a.getType().getIntOrFloatBitWidth(), wt = to.width;
  if (wf == wt)
    return a;
  if (wf > wt)
    return b.create<mlir::arith::TruncIOp>(l, type, a);
  if (from.isSignedInt())
    return b.create<mlir::arith::ExtSIOp>(l, type, a);
  return b.create<mlir::arith::ExtUIOp>(l, type, a);
}

Value npcc::emitMinMax(mlir::OpBuilder &b, mlir::Location l, bool isMin,
                       bool isSigned, Value a, Value c) {
  using P = mlir::arith::CmpIPredicate;
  P pred = isMin ? (isSigned ? P::slt : P::ult) : (isSigned ? P::sgt : P::ugt);
  Value pick = b.create<mlir::arith::CmpIOp>(l, pred, a, c);
  return b.create<mlir::arith::SelectOp>(l, pick, a, c);
}

Value npcc::emitShift(mlir::OpBuilder &b, mlir::Location l, llvm::StringRef op,
                      Value a, Value c, bool isSigned) {
  auto ty = mlir::cast<mlir::IntegerType>(a.getType());
  unsigned wa = ty.getWidth();
  unsigned wc = c.getType().getIntOrFloatBitWidth();
  auto constant = [&](mlir::Type t, uint64_t v) -> Value {
    return b.create<mlir::arith::ConstantOp>(l, b.getIntegerAttr(t, v));
  };
  // The amount is unsigned; clamped to the width before it is truncated.
  if (wc < wa) {
    c = b.create<mlir::arith::ExtUIOp>(l, ty, c);
  } else if (wc > wa) {
    c = b.create<mlir::arith::MinUIOp>(l, c, constant(c.getType(), wa));
    c = b.create<mlir::arith::TruncIOp>(l, ty, c);
  }
  // arith leaves a shift by the width or more undefined (poison); NPL
  // defines it, and the IR says so: in range, the amount is used as is.
  Value inRange = b.create<mlir::arith::MinUIOp>(l, c, constant(ty, wa - 1));
  if (op == ">>" && isSigned)
    return b.create<mlir::arith::ShRSIOp>(l, a, inRange);
  Value shifted = op == "<<"
                      ? (Value)b.create<mlir::arith::ShLIOp>(l, a, inRange)
                      : (Value)b.create<mlir::arith::ShRUIOp>(l, a, inRange);
  Value tooFar = b.create<mlir::arith::CmpIOp>(
      l, mlir::arith::CmpIPredicate::uge, c, constant(ty, wa));
  return b.create<mlir::arith::SelectOp>(l, tooFar, constant(ty, 0), shifted);
}

//===----------------------------------------------------------------------===//
// Bit operations, hashing and checksum arithmetic: plain arith, so every
// target computes them as it computes any other expression.
//===----------------------------------------------------------------------===//

namespace {
Value konst(mlir::OpBuilder &b, mlir::Location l, mlir::Type t, uint64_t v) {
  return b.create<mlir::arith::ConstantOp>(l, b.getIntegerAttr(t, v));
}
Value toI64(mlir::OpBuilder &b, mlir::Location l, Value x) {
  if (x.getType().isInteger(64))
    return x;
  return b.create<mlir::arith::ExtUIOp>(l, b.getI64Type(), x);
}
Value shr(mlir::OpBuilder &b, mlir::Location l, Value x, unsigned n) {
  return b.create<mlir::arith::ShRUIOp>(l, x, konst(b, l, x.getType(), n));
}
/// Bits set in a 64-bit value (SWAR).
Value popcount64(mlir::OpBuilder &b, mlir::Location l, Value v) {
  using namespace mlir::arith;
  mlir::Type t = v.getType();
  v = b.create<SubIOp>(
      l, v,
      b.create<AndIOp>(l, shr(b, l, v, 1), konst(b, l, t, 0x5555555555555555)));
  Value m2 = konst(b, l, t, 0x3333333333333333);
  v = b.create<AddIOp>(l, b.create<AndIOp>(l, v, m2),
                       b.create<AndIOp>(l, shr(b, l, v, 2), m2));
  v = b.create<AndIOp>(l, b.create<AddIOp>(l, v, shr(b, l, v, 4)),
                       konst(b, l, t, 0x0f0f0f0f0f0f0f0f));
  v = b.create<MulIOp>(l, v, konst(b, l, t, 0x0101010101010101));
  return shr(b, l, v, 56);
}
Value toU32(mlir::OpBuilder &b, mlir::Location l, Value v64) {
  return b.create<mlir::arith::TruncIOp>(l, b.getI32Type(), v64);
}
} // namespace

Value npcc::emitPopcount(mlir::OpBuilder &b, mlir::Location l, Value x) {
  return toU32(b, l, popcount64(b, l, toI64(b, l, x)));
}

Value npcc::emitClz(mlir::OpBuilder &b, mlir::Location l, Value x) {
  unsigned w = x.getType().getIntOrFloatBitWidth();
  Value v = toI64(b, l, x);
  // Every bit below the highest set one set too: its popcount is the
  // number of significant bits.
  for (unsigned n : {1, 2, 4, 8, 16, 32})
    v = b.create<mlir::arith::OrIOp>(l, v, shr(b, l, v, n));
  Value bits = popcount64(b, l, v);
  return toU32(
      b, l,
      b.create<mlir::arith::SubIOp>(l, konst(b, l, b.getI64Type(), w), bits));
}

Value npcc::emitCtz(mlir::OpBuilder &b, mlir::Location l, Value x) {
  unsigned w = x.getType().getIntOrFloatBitWidth();
  mlir::Type t = b.getI64Type();
  Value v = toI64(b, l, x);
  Value zero = konst(b, l, t, 0);
  // The bits below the lowest set one: (v & -v) - 1.
  Value lowest = b.create<mlir::arith::AndIOp>(
      l, v, b.create<mlir::arith::SubIOp>(l, zero, v));
  Value below = b.create<mlir::arith::SubIOp>(l, lowest, konst(b, l, t, 1));
  Value isZero =
      b.create<mlir::arith::CmpIOp>(l, mlir::arith::CmpIPredicate::eq, v, zero);
  Value n = b.create<mlir::arith::SelectOp>(l, isZero, konst(b, l, t, w),
                                            popcount64(b, l, below));
  return toU32(b, l, n);
}

Value npcc::emitBswap(mlir::OpBuilder &b, mlir::Location l, Value x) {
  mlir::Type t = x.getType();
  unsigned w = t.getIntOrFloatBitWidth();
  Value r = konst(b, l, t, 0);
  for (unsigned k = 0; k < w / 8; ++k) {
    Value byte = b.create<mlir::arith::AndIOp>(l, shr(b, l, x, 8 * k),
                                               konst(b, l, t, 0xff));
    Value moved =
        b.create<mlir::arith::ShLIOp>(l, byte, konst(b, l, t, w - 8 - 8 * k));
    r = b.create<mlir::arith::OrIOp>(l, r, moved);
  }
  return r;
}

Value npcc::emitHash(mlir::OpBuilder &b, mlir::Location l,
                     llvm::ArrayRef<Value> xs) {
  using namespace mlir::arith;
  mlir::Type t = b.getI64Type();
  // Each value is mixed in with a multiply-xorshift step; the result goes
  // through SplitMix64's finaliser.
  Value h = konst(b, l, t, 0x9e3779b97f4a7c15);
  for (Value x : xs) {
    h = b.create<MulIOp>(l, b.create<XOrIOp>(l, h, toI64(b, l, x)),
                         konst(b, l, t, 0xbf58476d1ce4e5b9));
    h = b.create<XOrIOp>(l, h, shr(b, l, h, 31));
  }
  h = b.create<XOrIOp>(l, h, shr(b, l, h, 33));
  h = b.create<MulIOp>(l, h, konst(b, l, t, 0xff51afd7ed558ccd));
  h = b.create<XOrIOp>(l, h, shr(b, l, h, 33));
  return toU32(b, l, h);
}

/// Folds a 32-bit one's complement sum to 16 bits (end-around carries).
static Value fold16(mlir::OpBuilder &b, mlir::Location l, Value s) {
  mlir::Type t = s.getType();
  for (int k = 0; k < 2; ++k)
    s = b.create<mlir::arith::AddIOp>(
        l, b.create<mlir::arith::AndIOp>(l, s, konst(b, l, t, 0xffff)),
        shr(b, l, s, 16));
  return s;
}

static Value not16(mlir::OpBuilder &b, mlir::Location l, Value v16) {
  return b.create<mlir::arith::XOrIOp>(l, v16,
                                       konst(b, l, v16.getType(), 0xffff));
}

Value npcc::emitCsumFold(mlir::OpBuilder &b, mlir::Location l, Value acc) {
  Value s = fold16(b, l, acc);
  return not16(b, l, b.create<mlir::arith::TruncIOp>(l, b.getI16Type(), s));
}

Value npcc::emitCsumUpdate(mlir::OpBuilder &b, mlir::Location l, Value hc,
                           Value old, Value neu) {
  // RFC 1624, eqn. 3: HC' = ~(~HC + ~m + m').
  auto widen = [&](Value v) {
    return b.create<mlir::arith::ExtUIOp>(l, b.getI32Type(), v);
  };
  Value s = b.create<mlir::arith::AddIOp>(
      l,
      b.create<mlir::arith::AddIOp>(l, widen(not16(b, l, hc)),
                                    widen(not16(b, l, old))),
      widen(neu));
  return emitCsumFold(b, l, s);
}
