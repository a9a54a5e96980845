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

def AnnotateCosts : Pass<"c-annotate-costs", "mlir::ModuleOp"> {
  let summary = "Cost annotations for npsim: cycles per basic block, state accesses";
  let description = [{
    Runs on the finished EmitC module. Every basic block of every function
    but `main` starts with `NPRT_SIM_BLOCK(cycles, code_offset,
    code_bytes)`: the sum of its operations' static costs (CostTable.h;
    a loop body adds its compare, increment and branch), and where its
    instructions lie (4 bytes each, blocks in module order), for the
    simulated instruction cache. Before every statement that reads or
    writes an element of an element's state or shared state (an
    `emitc.subscript` of an `emitc.member_of_ptr`) comes
    `NPRT_SIM_RD(x)` or `NPRT_SIM_WR(x)` with that element. nprt.h defines
    the three to nothing unless `NPRT_SIM` is defined (`npcc --sim`), where
    npsim charges the cycles and the access to the memory the element's
    object lies in (docs/npsim.md).
  }];
  let dependentDialects = ["mlir::emitc::EmitCDialect"];
}

#endif // NPCC_TARGETS_C_PASSES
