//===- Limits.h - the sizes npcc refuses to go beyond -----------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Input that exceeds one of these gets a located error instead of a stack
// overflow, an out-of-memory kill or a hang. docs/language.md lists them.
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_FRONTEND_LIMITS_H
#define NPCC_FRONTEND_LIMITS_H

#include <cstdint>

namespace npcc::limits {

/// Nesting of expressions (operands, parentheses, unary operators, `?:`) and
/// of blocks. Every recursive pass over the AST is bounded by it.
constexpr unsigned kMaxNestingDepth = 256;

/// Graphs instantiating graphs, counted from the top graph.
constexpr unsigned kMaxGraphDepth = 64;

/// Ports in one port array (`out o[N]: pkt;`).
constexpr uint64_t kMaxPortArraySize = 65536;

/// Statements one compile-time function call may run (a `for` loop's
/// iterations count one each): a larger loop is reported, not waited for.
constexpr uint64_t kMaxConstFnSteps = 1u << 20;

/// Bytes in one source file (the main file, an import, or stdin).
constexpr uint64_t kMaxInputBytes = 16u << 20;

/// Bytes in one string literal, after escapes. Strings are classifier
/// patterns and parameters; every pattern byte becomes a compare in the
/// generated code, so a 1 MB pattern took minutes to compile.
constexpr uint64_t kMaxStringBytes = 4096;

/// Errors reported before npcc stops (`-ferror-limit=N`, 0: no limit).
constexpr unsigned kDefaultErrorLimit = 20;

} // namespace npcc::limits

#endif // NPCC_FRONTEND_LIMITS_H
