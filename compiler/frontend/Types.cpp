//===- Types.cpp - NPL semantic types -------------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/AST.h"

using namespace npcc::ast;

bool Ty::operator==(const Ty &o) const {
  if (kind != o.kind)
    return false;
  switch (kind) {
  case Int:
    return width == o.width && isSigned == o.isSigned;
  case Header:
  case Record:
    return record == o.record;
  case Array:
  case Port:
  case Queue:
  case Lpm:
    return len == o.len && elem && o.elem && *elem == *o.elem;
  case Hash:
    return len == o.len && *elem == *o.elem && *key == *o.key;
  default:
    return true;
  }
}

std::string Ty::str() const {
  switch (kind) {
  case Error:
    return "<error>";
  case Void:
    return "void";
  case Bool:
    return "bool";
  case Int:
    return (isSigned ? "i" : "u") + std::to_string(width);
  case IntLit:
    return "integer literal";
  case Pkt:
    return "pkt";
  case Str:
    return "str";
  case Prefix:
    return "prefix";
  case Header:
  case Record:
    return record ? record->name : "?";
  case Array:
    return "[" + elem->str() + "; " + (len ? std::to_string(len) : "N") + "]";
  case Port:
    return "port of " + elem->str();
  case Queue:
  case Lpm:
  case Hash:
    return std::string(kind == Queue ? "queue<"
                       : kind == Lpm ? "lpm<"
                                     : "hash<") +
           (key ? key->str() + ", " : "") + elem->str() + ", " +
           (len ? std::to_string(len) : "N") + ">";
  }
  return "?";
}
