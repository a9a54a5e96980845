//===- MLIRGenOneOpBuiltins.cpp - builtins that are one np op -------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The builtins of the NPL_BUILTIN_LOWERS_TO rows of Builtins.def: each
// becomes its np op with the call's arguments as operands and the row's
// result type, so a new builtin of that shape is rows of the table only.
// The table is checked against the ops at compile time here.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/BodyGen.h"

#include "llvm/ADT/STLExtras.h"

using namespace npcc;
using namespace npcc::ast;
namespace np = npcc::np;
using mlir::Value;

namespace {

/// What the compile-time checks need of an NPL_BUILTIN row.
struct RowShape {
  unsigned minArgs, maxArgs;
  bool isVoid;
};

constexpr bool equal(const char *a, const char *b) {
  for (; *a && *a == *b; ++a, ++b) {
  }
  return *a == *b;
}

/// The shapes of the rows, indexed by Builtin.
constexpr RowShape kShapes[] = {
    {0, 0, true}, // Builtin::None
#define NPL_BUILTIN(Id, name, minArgs, maxArgs, params, result, rule, inFn,    \
                    whyNotInMatch)                                             \
  {minArgs, maxArgs, equal(result, "void")},
#include "dialects/NP/IR/Builtins.def"
};

constexpr const RowShape &shape(Builtin b) { return kShapes[(unsigned)b]; }

/// The ops the targets and the interpreter lower: those of the
/// NPL_BUILTIN_OP and NPL_BUILTIN_OTHER_OP rows.
template <typename T>
constexpr bool targetsLower = llvm::is_one_of<T,
#define NPL_BUILTIN_OP(Op, runtimeFn, takesSelf) np::Op,
#define NPL_BUILTIN_OTHER_OP(Op) np::Op,
#include "dialects/NP/IR/Builtins.def"
                                              void>::value;

/// Whether ODS gave `OpT` exactly `N` operands.
template <typename OpT, unsigned N> constexpr bool takesOperands() {
  if constexpr (N == 0)
    return OpT::template hasTrait<mlir::OpTrait::ZeroOperands>();
  else if constexpr (N == 1)
    return OpT::template hasTrait<mlir::OpTrait::OneOperand>();
  else
    return OpT::template hasTrait<mlir::OpTrait::NOperands<N>::template Impl>();
}

// A row's op is one the targets know, takes the builtin's arguments and
// has a result unless the builtin is void.
#define NPL_BUILTIN_LOWERS_TO(Id, Op)                                          \
  static_assert(targetsLower<np::Op>,                                          \
                "np::" #Op " (builtin " #Id ") has no NPL_BUILTIN_OP or "      \
                "NPL_BUILTIN_OTHER_OP row");                                   \
  static_assert(shape(Builtin::Id).minArgs == shape(Builtin::Id).maxArgs &&    \
                    takesOperands<np::Op, shape(Builtin::Id).minArgs>(),       \
                "np::" #Op " does not take the arguments of builtin " #Id);    \
  static_assert(np::Op::hasTrait<mlir::OpTrait::ZeroResults>() ==              \
                    shape(Builtin::Id).isVoid,                                 \
                "np::" #Op " and builtin " #Id " disagree on a result");
#include "dialects/NP/IR/Builtins.def"

} // namespace

Value BodyGen::genOneOpBuiltin(const Expr &e) {
  mlir::Location l = loc(e.loc);
  // Left to right, as every call's arguments (docs/language.md).
  llvm::SmallVector<Value> operands;
  for (const auto &a : e.args)
    operands.push_back(gen(*a));
  Builtin which = lookupBuiltin(e.text);
  Ty result = builtinType(builtinInfo(which).result);
  llvm::SmallVector<mlir::Type, 1> resultTypes;
  if (result.kind != Ty::Void)
    resultTypes.push_back(toMLIRType(ctx, result));
  mlir::Operation *op = nullptr;
  switch (which) {
#define NPL_BUILTIN_LOWERS_TO(Id, Op)                                          \
  case Builtin::Id:                                                            \
    op = b.create<np::Op>(l, resultTypes, operands,                            \
                          llvm::ArrayRef<mlir::NamedAttribute>{});             \
    break;
#include "dialects/NP/IR/Builtins.def"
  default:
    llvm_unreachable("a builtin with no NPL_BUILTIN_LOWERS_TO row");
  }
  return op->getNumResults() ? op->getResult(0) : Value();
}
