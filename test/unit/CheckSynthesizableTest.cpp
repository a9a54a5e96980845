//===- CheckSynthesizableTest.cpp - calls in np-check-synthesizable -------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// A `func.call` inside an `np.element` never passes the IR verifier (the
// element is a symbol table of its own, so the callee does not resolve),
// and the front end inlines every NPL `fn`; so no lit test can hand the
// lint a call. These tests parse such IR without verifying it and check
// that the lint still rejects recursion, calls without a body and indirect
// calls, and checks a called function like a body.
//
//===----------------------------------------------------------------------===//

#include "dialects/NP/IR/NPDialect.h"
#include "targets/hls/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

struct Result {
  bool passed;
  /// "line: severity: message" of every diagnostic, notes included.
  std::vector<std::string> diagnostics;
};

/// Parses `ir` without verifying it and runs np-check-synthesizable.
Result lint(llvm::StringRef ir) {
  mlir::MLIRContext ctx;
  ctx.loadDialect<npcc::np::NPDialect, mlir::arith::ArithDialect,
                  mlir::func::FuncDialect, mlir::memref::MemRefDialect,
                  mlir::scf::SCFDialect>();
  ctx.printOpOnDiagnostic(false);
  Result r;
  auto record = [&](mlir::Location loc, llvm::StringRef severity,
                    const llvm::Twine &message) {
    unsigned line = 0;
    if (auto file = llvm::dyn_cast<mlir::FileLineColLoc>(loc))
      line = file.getLine();
    r.diagnostics.push_back(std::to_string(line) + ": " + severity.str() +
                            ": " + message.str());
  };
  mlir::ScopedDiagnosticHandler handler(&ctx, [&](mlir::Diagnostic &d) {
    record(d.getLocation(),
           d.getSeverity() == mlir::DiagnosticSeverity::Error ? "error"
                                                              : "other",
           d.str());
    for (mlir::Diagnostic &note : d.getNotes())
      record(note.getLocation(), "note", note.str());
    return mlir::success();
  });
  mlir::ParserConfig config(&ctx, /*verifyAfterParse=*/false);
  auto module = mlir::parseSourceString<mlir::ModuleOp>(ir, config, "t");
  EXPECT_TRUE(module) << "the test IR does not parse";
  if (!module)
    return {false, {}};
  mlir::PassManager pm(&ctx);
  pm.enableVerifier(false);
  pm.addPass(npcc::hls::createCheckSynthesizable());
  r.passed = mlir::succeeded(pm.run(*module));
  return r;
}

TEST(CheckSynthesizable, RecursionIsAnErrorWithTheCycleAsNotes) {
  Result r = lint(R"mlir(
func.func @even(%x: i32) -> i32 {
  %r = func.call @odd(%x) : (i32) -> i32
  return %r : i32
}
func.func @odd(%x: i32) -> i32 {
  %r = func.call @even(%x) : (i32) -> i32
  return %r : i32
}
np.element @Parity {
  np.port @i in : i32
  np.handler {
    %v = np.recv @i : i32
    %r = func.call @even(%v) : (i32) -> i32
  }
}
)mlir");
  EXPECT_FALSE(r.passed);
  std::vector<std::string> expected = {
      "7: error: element 'Parity' cannot run on the FPGA: recursion: the call "
      "to @even closes a cycle of calls; HLS has no call stack: write the "
      "recursion as a bounded loop",
      "14: note: in the cycle: call to @even",
      "3: note: in the cycle: call to @odd"};
  EXPECT_EQ(r.diagnostics, expected);
}

TEST(CheckSynthesizable, CallWithoutBody) {
  Result r = lint(R"mlir(
func.func private @extern(i32) -> i32
np.element @Ext {
  np.port @i in : i32
  np.handler {
    %v = np.recv @i : i32
    %r = func.call @extern(%v) : (i32) -> i32
  }
}
)mlir");
  EXPECT_FALSE(r.passed);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0],
            "7: error: element 'Ext' cannot run on the FPGA: call to @extern, "
            "which has no body in the module; HLS inlines or instantiates "
            "every callee (NPL `fn`s are inlined by the front end)");
}

TEST(CheckSynthesizable, IndirectCall) {
  Result r = lint(R"mlir(
func.func @twice(%x: i32) -> i32 {
  %r = arith.addi %x, %x : i32
  return %r : i32
}
np.element @Indirect {
  np.port @i in : i32
  np.handler {
    %v = np.recv @i : i32
    %f = func.constant @twice : (i32) -> i32
    %r = func.call_indirect %f(%v) : (i32) -> i32
  }
}
)mlir");
  EXPECT_FALSE(r.passed);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0],
            "11: error: element 'Indirect' cannot run on the FPGA: indirect "
            "call: HLS needs every callee known at compile time to inline it");
}

TEST(CheckSynthesizable, CalledFunctionIsCheckedLikeABody) {
  Result r = lint(R"mlir(
func.func @spin(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %k = %c0 to %n step %c1 {
  }
  return
}
func.func @fine(%x: i32) -> i32 {
  return %x : i32
}
np.element @Spin {
  np.port @i in : i32
  np.handler {
    %v = np.recv @i : i32
    %n = arith.index_cast %v : i32 to index
    func.call @spin(%n) : (index) -> ()
    func.call @spin(%n) : (index) -> ()
    %w = func.call @fine(%v) : (i32) -> i32
  }
}
)mlir");
  EXPECT_FALSE(r.passed);
  // Reported once, though called twice.
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].rfind("5: error: element 'Spin' cannot run on "
                                   "the FPGA: loop runs at most ? iterations",
                                   0),
            0u)
      << r.diagnostics[0];
}

} // namespace
