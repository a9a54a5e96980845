// RUN: npcc-opt %s --npcc-to-c | FileCheck %s
// RUN: npcc-opt %s --npcc-to-c='fuse=false' | FileCheck %s --check-prefix=NOFUSE

// The C pipeline from the front end's np IR to EmitC: the np steps every
// target runs with np-fuse, np-map-cores, the C program (tables, main) and
// the EmitC steps. With fuse=false every channel stays a queue.
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
// CHECK-LABEL: module {
// CHECK-NOT: np.
// CHECK: emitc.include "nprt/nprt.h"
// CHECK: emitc.declare_func @npcc_1_f_push_i
// CHECK-LABEL: emitc.func @npcc_0_src_handler(
// CHECK: emitc.call_opaque "nprt_device_recv"
// CHECK: emitc.call_opaque "nprt_link_forward_pkt"
// CHECK: emitc.call @npcc_1_f_push_i(
// CHECK-LABEL: emitc.func @npcc_1_f_handler(
// CHECK-LABEL: emitc.func @npcc_1_f_push_i(
// CHECK-LABEL: emitc.func @npcc_2_sink_handler(
// CHECK: emitc.call_opaque "nprt_device_send"
// CHECK: static const nprt_instance_desc npcc_classes
// CHECK: static const nprt_program npcc_program
// CHECK: int main(int argc, char **argv) {
// CHECK-SAME: nprt_main(argc, argv, &npcc_program);

// NOFUSE-LABEL: emitc.func @npcc_0_src_handler(
// NOFUSE-NOT: nprt_link_
// NOFUSE: emitc.call_opaque "nprt_send_pkt"
// NOFUSE-NOT: nprt_link_
// NOFUSE: int main(
