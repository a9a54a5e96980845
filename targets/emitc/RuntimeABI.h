//===- RuntimeABI.h - libnprt as the C lowering sees it ---------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The functions, structs and metadata fields of runtime/include/nprt/abi.def,
// the same file nprt.h is declared from. The lowering names runtime entities
// only through these tables.
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_TARGETS_EMITC_RUNTIMEABI_H
#define NPCC_TARGETS_EMITC_RUNTIMEABI_H

#include "mlir/IR/Builders.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace npcc::toemitc::abi {

/// Every function of the ABI, in abi.def order.
enum class Fn {
#define NPRT_ABI_FN(name, result, arity, params) name,
#define NPRT_ABI_INLINE(name, result, arity, params) name,
#include "runtime/include/nprt/abi.def"
};

/// What a function returns, as abi.def spells it.
enum class Result { VOID, BOOL, INT, U32, U64, PKT, PTR, INST };

struct FnInfo {
  llvm::StringLiteral name;
  Result result;
  unsigned arity;
};

const FnInfo &info(Fn fn);

/// The C type of packet handles (`nprt_pkt *`) and instances
/// (`nprt_inst *`).
mlir::Type packetType(mlir::MLIRContext *ctx);
mlir::Type instanceType(mlir::MLIRContext *ctx);

/// The MLIR type a call of `fn` returns, or null for void.
mlir::Type resultType(mlir::MLIRContext *ctx, Fn fn);

/// One argument of a call: an SSA value, an unsigned literal, or C text
/// (an enumerator such as NPRT_META_PAINT).
struct Arg {
  Arg(mlir::Value v) : value(v) {}
  Arg(uint64_t n) : text(std::to_string(n) + "u") {}
  Arg(llvm::StringRef t) : text(t.str()) {}
  mlir::Value value;
  std::string text;
};

/// Emits a call of `fn`; the number of arguments must be its arity.
mlir::Value call(mlir::OpBuilder &b, mlir::Location loc, Fn fn,
                 llvm::ArrayRef<Arg> args);

/// The enumerator of packet metadata field `nplName`, if it has one.
std::optional<llvm::StringRef> metaEnumerator(llvm::StringRef nplName);

/// The fields of the ABI struct `name`, in declaration order.
llvm::SmallVector<llvm::StringRef> structFields(llvm::StringRef name);

/// `{.a = x, .b = y}` over the fields of the ABI struct `strct`, in order;
/// `values` must give every field and no other.
std::string designated(llvm::StringRef strct,
                       const llvm::StringMap<std::string> &values);

} // namespace npcc::toemitc::abi

#endif // NPCC_TARGETS_EMITC_RUNTIMEABI_H
