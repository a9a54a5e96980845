//===- SemaTypes.cpp - resolving written NPL types ------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// A written type (`u16`, `[u8; 4]`, `lpm<V, N>`, a struct's name) becomes
// a Ty; containers of state are checked for what they can hold.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/Sema.h"

using namespace npcc;
using namespace npcc::ast;

/// Parses `u8`, `i32`, ... into width and signedness.
static bool parseIntTypeName(llvm::StringRef name, unsigned &width,
                             bool &isSigned) {
  if (name.size() < 2 || (name[0] != 'u' && name[0] != 'i'))
    return false;
  if (name.drop_front().getAsInteger(10, width) || width < 1 || width > 64)
    return false;
  isSigned = name[0] == 'i';
  return true;
}

Ty Sema::resolve(const TypeRef &t, bool report) {
  if (t.kind == TypeRef::Queue)
    return resolveContainer(t, report);
  if (t.kind == TypeRef::Array) {
    Ty elem = resolve(*t.elem, report);
    if (elem.kind == Ty::Error)
      return elem;
    if (elem.kind != Ty::Int && elem.kind != Ty::Bool &&
        elem.kind != Ty::Record && elem.kind != Ty::Prefix) {
      if (report)
        error(t.loc) << "array elements must be integers, bools, prefixes or "
                        "structs, not '"
                     << elem.str() << "'";
      return Ty();
    }
    if (!t.size && report && !unsizedArrayOk) {
      error(t.loc) << "an array without a size ('" << "[" << elem.str()
                   << "]') is only a function parameter's type";
      return Ty();
    }
    Ty a = Ty::of(Ty::Array);
    a.elem = std::make_shared<Ty>(elem);
    return a;
  }
  unsigned w;
  bool s;
  if (parseIntTypeName(t.name, w, s))
    return Ty::integer(w, s);
  if (t.name == "bool")
    return Ty::of(Ty::Bool);
  if (t.name == "pkt")
    return Ty::of(Ty::Pkt);
  if (t.name == "str")
    return Ty::of(Ty::Str);
  if (t.name == "prefix")
    return Ty::of(Ty::Prefix);
  if (const RecordDecl *r = records.lookup(t.name)) {
    Ty rt = Ty::of(r->isHeader ? Ty::Header : Ty::Record);
    rt.record = r;
    return rt;
  }
  if (report)
    error(t.loc) << "unknown type '" << t.name << "'";
  return Ty();
}

/// `queue<pkt, N>`, `lpm<V, N>` and `hash<K, V, N>`: containers in state.
Ty Sema::resolveContainer(const TypeRef &t, bool report) {
  Ty elem = resolve(*t.elem, report);
  Ty key = t.key ? resolve(*t.key, report) : Ty::of(Ty::Void);
  if (elem.kind == Ty::Error || key.kind == Ty::Error)
    return Ty();
  Ty c;
  if (t.name == "queue" && !t.key && elem.kind == Ty::Pkt) {
    c = Ty::of(Ty::Queue);
  } else if (t.name == "lpm" && !t.key) {
    if (tableWords(elem) != 1) {
      if (report)
        error(t.elem->loc) << "an lpm value is an integer, bool, prefix or "
                              "struct of at most 64 bits, not '"
                           << elem.str() << "'";
      return Ty();
    }
    c = Ty::of(Ty::Lpm);
  } else if (t.name == "hash" && t.key) {
    unsigned kw = tableWords(key), vw = tableWords(elem);
    if (kw == 0 || kw > 4 || vw == 0 || vw > 8) {
      if (report)
        error(t.loc) << "a hash key is an integer, bool, prefix or struct of "
                        "at most 4 words, a value one of at most 8 words; '"
                     << key.str() << "' takes " << kw << ", '" << elem.str()
                     << "' " << vw;
      return Ty();
    }
    c = Ty::of(Ty::Hash);
    c.key = std::make_shared<Ty>(key);
  } else {
    if (report)
      error(t.loc) << "unknown type '" << t.name << "<...>'; state holds "
                   << "'queue<pkt, N>', 'lpm<V, N>' or 'hash<K, V, N>'";
    return Ty();
  }
  c.elem = std::make_shared<Ty>(elem);
  return c;
}
