// RUN: npcc-opt %s --np-map-cores | FileCheck %s
// RUN: npcc-opt %s --np-map-cores | npcc-opt | FileCheck %s

// The C target's core mapping on what np-describe-graph leaves: the device
// elements keep no state and run on every core; the counter writes its
// state per packet without `merge`, so it runs once, and the reason says
// so. (test/targets/c/map-cores.np covers the decisions from NPL.)
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
// CHECK-LABEL: np.program @G
// CHECK-SAME: np.mapping = {
// CHECK-SAME: cost = array<i64: 67, 16, 67>
// CHECK-SAME: notes = ["", "", ""]
// CHECK-SAME: replicate = array<i1: true, false, true>
// CHECK-SAME: why = ["", "writes state 'n' per packet (no 'merge')", ""]
// CHECK-LABEL: np.element @FromDevice
