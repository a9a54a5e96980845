//===- SemaBuiltins.cpp - checks of calls of builtin functions ------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The arguments, result and context (handler, init, function, match
// program) of each builtin call.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/Sema.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/ErrorHandling.h"

using namespace npcc;
using namespace npcc::ast;

bool npcc::isPacketMetaField(llvm::StringRef name, unsigned &width) {
  width = name == "anno" || name == "ts" ? 64 : 32;
  return name == "in_port" || name == "paint" || name == "out_port" ||
         name == "anno" || name == "ts";
}

bool Sema::checkArity(Expr &e, size_t n) {
  if (e.args.size() == n)
    return true;
  error(e.loc) << "'" << e.text << "' takes " << n << " argument"
               << (n == 1 ? "" : "s") << ", " << e.args.size() << " given";
  return false;
}

/// A builtin whose row says it all: each argument coerced to its type.
Ty Sema::checkFixedCall(Expr &e, const BuiltinInfo &row) {
  Ty result = builtinType(row.result);
  if (!checkArity(e, row.minArgs))
    return row.rule == BuiltinInfo::FixedStrict ? Ty() : result;
  llvm::SmallVector<llvm::StringRef> params;
  llvm::StringRef(row.params).split(params, ' ', -1, /*KeepEmpty=*/false);
  for (size_t k = 0; k < e.args.size(); ++k)
    coerce(*e.args[k], builtinType(params[k]));
  return result;
}

Ty Sema::checkCall(Expr &e) {
  Builtin b = lookupBuiltin(e.text);
  if (b == Builtin::None) {
    if (const FnDecl *f = fns.lookup(e.text))
      return checkFnCall(e, *f);
    if (const RecordDecl *r = records.lookup(e.text); r && !r->isHeader)
      return checkConstructor(e, *r);
    error(e.loc) << "unknown function '" << e.text << "'";
    return Ty();
  }
  const BuiltinInfo &row = builtinInfo(b);
  if (currentFn && row.inFn == BuiltinInfo::NotInFn) {
    error(e.loc) << "'" << e.text
                 << "' is not allowed in a function: packets passed to a "
                    "function are borrowed, not owned";
    return Ty();
  }
  if (row.rule != BuiltinInfo::Special)
    return checkFixedCall(e, row);
  // The builtins whose rule is more than a list of types.
  auto arity = [&](size_t n) { return checkArity(e, n); };
  Ty pkt = Ty::of(Ty::Pkt), u32 = Ty::integer(32, false);
  switch (b) {
  case Builtin::TryRecv:
    error(e.loc) << "'try_recv' is used as 'if let v = try_recv(port) {...}'";
    return Ty();
  case Builtin::Accept:
    if (!inMatch)
      error(e.loc) << "'accept' is only allowed in a match program";
    else if (arity(row.minArgs)) {
      coerce(*e.args[0], Ty::integer(64, false));
      coerce(*e.args[1], Ty::integer(64, false));
    }
    return Ty::of(Ty::Void);
  case Builtin::Send: {
    if (!arity(row.minArgs))
      return Ty();
    const Ty *elem = expectPort(*e.args[0], /*wantInput=*/false);
    if (!elem)
      return Ty();
    coerce(*e.args[1], *elem);
    if (!inHandler && !inTimer)
      error(e.loc) << "'send' is only allowed in a handler or a timer";
    return Ty::of(Ty::Void);
  }
  case Builtin::Len: {
    if (!arity(row.minArgs))
      return Ty();
    Ty a = checkExpr(*e.args[0]);
    if (a.kind == Ty::Pkt || a.kind == Ty::Error)
      return u32;
    if ((a.kind == Ty::Array || a.kind == Ty::Queue || a.kind == Ty::Lpm ||
         a.kind == Ty::Hash) &&
        e.args[0]->kind == Expr::Name)
      return u32;
    if (a.kind == Ty::Str) // a constant: the number of the string's bytes
      return u32;
    error(e.loc) << "'len' needs a packet, an array or a string, found '"
                 << a.str() << "'";
    return Ty();
  }
  case Builtin::DeviceRecv:
  case Builtin::DeviceSend: {
    // A device number, or a pcap file's name (a constant string: Click's
    // FromDump/ToDump); an output file may give its link type ("ETHER",
    // "IP") and snap length.
    bool send = b == Builtin::DeviceSend;
    size_t n = e.args.size();
    if (n < row.minArgs || n > row.maxArgs) {
      error(e.loc) << "'" << e.text << "' takes "
                   << (send ? "a device or file, a packet, and optionally a "
                              "link type and a snap length"
                            : "a device or file");
      return Ty();
    }
    Ty dev = checkExpr(*e.args[0]);
    if (dev.kind != Ty::Str)
      coerce(*e.args[0], u32);
    if (send) {
      coerce(*e.args[1], pkt);
      if (n > 2 && checkExpr(*e.args[2]).kind != Ty::Str)
        error(e.args[2]->loc) << "a link type is a string: \"ETHER\" or "
                                 "\"IP\"";
      if (n > 2 && dev.kind != Ty::Str)
        error(e.args[2]->loc) << "only a file names its link type";
      if (n > 3)
        coerce(*e.args[3], u32);
    }
    return send ? Ty::of(Ty::Void) : pkt;
  }
  case Builtin::Enqueue:
    if (!arity(row.minArgs))
      return Ty();
    queueOperand(*e.args[0], "enqueue");
    coerce(*e.args[1], pkt);
    return Ty::of(Ty::Bool);
  case Builtin::Dequeue:
    error(e.loc) << "'dequeue' is used as 'if let p = dequeue(queue) {...}'";
    return Ty();
  case Builtin::Lookup:
    error(e.loc) << "'lookup' is used as 'if let v = lookup(table, key) "
                    "{...}'";
    return Ty();
  case Builtin::Insert:
  case Builtin::Remove: {
    bool ins = b == Builtin::Insert;
    if (!arity(row.minArgs))
      return Ty();
    const Ty *t = tableOperand(*e.args[0], e.text);
    if (!t)
      return Ty();
    coerce(*e.args[1], t->kind == Ty::Lpm ? Ty::of(Ty::Prefix) : *t->key);
    if (ins)
      coerce(*e.args[2], *t->elem);
    return Ty::of(Ty::Bool);
  }
  case Builtin::Clear:
    if (arity(row.minArgs))
      tableOperand(*e.args[0], "clear");
    return Ty::of(Ty::Void);
  case Builtin::Finish:
    arity(row.minArgs);
    if (!inHandler)
      error(e.loc) << "'finish' is only allowed in a handler";
    return Ty::of(Ty::Void);
  case Builtin::Load:
    if (arity(row.minArgs))
      checkLoad(e);
    return Ty::of(Ty::Void);
  case Builtin::RecvAny: {
    if (!arity(row.minArgs))
      return Ty();
    if (!inHandler)
      error(e.loc) << "'recv_any' is only allowed in a handler";
    Expr &arg = *e.args[0];
    const Symbol *sym = arg.kind == Expr::Name ? lookup(arg.text) : nullptr;
    Ty a = sym && sym->kind == Symbol::Port ? sym->ty : Ty();
    if (sym)
      sym->used = true;
    arg.ty = a;
    arg.checked = true;
    if (a.kind != Ty::Port || !a.len || !a.isSigned || !a.elem) {
      error(e.args[0]->loc) << "'recv_any' needs an input port array";
      return Ty();
    }
    return *a.elem;
  }
  case Builtin::Crc32:
  case Builtin::Crc32c:
    if (e.args.size() == 3) {
      coerce(*e.args[0], pkt);
      coerce(*e.args[1], u32);
      coerce(*e.args[2], u32);
      return u32;
    }
    if (e.args.size() != 1) {
      error(e.loc) << "'" << e.text
                   << "' takes a packet, an offset and a length, or one "
                      "integer";
      return Ty();
    }
    [[fallthrough]];
  case Builtin::Clz:
  case Builtin::Ctz:
  case Builtin::Popcount:
  case Builtin::Bswap: {
    if (!arity(1))
      return Ty();
    Ty a = checkExpr(*e.args[0]);
    if (a.kind == Ty::Error)
      return Ty();
    if (a.kind != Ty::Int) {
      error(e.args[0]->loc)
          << "'" << e.text << "' needs an integer of a declared type, found '"
          << a.str() << "'";
      return Ty();
    }
    bool bytes =
        b == Builtin::Bswap || b == Builtin::Crc32 || b == Builtin::Crc32c;
    if (bytes && a.width % 8 != 0) {
      error(e.args[0]->loc)
          << "'" << e.text << "' needs whole bytes, found '" << a.str() << "'";
      return Ty();
    }
    return b == Builtin::Bswap ? a : u32;
  }
  case Builtin::Hash:
    if (e.args.size() < row.minArgs || e.args.size() > row.maxArgs) {
      error(e.loc) << "'hash' takes " << row.minArgs << " to " << row.maxArgs
                   << " integers, " << e.args.size() << " given";
      return Ty();
    }
    for (ExprPtr &a : e.args) {
      Ty t = checkExpr(*a);
      if (t.kind == Ty::IntLit)
        coerce(*a, Ty::integer(64, false));
      else if (t.kind != Ty::Int && t.kind != Ty::Bool && t.kind != Ty::Error)
        error(a->loc) << "'hash' needs integers, found '" << t.str() << "'";
    }
    return u32;
  case Builtin::Print: {
    // print(p [, label [, max]]) prints a packet as Click's Print does;
    // print(label, value) an integer or bool.
    auto isStr = [&](Expr &a) {
      Ty t = checkExpr(a);
      if (t.kind != Ty::Str && t.kind != Ty::Error)
        error(a.loc) << "a label is a string literal or a 'str' parameter";
      return t.kind == Ty::Str;
    };
    if (e.args.size() < row.minArgs || e.args.size() > row.maxArgs) {
      error(e.loc) << "'print' takes a packet (a label and a length are "
                      "optional) or a label and a value";
      return Ty();
    }
    if (e.args[0]->kind == Expr::StrLit ||
        checkExpr(*e.args[0]).kind == Ty::Str) {
      if (!arity(2))
        return Ty();
      isStr(*e.args[0]);
      Ty v = checkExpr(*e.args[1]);
      if (v.kind == Ty::IntLit)
        coerce(*e.args[1], Ty::integer(64, false));
      else if (v.kind != Ty::Int && v.kind != Ty::Bool && v.kind != Ty::Error)
        error(e.args[1]->loc)
            << "'print' prints integers and bools, not '" << v.str() << "'";
      return Ty::of(Ty::Void);
    }
    coerce(*e.args[0], pkt);
    if (e.args.size() > 1)
      isStr(*e.args[1]);
    if (e.args.size() > 2)
      coerce(*e.args[2], Ty::integer(32, true));
    return Ty::of(Ty::Void);
  }
  case Builtin::PktWrite:
    if (arity(row.minArgs)) {
      coerce(*e.args[0], pkt);
      coerce(*e.args[1], u32);
      if (checkExpr(*e.args[2]).kind != Ty::Str)
        error(e.args[2]->loc)
            << "'pkt_write' writes a string literal or a 'str' parameter";
    }
    return Ty::of(Ty::Void);
  case Builtin::Min:
  case Builtin::Max: {
    if (!arity(row.minArgs))
      return Ty();
    Ty a = checkExpr(*e.args[0]);
    Ty c = checkExpr(*e.args[1]);
    if (a.kind == Ty::Error || c.kind == Ty::Error)
      return Ty();
    // max(3, 4) is a literal expression: its context gives the type.
    if (a.kind == Ty::IntLit && c.kind == Ty::IntLit)
      return Ty::of(Ty::IntLit);
    if (a.kind == Ty::IntLit)
      a = c;
    if (a.kind != Ty::Int) {
      error(e.loc) << "'" << e.text << "' needs integers";
      return Ty();
    }
    if (coerce(*e.args[0], a) && coerce(*e.args[1], a))
      return a;
    return Ty();
  }
  case Builtin::Prefix: {
    if (!arity(row.minArgs) || !coerce(*e.args[0], u32) ||
        !coerce(*e.args[1], Ty::integer(8, false)))
      return Ty();
    const Expr &len = *e.args[1];
    if (len.kind == Expr::IntLit && len.value > 32) {
      error(len.loc) << "prefix length " << len.value << " is not 0..32";
      return Ty();
    }
    return Ty::of(Ty::Prefix);
  }
  case Builtin::Classify:
  case Builtin::IPClassify: {
    if (!arity(row.minArgs))
      return Ty();
    coerce(*e.args[0], pkt);
    Ty pats = checkExpr(*e.args[1]);
    if (pats.kind != Ty::Error &&
        (pats.kind != Ty::Array || pats.elem->kind != Ty::Str ||
         e.args[1]->kind != Expr::Name))
      error(e.args[1]->loc)
          << "'" << e.text << "' needs a parameter holding pattern strings";
    return u32;
  }
  default:
    break;
  }
  llvm_unreachable("a Special row of Builtins.def with no check here");
}

/// `load(path, handler)`: `path` a string, `handler` the name of a write
/// handler of this element that takes arguments (a line of the file gives
/// them), in init, before packets flow.
void Sema::checkLoad(Expr &e) {
  Expr &path = *e.args[0], &name = *e.args[1];
  // The handler is named, not evaluated.
  name.checked = true;
  name.ty = Ty::of(Ty::Void);
  if (!inInit || !currentElement) {
    error(e.loc) << "'load' is only allowed in init";
    return;
  }
  Ty pt = checkExpr(path);
  if (pt.kind != Ty::Str && pt.kind != Ty::Error)
    error(path.loc) << "'load' reads a file named by a string literal or a "
                       "'str' parameter, not '"
                    << pt.str() << "'";
  if (name.kind != Expr::Name) {
    error(name.loc) << "'load' needs the name of a write handler of element '"
                    << currentElement->name << "'";
    return;
  }
  const ControlDecl *read = nullptr;
  for (const ControlDecl &c : currentElement->controls) {
    if (c.name != name.text)
      continue;
    if (!c.isWrite) {
      read = &c;
      continue;
    }
    if (c.params.empty())
      errorWithNote(name.loc,
                    "write handler '" + c.name +
                        "' takes no arguments, so no line of a file can "
                        "call it",
                    c.loc, "declared here");
    return;
  }
  if (read)
    errorWithNote(name.loc,
                  "'" + name.text +
                      "' is a read handler; 'load' calls a "
                      "write handler once per line",
                  read->loc, "declared here");
  else
    error(name.loc) << "element '" << currentElement->name
                    << "' has no write handler '" << name.text << "'";
}

bool Sema::queueOperand(Expr &e, llvm::StringRef what) {
  Ty t = checkExpr(e);
  if (t.kind == Ty::Error)
    return false;
  if (t.kind != Ty::Queue || e.kind != Expr::Name) {
    error(e.loc) << "'" << what << "' needs a queue of the element's state, "
                 << "found '" << t.str() << "'";
    return false;
  }
  return true;
}

/// The type of a table of the element's state named by `e`, or null.
const Ty *Sema::tableOperand(Expr &e, llvm::StringRef what) {
  checkExpr(e);
  if (e.ty.kind == Ty::Error)
    return nullptr;
  if ((e.ty.kind != Ty::Lpm && e.ty.kind != Ty::Hash) || e.kind != Expr::Name) {
    error(e.loc) << "'" << what << "' needs a table of the element's state "
                 << "(lpm<V, N> or hash<K, V, N>), found '" << e.ty.str()
                 << "'";
    return nullptr;
  }
  return &e.ty;
}
