// RUN: npcc-opt %s --npcc-hls-opts 2>/dev/null | FileCheck %s
// RUN: npcc-opt %s --npcc-hls-opts 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK

// The HLS optimisations as one pipeline, in their order: np-scatter-memory
// gives each field of `tab` its own memory, np-unroll copies the loop's
// body twice, np-delay-write forwards the last write of `bitmap` through
// registers. The input is an NPL element after np-make-state-explicit.
module {
  np.graph @G attributes {top} {
    np.instance @src of @FromDevice {args = [0]}
    np.instance @e of @Opt
    np.instance @sink of @ToDevice {args = [0]}
    np.connect @src::@o to @e::@i depth 64
    np.connect @e::@o to @sink::@i depth 64
  }
  np.element @FromDevice attributes {origin = "FromDevice", params = {dev = 0 : i64}} {
    np.port @o out : !np.pkt
    np.handler {
    ^bb0(%arg0: !np.self):
      %c0_i32 = arith.constant 0 : i32
      %0 = np.device_recv %c0_i32
      np.send @o, %0 : !np.pkt
    }
  }
  np.element @Opt {
    np.port @i in : !np.pkt
    np.port @o out : !np.pkt
    np.state @tab.key : memref<64xi32> {memory = "tab"}
    np.state @tab.hits : memref<64xi16> {memory = "tab"}
    np.state @bitmap : memref<64xi32>
    np.handler {
    ^bb0(%arg0: !np.self):
      %0 = np.recv @i : !np.pkt
      %1 = np.pkt_len %0
      %c63_i32 = arith.constant 63 : i32
      %2 = arith.andi %1, %c63_i32 : i32
      %3 = arith.index_castui %2 : i32 to index
      %4 = np.state_field %arg0 @tab.hits : memref<64xi16>
      %c1_i16 = arith.constant 1 : i16
      %c64 = arith.constant 64 : index
      %5 = arith.cmpi ult, %3, %c64 : index
      scf.if %5 {
        memref.store %c1_i16, %4[%3] : memref<64xi16>
      }
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      scf.for %arg1 = %c0 to %c2 step %c1 {
        %6 = arith.index_castui %arg1 : index to i32
        %7 = arith.index_castui %2 : i32 to index
        %8 = np.state_field %arg0 @bitmap : memref<64xi32>
        %c64_0 = arith.constant 64 : index
        %9 = arith.cmpi ult, %7, %c64_0 : index
        %10 = scf.if %9 -> (i32) {
          %13 = memref.load %8[%7] : memref<64xi32>
          scf.yield %13 : i32
        } else {
          %c0_i32 = arith.constant 0 : i32
          scf.yield %c0_i32 : i32
        }
        %c1_i32 = arith.constant 1 : i32
        %11 = arith.ori %10, %c1_i32 : i32
        %c64_1 = arith.constant 64 : index
        %12 = arith.cmpi ult, %7, %c64_1 : index
        scf.if %12 {
          memref.store %11, %8[%7] : memref<64xi32>
        }
      }
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
// CHECK-LABEL: np.element @Opt
// CHECK-NEXT: np.port @i
// CHECK-NEXT: np.port @o
// CHECK-NEXT: np.state @tab.key : memref<64xi32>{{$}}
// CHECK-NEXT: np.state @tab.hits : memref<64xi16>{{$}}
// CHECK-NEXT: np.state @bitmap : memref<64xi32> {delayed_write}
// CHECK-NEXT: np.state @bitmap.fwd_idx : memref<1xi6> {forward_of = "bitmap"}
// CHECK-NEXT: np.state @bitmap.fwd_val : memref<1xi32> {forward_of = "bitmap"}
// CHECK-NEXT: np.state @bitmap.fwd_valid : memref<1xi1> {forward_of = "bitmap"}
// CHECK: np.handler
// CHECK-NOT: scf.for
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<64xi32>
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<64xi32>
// CHECK-NOT: scf.for
// CHECK: np.send @o

// REMARK: remark: scattered 'tab' into 2 memories: key, hits
// REMARK: remark: unrolled loop of 2 iterations
// REMARK: remark: forwarding the last write of 'bitmap' through a register
