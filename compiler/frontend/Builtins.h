//===- Builtins.h - NPL's builtin functions ---------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The builtins of dialects/NP/IR/Builtins.def as the front end sees them:
// an id per builtin, looked up by name, and its row (arity, types, rule).
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_FRONTEND_BUILTINS_H
#define NPCC_FRONTEND_BUILTINS_H

#include "compiler/frontend/AST.h"

#include "llvm/ADT/StringRef.h"

namespace npcc {

/// What a builtin function is; Sema and MLIRGen dispatch on it.
enum class Builtin {
  None,
#define NPL_BUILTIN(Id, ...) Id,
#include "dialects/NP/IR/Builtins.def"
};

/// The row of a builtin in Builtins.def.
struct BuiltinInfo {
  enum Rule { Fixed, FixedStrict, Special };
  enum InFunction { InFn, NotInFn };
  Builtin id;
  const char *name;
  unsigned minArgs, maxArgs;
  const char *params; // NPL types, space-separated
  const char *result;
  Rule rule;
  InFunction inFn;
  const char *whyNotInMatch; // null: a match program may call it
};

/// Builtin::None if `name` is not a builtin.
Builtin lookupBuiltin(llvm::StringRef name);
/// The row of `b` (not Builtin::None).
const BuiltinInfo &builtinInfo(Builtin b);
/// The NPL type a row names where it is one type ("pkt", "bool", "void" or
/// an integer type such as "u32"): every param and the result of a Fixed
/// row, and the result of an NPL_BUILTIN_LOWERS_TO one.
ast::Ty builtinType(llvm::StringRef name);

} // namespace npcc

#endif // NPCC_FRONTEND_BUILTINS_H
