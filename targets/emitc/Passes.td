//===- Passes.td - the EmitC steps the C and HLS targets share -*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The passes both targets run after their conversion of np IR
// (c-convert-np-to-emitc, hls-convert-np-to-emitc): integer widths, the
// other dialects to EmitC, and the check that only EmitC is left. Their
// flags keep the c- of the C printer they prepare for.
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_TARGETS_EMITC_PASSES
#define NPCC_TARGETS_EMITC_PASSES

include "mlir/Pass/PassBase.td"

def LegalizeIntWidths : Pass<"c-legalize-int-widths", "mlir::ModuleOp"> {
  let summary = "Carry u1..u64 values in C's 8/16/32/64-bit integers";
  let description = [{
    C has no 4-, 13- or 48-bit integers, but NPL headers do. Every iN value
    with N not in {1, 8, 16, 32, 64} is carried zero-extended in the
    smallest C integer type that holds it. Arithmetic that can carry into
    the spare bits is masked; operations that read a value as signed
    sign-extend it from bit N-1 first. The result computes exactly what the
    iN program computes.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect"];
}

def ConvertToEmitC : Pass<"c-convert-to-emitc", "mlir::ModuleOp"> {
  let summary = "Lower func/arith/scf/memref to EmitC in one conversion";
  let description = [{
    Runs the upstream arith, memref and SCF to EmitC patterns together with
    our own func lowering in a single dialect conversion that shares one
    type converter (index to size_t, memref to arrays). The upstream passes
    do not compose when chained in MLIR 19. Remaining one-to-one
    unrealized casts become `emitc.cast`.
  }];
  let dependentDialects = ["mlir::emitc::EmitCDialect"];
}

def VerifyCContract : Pass<"verify-c-contract", "mlir::ModuleOp"> {
  let summary = "Check that only what the C printer accepts remains";
  let description = [{
    The C emitter prints EmitC and nothing else. This pass reports every
    other operation with its location, so a missing lowering is a
    diagnostic instead of a printer failure.
  }];
}

#endif // NPCC_TARGETS_EMITC_PASSES
