//===- Passes.td - the HLS target's passes ------------------*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef NPCC_TARGETS_HLS_PASSES
#define NPCC_TARGETS_HLS_PASSES

include "mlir/Pass/PassBase.td"

def ConvertNPToHLS : Pass<"hls-convert-np-to-emitc", "mlir::ModuleOp"> {
  let summary = "Lower np elements and the program to HLS C++ in EmitC";
  let description = [{
    The HLS counterpart of `c-convert-np-to-emitc`, with the same patterns
    for elements, state and bodies (they call the ABI of `nprt/abi.def`,
    which `runtime/hls/include/nphls/nphls.h` implements on hls::stream
    ports), and its own lowering of the `np.program`:

    - every instance becomes a free-running process function
      `npcc_<k>_<instance>(...)` whose arguments are `hls::stream`
      references, one per port in declaration order (packets as
      `nphls_flit` streams, integers as `ap_uint<64>` streams), then one
      per device the element reads or writes; its state is a `static`
      object, and each call runs the handler once when a value waits on a
      port it receives first (`np::pushPortMask`) or on its input device;
    - a top function `npcc_top` takes the input devices, then the output
      devices, as AXI streams, declares one stream per channel with the
      channel's depth (`#pragma HLS STREAM`) and calls every process under
      `#pragma HLS DATAFLOW`;
    - state arrays get storage pragmas from `np::hlsMemoryKind`: small
      arrays are partitioned into registers, larger ones bound to block
      RAM, and those np-delay-write rewrote are declared free of
      inter-iteration dependences.

    The `tool` option picks the pragma spelling: `vivado-2019.2`
    (`RESOURCE`, `INTERFACE axis`, `DEPENDENCE ... inter false`) or
    `vitis-2023` (`BIND_STORAGE`, `INTERFACE mode=axis`,
    `DEPENDENCE ... type=inter dependent=false`).

    An element the process model cannot run is an error at its location:
    a handler that does not receive first (it would block mid-run), a
    device given by a non-constant number, a timer, or a source without an
    input device.
  }];
  let options = [
    Option<"tool", "tool", "std::string", /*default=*/"\"vitis-2023\"",
           "HLS tool whose pragma spelling to emit: vivado-2019.2 or "
           "vitis-2023">,
  ];
  let dependentDialects = ["mlir::emitc::EmitCDialect",
                           "mlir::arith::ArithDialect"];
}

#endif // NPCC_TARGETS_HLS_PASSES
