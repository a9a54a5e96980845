//===- Builtins.cpp - the table of NPL's builtin functions ----------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/Builtins.h"

#include "llvm/ADT/StringMap.h"

using namespace npcc;

/// The number of space-separated words of `s`.
static constexpr unsigned countWords(const char *s) {
  unsigned n = 0;
  for (bool inWord = false; *s; ++s) {
    bool space = *s == ' ';
    n += !space && !inWord;
    inWord = !space;
  }
  return n;
}

/// Whether a GIVES_PACKET or TAKES_PACKET row names `b`.
static constexpr bool movesPacket(Builtin b) {
  switch (b) {
#define NPL_BUILTIN_GIVES_PACKET(Id, origin) case Builtin::Id:
#define NPL_BUILTIN_TAKES_PACKET(Id, arg, how) case Builtin::Id:
#include "dialects/NP/IR/Builtins.def"
    return true;
  default:
    return false;
  }
}

// A row checked from its types alone names one type per argument; a
// builtin a function may not call makes or takes an owned packet.
#define NPL_BUILTIN(Id, name, minArgs, maxArgs, params, result, rule, inFn,    \
                    whyNotInMatch)                                             \
  static_assert(BuiltinInfo::rule == BuiltinInfo::Special ||                   \
                    (minArgs == maxArgs && countWords(params) == minArgs),     \
                "the params of builtin '" name "' do not match its arity");    \
  static_assert(BuiltinInfo::inFn == BuiltinInfo::InFn ||                      \
                    movesPacket(Builtin::Id),                                  \
                "builtin '" name "' is NotInFn but has no GIVES_PACKET or "    \
                "TAKES_PACKET row");
#include "dialects/NP/IR/Builtins.def"

static constexpr BuiltinInfo kBuiltins[] = {
#define NPL_BUILTIN(Id, name, minArgs, maxArgs, params, result, rule, inFn,    \
                    whyNotInMatch)                                             \
  {Builtin::Id,  name,   minArgs,           maxArgs,                           \
   params,       result, BuiltinInfo::rule, BuiltinInfo::inFn,                 \
   whyNotInMatch},
#include "dialects/NP/IR/Builtins.def"
};

// The packet a builtin takes over is an argument every call has.
#define NPL_BUILTIN_TAKES_PACKET(Id, arg, how)                                 \
  static_assert(arg < kBuiltins[(unsigned)Builtin::Id - 1].minArgs,            \
                "builtin " #Id " takes over an argument it may not have");
#include "dialects/NP/IR/Builtins.def"

Builtin npcc::lookupBuiltin(llvm::StringRef name) {
  static const llvm::StringMap<Builtin> byName = [] {
    llvm::StringMap<Builtin> m;
    for (const BuiltinInfo &b : kBuiltins)
      m[b.name] = b.id;
    return m;
  }();
  return byName.lookup(name); // Builtin::None when absent
}

const BuiltinInfo &npcc::builtinInfo(Builtin b) {
  // The rows are in the order of the enum, after None.
  return kBuiltins[(unsigned)b - 1];
}

ast::Ty npcc::builtinType(llvm::StringRef name) {
  using ast::Ty;
  if (name == "pkt")
    return Ty::of(Ty::Pkt);
  if (name == "bool")
    return Ty::of(Ty::Bool);
  if (name == "void")
    return Ty::of(Ty::Void);
  bool isSigned = name.consume_front("i");
  if (!isSigned)
    name.consume_front("u");
  unsigned width = 0;
  name.getAsInteger(10, width);
  return Ty::integer(width, isSigned);
}
