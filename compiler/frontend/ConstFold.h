//===- ConstFold.h - Binary operators on compile-time integers --*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The one definition of what `a op b` is at compile time, used by the front
// end's ConstEval and by the Click lowering's port counter, so that both
// agree with each other and with the generated code.
//
//===----------------------------------------------------------------------===//

#ifndef NPCC_FRONTEND_CONSTFOLD_H
#define NPCC_FRONTEND_CONSTFOLD_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace npcc {

/// `u op v` (a binary operator of NPL, `&&` and `||` on 0/1 included) as
/// the generated code computes it, signed if `isSigned`; `isComparison` is
/// set for ==, !=, <, <=, > and >=, whose result is 0 or 1.
uint64_t foldBinary(llvm::StringRef op, uint64_t u, uint64_t v, bool isSigned,
                    bool &isComparison);

} // namespace npcc

#endif // NPCC_FRONTEND_CONSTFOLD_H
