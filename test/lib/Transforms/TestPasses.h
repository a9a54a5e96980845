//===- TestPasses.h - passes only the test tools register -------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Passes with planted bugs, as MLIR's test/lib holds passes only mlir-opt's
// tests reach: they give the tests of npsmith-reduce a known miscompile to
// find and shrink. No tool a user runs registers them.
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_TEST_LIB_TRANSFORMS_TESTPASSES_H
#define NPCC_TEST_LIB_TRANSFORMS_TESTPASSES_H

namespace npcc::test {

/// `test-np-unroll-off-by-one`: np-unroll, but an `unroll` loop loses its
/// last iteration.
void registerTestUnrollOffByOne();

} // namespace npcc::test

#endif // NPCC_TEST_LIB_TRANSFORMS_TESTPASSES_H
