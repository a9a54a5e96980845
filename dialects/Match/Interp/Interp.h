//===- Interp.h - reference interpreter of the match dialect ----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The oracle of the match-unit compiler: evaluates a `match.program` on one
// header and one list item by NPL semantics (fixed-width two's complement
// integers, no undefined behaviour outside division by zero and
// over-wide shifts, which the unit cannot execute anyway). A program fails
// the item when any `match.fail_if` condition holds; otherwise it accepts
// it with the `match.accept` offset and length.
//
// The interpreter accepts every `arith` operation the front end, the
// canonicalizer and the match-dialect passes produce, so it can run on the
// IR between any two passes of the pipeline.
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_DIALECTS_MATCH_INTERP_INTERP_H
#define NPCC_DIALECTS_MATCH_INTERP_INTERP_H

#include "dialects/Match/IR/MatchOps.h"

#include "llvm/ADT/ArrayRef.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace npcc::match {

/// The decision of a program on one (header, item) pair.
struct Decision {
  bool accept = false;
  uint64_t offset = 0, length = 0;
  bool operator==(const Decision &o) const {
    return accept == o.accept &&
           (!accept || (offset == o.offset && length == o.length));
  }
};

/// The decision of a program on one header and a posted-receive list: the
/// first item that is accepted, as the list manager reports it.
struct ListDecision {
  int64_t match = -1; // item index, -1: no match
  uint64_t offset = 0, length = 0;
  bool operator==(const ListDecision &o) const {
    return match == o.match && offset == o.offset && length == o.length;
  }
};

using Words = std::array<uint64_t, 8>;

/// Evaluates `program` on `header` and `item` (words past the end of either
/// array read as 0). Fails with a message naming the operation when the
/// program contains an operation the interpreter does not define (division
/// by zero, a shift by the width or more, an unknown operation).
mlir::LogicalResult interpret(ProgramOp program,
                              llvm::ArrayRef<uint64_t> header,
                              llvm::ArrayRef<uint64_t> item, Decision &out,
                              std::string &error);

/// Runs `program` on every item of `list` for `header` in order and stops
/// at the first accepted item.
mlir::LogicalResult interpretList(ProgramOp program,
                                  llvm::ArrayRef<uint64_t> header,
                                  llvm::ArrayRef<Words> list, ListDecision &out,
                                  std::string &error);

/// Headers and a posted-receive list, as musim reads them
/// (runtime/musim/InputFiles.h).
struct ListCases {
  std::vector<Words> headers, list;
};

/// The decision of `program` for every header of `cases` (interpretList on
/// each, in order).
mlir::LogicalResult interpretCases(ProgramOp program, const ListCases &cases,
                                   std::vector<ListDecision> &out,
                                   std::string &error);

/// Prints one line per header in musim's answer format without cycles:
/// `header N: match I offset O length L` or `header N: no match`.
std::string formatListDecision(unsigned header, const ListDecision &d);

} // namespace npcc::match

#endif // NPCC_DIALECTS_MATCH_INTERP_INTERP_H
