// RUN: npcc-opt %s --hls-convert-np-to-emitc | FileCheck %s
// RUN: npcc-opt %s --hls-convert-np-to-emitc='tool=vivado-2019.2' | FileCheck %s --check-prefix=VIVADO

// The HLS target's conversion of np IR, on what np-describe-graph leaves:
// element bodies through the lowering the C target shares
// (targets/emitc), the program as one process function per instance and
// the DATAFLOW top `npcc_top` instead of the C target's tables and main().
// Other dialects (arith, memref) are left for c-convert-to-emitc.
module {
  np.program @G elements [@FromDevice, @Fwd, @ToDevice] names ["src", "f", "sink"] placements ["npu", "npu", "npu"] channels [array<i64: 0, 0, 1, 0, 64, 0, 0>, array<i64: 1, 0, 2, 0, 64, 0, 0>]
  np.element @FromDevice attributes {origin = "FromDevice", params = {dev = 0 : i64}} {
    np.port @o out : !np.pkt
    np.handler {
    ^bb0(%arg0: !np.self):
      %c0_i32 = arith.constant 0 : i32
      %0 = np.device_recv %c0_i32
      np.send @o, %0 : !np.pkt
    }
  }
  np.element @Fwd {
    np.port @i in : !np.pkt
    np.port @o out : !np.pkt
    np.state @n : memref<1xi32>
    np.handler {
    ^bb0(%arg0: !np.self):
      %0 = np.recv @i : !np.pkt
      %1 = np.state_field %arg0 @n : memref<1xi32>
      %c0 = arith.constant 0 : index
      %2 = memref.load %1[%c0] : memref<1xi32>
      %c1_i32 = arith.constant 1 : i32
      %3 = arith.addi %2, %c1_i32 : i32
      %c0_0 = arith.constant 0 : index
      memref.store %3, %1[%c0_0] : memref<1xi32>
      np.send @o, %0 : !np.pkt
    }
  }
  np.element @ToDevice attributes {origin = "ToDevice", params = {dev = 0 : i64}} {
    np.port @i in : !np.pkt
    np.handler {
    ^bb0(%arg0: !np.self):
      %0 = np.recv @i : !np.pkt
      %c0_i32 = arith.constant 0 : i32
      np.device_send %c0_i32, %0
    }
  }
}
// CHECK-LABEL: module attributes {hls.devices_in = array<i32: 0>, hls.devices_out = array<i32: 0>, hls.program = "G"}
// CHECK-NOT: np.
// CHECK: emitc.include "nphls/nphls.h"
// CHECK-LABEL: emitc.func @npcc_0_src_handler(
// CHECK: emitc.call_opaque "nprt_device_recv"
// CHECK: emitc.call_opaque "nprt_send_pkt"
// CHECK: emitc.verbatim "typedef struct npcc_1_f_state {\0A  int32_t n[1];\0A} npcc_1_f_state;"
// CHECK-LABEL: emitc.func @npcc_1_f_handler(
// CHECK: emitc.call_opaque "nprt_state"
// CHECK: emitc.call_opaque "nprt_recv_pkt"
// CHECK: memref.load
// CHECK: arith.addi
// CHECK: memref.store
// CHECK: emitc.call_opaque "nprt_send_pkt"
// CHECK-LABEL: emitc.func @npcc_2_sink_handler(
// CHECK: emitc.call_opaque "nprt_device_send"
// CHECK: Instance 'src'{{.*}}void npcc_0_src(
// CHECK: #pragma HLS INTERFACE mode=axis register_mode=both port=dev_in_0
// CHECK: #pragma HLS DATAFLOW

// VIVADO-LABEL: module attributes
// VIVADO: emitc.include "nphls/nphls.h"
// VIVADO: #pragma HLS INTERFACE axis register both port=dev_in_0
// VIVADO: #pragma HLS DATAFLOW
