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
  if (from.kind == ast::Ty::Int && from.isSigned)
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
