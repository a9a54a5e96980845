//===- Passes.td - C target passes -------------------------*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_TARGETS_C_PASSES
#define NPCC_TARGETS_C_PASSES

include "mlir/Pass/PassBase.td"

def ConvertNPToEmitC : Pass<"c-convert-np-to-emitc", "mlir::ModuleOp"> {
  let summary = "Lower np elements, ports, packets and the program to EmitC";
  let description = [{
    One dialect conversion with a type converter (`!np.pkt` to
    `nprt_pkt *`, `!np.self` to `nprt_inst *`) in which every np operation
    is illegal. Expects the form the np passes produce: one `np.program`
    (np-describe-graph), one element per instance (np-instantiate-elements)
    and state reached through `!np.self` (np-make-state-explicit).

    - An element becomes a `typedef struct <prefix>_state` holding its
      state (plus a constant `<prefix>_state_init` image if some state
      starts non-zero) and one `static` function per body taking
      `nprt_inst *self` (and the `int64_t` message for a signal).
    - `np.state_field` reads a member of the object `nprt_state(self)`
      returns, or for a `shared` state of the one `nprt_shared(self)`
      returns (a `typedef struct npcc_shared_<j>_<name>` per source name,
      declared before its first element): there is no mutable file-scope
      variable in the output.
    - Port, device and packet operations become calls of libnprt, with
      ports as indices; names and arities come from
      `runtime/include/nprt/abi.def`, from which `nprt.h` is declared.
    - `np.program` becomes constant `nprt_shared_desc`,
      `nprt_instance_desc`, `nprt_channel_desc` and `nprt_program` tables
      and a `main` that calls `nprt_main`.

    arith, scf and memref operations are left for c-convert-to-emitc; a
    state's memref is an `unrealized_conversion_cast` of the member array.
  }];
  let dependentDialects = ["mlir::emitc::EmitCDialect",
                           "mlir::arith::ArithDialect"];
}

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

#endif // NPCC_TARGETS_C_PASSES
