//===- RuntimeABI.cpp - libnprt as the C lowering sees it -----------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "targets/emitc/RuntimeABI.h"

#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace npcc::toemitc;

namespace {
const abi::FnInfo Functions[] = {
#define NPRT_ABI_FN(name, result, arity, params)                               \
  {#name, abi::Result::result, arity},
#define NPRT_ABI_INLINE(name, result, arity, params)                           \
  {#name, abi::Result::result, arity},
#include "runtime/include/nprt/abi.def"
};

const llvm::StringLiteral StructFields[] = {
#define NPRT_ABI_FIELD(strct, field, ctype) #strct "." #field,
#include "runtime/include/nprt/abi.def"
};
} // namespace

const abi::FnInfo &abi::info(Fn fn) { return Functions[(unsigned)fn]; }

Type abi::packetType(MLIRContext *ctx) {
  return emitc::PointerType::get(emitc::OpaqueType::get(ctx, "nprt_pkt"));
}

Type abi::instanceType(MLIRContext *ctx) {
  return emitc::PointerType::get(emitc::OpaqueType::get(ctx, "nprt_inst"));
}

Type abi::resultType(MLIRContext *ctx, Fn fn) {
  switch (info(fn).result) {
  case Result::VOID:
    return {};
  case Result::BOOL:
    return IntegerType::get(ctx, 1);
  case Result::INT:
  case Result::U32:
    return IntegerType::get(ctx, 32);
  case Result::U64:
    return IntegerType::get(ctx, 64);
  case Result::PKT:
    return packetType(ctx);
  case Result::PTR:
    return emitc::PointerType::get(emitc::OpaqueType::get(ctx, "void"));
  case Result::INST:
    return instanceType(ctx);
  }
  llvm_unreachable("unknown result kind");
}

Value abi::call(OpBuilder &b, Location loc, Fn fn, ArrayRef<Arg> args) {
  const FnInfo &f = info(fn);
  assert(args.size() == f.arity &&
         "call does not match the arity in nprt/abi.def");
  MLIRContext *ctx = b.getContext();
  SmallVector<Value> operands;
  SmallVector<Attribute> list;
  bool literals = false;
  for (const Arg &a : args) {
    if (a.value) {
      list.push_back(b.getIndexAttr(operands.size()));
      operands.push_back(a.value);
    } else {
      list.push_back(emitc::OpaqueAttr::get(ctx, a.text));
      literals = true;
    }
  }
  Type result = resultType(ctx, fn);
  auto op = b.create<emitc::CallOpaqueOp>(
      loc, result ? TypeRange(result) : TypeRange(), b.getStringAttr(f.name),
      operands, literals ? b.getArrayAttr(list) : ArrayAttr(), ArrayAttr());
  return result ? op.getResult(0) : Value();
}

std::optional<StringRef> abi::metaEnumerator(StringRef nplName) {
  return llvm::StringSwitch<std::optional<StringRef>>(nplName)
#define NPRT_ABI_META(npl, enumerator, value) .Case(#npl, #enumerator)
#include "runtime/include/nprt/abi.def"
      .Default(std::nullopt);
}

SmallVector<StringRef> abi::structFields(StringRef name) {
  SmallVector<StringRef> fields;
  for (StringRef f : StructFields) {
    auto [strct, field] = f.split('.');
    if (strct == name)
      fields.push_back(field);
  }
  return fields;
}

std::string abi::designated(StringRef strct,
                            const llvm::StringMap<std::string> &values) {
  std::string out = "{";
  llvm::raw_string_ostream os(out);
  llvm::ListSeparator sep(", ");
  for (StringRef field : abi::structFields(strct)) {
    auto it = values.find(field);
    assert(it != values.end() && "abi.def field the lowering does not set");
    os << sep << "." << field << " = " << it->second;
  }
  os << "}";
  assert(values.size() == abi::structFields(strct).size() &&
         "lowering sets a field abi.def does not have");
  return out;
}
