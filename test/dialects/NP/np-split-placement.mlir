// RUN: npcc-opt %s -np-split-placement=side=host | FileCheck %s --check-prefix=HOST
// RUN: npcc-opt %s -np-split-placement=side=fpga | FileCheck %s --check-prefix=FPGA
// RUN: npcc-opt %s -np-split-placement=side=fpga -np-instantiate-elements -np-describe-graph | FileCheck %s --check-prefixes=CHECK,DESC

// Host reads device 0; the FPGA filters; its two outputs come back to the
// host's devices 0 and 1. Three cut channels: slots 0 (host to FPGA), 1
// and 2 (FPGA to host).
// HOST: module attributes {np.devices = [{{{.*}}dev = 2 : i32{{.*}}output = true, path = "pcie-slot:0"{{.*}}}, {{{.*}}dev = 1 : i32{{.*}}output = false, path = "pcie-slot:1"{{.*}}}, {{{.*}}dev = 2 : i32{{.*}}output = false, path = "pcie-slot:2"{{.*}}}], np.pcie_slots = 3 : i32}
// HOST-LABEL: np.graph @M
// HOST-NEXT: np.instance @src of @Src {placement = "host"}
// HOST-NEXT: np.instance @a of @Dst0 {placement = "host"}
// HOST-NEXT: np.instance @b of @Dst1 {placement = "host"}
// HOST-NEXT: np.instance @pcie_tx0 of @__PCIeTx_0 {args = [0], placement = "host"}
// HOST-NEXT: np.connect @src::@o to @pcie_tx0::@i depth 64
// HOST-NEXT: np.instance @pcie_rx1 of @__PCIeRx_1 {args = [1], placement = "host"}
// HOST-NEXT: np.connect lossy @pcie_rx1::@o to @a::@i depth 8
// HOST-NEXT: np.instance @pcie_rx2 of @__PCIeRx_2 {args = [2], placement = "host"}
// HOST-NEXT: np.connect @pcie_rx2::@o to @b::@i depth 64
// HOST-NEXT: }
// HOST: np.element @__PCIeTx_0 attributes {origin = "PCIeTx", params = {slot = 0 : i64}}
// HOST-NEXT: np.port @i in : !np.pkt
// HOST-NEXT: np.handler
// HOST-NEXT: np.recv @i
// HOST-NEXT: arith.constant 2 : i32
// HOST-NEXT: np.device_send
// HOST: np.element @__PCIeRx_1 attributes {origin = "PCIeRx", params = {slot = 1 : i64}}
// HOST-NEXT: np.port @o out : !np.pkt
// HOST-NEXT: np.handler
// HOST-NEXT: arith.constant 1 : i32
// HOST-NEXT: np.device_recv

// FPGA: module attributes {np.devices = [{{{.*}}dev = 1 : i32{{.*}}output = false, path = "pcie-slot:0"{{.*}}}, {{{.*}}dev = 2 : i32{{.*}}output = true, path = "pcie-slot:1"{{.*}}}, {{{.*}}dev = 3 : i32{{.*}}output = true, path = "pcie-slot:2"{{.*}}}], np.pcie_slots = 3 : i32}
// FPGA-LABEL: np.graph @M
// FPGA-NEXT: np.instance @cls of @Split {placement = "fpga"}
// FPGA-NEXT: np.instance @mid of @Fwd
// FPGA-NEXT: np.instance @pcie_rx0 of @__PCIeRx_0 {args = [0], placement = "fpga"}
// FPGA-NEXT: np.connect @pcie_rx0::@o to @cls::@i depth 64
// FPGA-NEXT: np.connect @cls::@o0 to @mid::@i depth 4
// FPGA-NEXT: np.instance @pcie_tx1 of @__PCIeTx_1 {args = [1], placement = "fpga"}
// FPGA-NEXT: np.connect lossy @mid::@o to @pcie_tx1::@i depth 8
// FPGA-NEXT: np.instance @pcie_tx2 of @__PCIeTx_2 {args = [2], placement = "fpga"}
// FPGA-NEXT: np.connect @cls::@o1 to @pcie_tx2::@i depth 64
// FPGA-NEXT: }

// CHECK-LABEL: np.program @M elements [@Split, @Fwd, @__PCIeRx_0, @__PCIeTx_1, @__PCIeTx_2] names ["cls", "mid", "pcie_rx0", "pcie_tx1", "pcie_tx2"]
// DESC-SAME: placements ["fpga", "npu", "fpga", "fpga", "fpga"]

module {
  np.graph @M attributes {top} {
    np.instance @src of @Src {placement = "host"}
    np.instance @cls of @Split {placement = "fpga"}
    np.instance @mid of @Fwd
    np.instance @a of @Dst0 {placement = "host"}
    np.instance @b of @Dst1 {placement = "host"}
    np.connect @src::@o to @cls::@i depth 64
    np.connect @cls::@o0 to @mid::@i depth 4
    np.connect lossy @mid::@o to @a::@i depth 8
    np.connect @cls::@o1 to @b::@i depth 64
  }
  np.element @Src {
    np.port @o out : !np.pkt
    np.handler {
      %c0 = arith.constant 0 : i32
      %p = np.device_recv %c0
      np.send @o, %p : !np.pkt
    }
  }
  np.element @Split {
    np.port @i in : !np.pkt
    np.port @o0 out : !np.pkt
    np.port @o1 out : !np.pkt
    np.handler {
      %p = np.recv @i : !np.pkt
      np.send @o0, %p : !np.pkt
    }
  }
  np.element @Fwd {
    np.port @i in : !np.pkt
    np.port @o out : !np.pkt
    np.handler {
      %p = np.recv @i : !np.pkt
      np.send @o, %p : !np.pkt
    }
  }
  np.element @Dst0 {
    np.port @i in : !np.pkt
    np.handler {
      %p = np.recv @i : !np.pkt
      %c0 = arith.constant 0 : i32
      np.device_send %c0, %p
    }
  }
  np.element @Dst1 {
    np.port @i in : !np.pkt
    np.handler {
      %p = np.recv @i : !np.pkt
      %c1 = arith.constant 1 : i32
      np.device_send %c1, %p
    }
  }
}
