//===- TypeLayout.cpp - bit layout of headers, structs, tables ------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Where the fields of a header sit in the packet, where those of a match
// program's structs sit in the words the list manager streams, and how many
// 64-bit words a table key or value takes.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/Sema.h"

using namespace npcc;
using namespace npcc::ast;

bool Sema::headerField(const RecordDecl &h, llvm::StringRef field,
                       unsigned &bitOffset, unsigned &width) {
  unsigned off = 0;
  for (const Field &f : h.fields) {
    unsigned w = 0;
    if (f.type->kind == TypeRef::Named && f.type->name.size() > 1)
      w = std::atoi(f.type->name.c_str() + 1);
    if (f.name == field) {
      bitOffset = off;
      width = w;
      return true;
    }
    off += w;
  }
  return false;
}

static unsigned fieldBits(const Field &f) {
  if (f.type->kind != TypeRef::Named)
    return 0;
  if (f.type->name == "bool")
    return 1;
  if (f.type->name.size() > 1 &&
      (f.type->name[0] == 'u' || f.type->name[0] == 'i'))
    return std::atoi(f.type->name.c_str() + 1);
  return 0;
}

bool Sema::matchField(const RecordDecl &r, llvm::StringRef field,
                      unsigned &word, unsigned &lsb, unsigned &width) {
  unsigned w = 0, bit = 0;
  for (const Field &f : r.fields) {
    unsigned n = fieldBits(f);
    if (n == 0 || n > 64)
      return false;
    if (bit + n > 64) {
      ++w;
      bit = 0;
    }
    if (f.name == field) {
      word = w;
      lsb = bit;
      width = n;
      return true;
    }
    bit += n;
  }
  return false;
}

unsigned Sema::matchWords(const RecordDecl &r) {
  unsigned w = 0, bit = 0;
  for (const Field &f : r.fields) {
    unsigned n = fieldBits(f);
    if (bit + n > 64) {
      ++w;
      bit = 0;
    }
    bit += n;
  }
  return bit ? w + 1 : w;
}

/// 64-bit words a table key or value of type `t` takes: fields are packed
/// in order, a field that does not fit in what is left of a word starts the
/// next one. 0 for a type a table cannot hold.
unsigned Sema::tableWords(const Ty &t) {
  auto bits = [&](const Ty &x) -> unsigned {
    if (x.kind == Ty::Int)
      return x.width;
    if (x.kind == Ty::Bool)
      return 1;
    if (x.kind == Ty::Prefix)
      return 64;
    return 0;
  };
  if (t.kind != Ty::Record)
    return bits(t) ? 1 : 0;
  unsigned words = 0, used = 64;
  for (const Field &f : t.record->fields) {
    unsigned w = bits(resolve(*f.type, false));
    if (!w)
      return 0;
    if (used + w > 64) {
      ++words;
      used = 0;
    }
    used += w;
  }
  return words;
}
