// RUN: npcc-opt %s --npcc-to-hls | FileCheck %s
// RUN: npcc-opt %s --npcc-to-hls | npcc-opt | FileCheck %s

// The hls pipeline from the front end's np IR to EmitC: the np steps every
// target runs, the HLS target's checks and optimisations, the HLS program
// (processes and the DATAFLOW top) and the EmitC steps. Nothing of the np
// dialect is left; the design includes nphls.h, not the C runtime.
module {
  np.graph @G attributes {top} {
    np.instance @src of @FromDevice {args = [0]}
    np.instance @f of @Fwd
    np.instance @sink of @ToDevice {args = [0]}
    np.connect @src::@o to @f::@i depth 64
    np.connect @f::@o to @sink::@i depth 64
  }
  np.element @FromDevice attributes {origin = "FromDevice", params = {dev = 0 : i64}} {
    np.port @o out : !np.pkt
    np.handler {
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
      %0 = np.recv @i : !np.pkt
      %1 = np.state_ref @n : memref<1xi32>
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
// CHECK: emitc.call_opaque "nprt_recv_pkt"
// CHECK: emitc.add
// CHECK: emitc.call_opaque "nprt_send_pkt"
// CHECK-LABEL: emitc.func @npcc_2_sink_handler(
// CHECK: emitc.call_opaque "nprt_device_send"
// CHECK: emitc.verbatim "{{.*}}Instance 'src'
// CHECK-NOT: emitc.include "nprt/nprt.h"
