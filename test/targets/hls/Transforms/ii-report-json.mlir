// RUN: npcc-opt %s -np-ii-report="report=%t.json" -o /dev/null 2>/dev/null
// RUN: FileCheck %s < %t.json
// RUN: npcc-opt %s -np-ii-report="report=%t.opt.json assume-hls-passes=true" -o /dev/null 2>/dev/null
// RUN: FileCheck %s --check-prefix=OPT < %t.opt.json

// The JSON report: one object per instance of the top graph, in order,
// with the element's source name and location and each cause.

// CHECK: "assume_hls_passes": false,
// CHECK: "elements": [
// CHECK-LABEL: "element": "Sketch",
// CHECK-NEXT: "header_only": true,
// CHECK-NEXT: "ii": 2,
// CHECK-NEXT: "location": {
// CHECK-NEXT: "col": 1,
// CHECK-NEXT: "file": "sketch.np",
// CHECK-NEXT: "line": 10
// CHECK-NEXT: },
// CHECK-NEXT: "name": "sk",
// CHECK-NEXT: "reads_whole": [],
// CHECK-NEXT: "reasons": [
// CHECK-NEXT: {
// CHECK-NEXT: "ii": 2,
// CHECK-NEXT: "kind": "dependence",
// CHECK-NEXT: "location": {
// CHECK-NEXT: "col": 7,
// CHECK-NEXT: "file": "sketch.np",
// CHECK-NEXT: "line": 14
// CHECK-NEXT: },
// CHECK-NEXT: "state": "bitmap",
// CHECK-NEXT: "text": "state 'bitmap' is read and written for every datum: {{.*}}; np-delay-write removes it"
// CHECK-NEXT: }
// CHECK-NEXT: ],
// CHECK-NEXT: "symbol": "Sketch.sk"
// CHECK-LABEL: "element": "Sink",
// CHECK-NEXT: "header_only": true,
// CHECK-NEXT: "ii": 1,
// CHECK: "name": "sink",
// CHECK-NEXT: "reads_whole": [],
// CHECK-NEXT: "reasons": [],
// CHECK-LABEL: "element": "Deep",
// CHECK-NEXT: "header_only": false,
// CHECK: "name": "deep",
// CHECK-NEXT: "reads_whole": [
// CHECK-NEXT: {
// CHECK-NEXT: "location": {
// CHECK-NEXT: "col": 3,
// CHECK-NEXT: "file": "deep.np",
// CHECK-NEXT: "line": 6
// CHECK-NEXT: },
// CHECK-NEXT: "text": "reads a header field that may lie past the header window"
// CHECK-NEXT: }
// CHECK-NEXT: ],
// CHECK-LABEL: "element": "Src",

// OPT: "assume_hls_passes": true,
// OPT: "element": "Sketch",
// OPT-NEXT: "header_only": true,
// OPT-NEXT: "ii": 1,

np.graph @Top attributes {top} {
  np.instance @sk of @Sketch.sk
  np.instance @sink of @Sink
  np.instance @deep of @Deep
  np.instance @src of @Src
  np.connect @src::@o to @sk::@i depth 4
  np.connect @sk::@o to @deep::@i depth 4
  np.connect @deep::@o to @sink::@i depth 4
}
np.element @Sketch.sk attributes {origin = "Sketch"} {
  np.port @i in : !np.pkt
  np.port @o out : !np.pkt
  np.state @bitmap : memref<1024xi32>
  np.handler {
    %p = np.recv @i : !np.pkt
    %off = arith.constant 26 : i64
    %a = np.pkt_get %p, %off {width = 10 : i32} : i10
    %k = arith.index_castui %a : i10 to index
    %b = np.state_ref @bitmap : memref<1024xi32>
    %v = memref.load %b[%k] : memref<1024xi32>
    memref.store %v, %b[%k] : memref<1024xi32> loc("sketch.np":14:7)
    np.send @o, %p : !np.pkt
  }
} loc("sketch.np":10:1)
np.element @Sink {
  np.port @i in : !np.pkt
  np.handler {
    %p = np.recv @i : !np.pkt
    %dev = arith.constant 0 : i32
    np.device_send %dev, %p
  }
}
// Byte 300 is past the header window: the FPGA reads such a packet whole.
np.element @Deep {
  np.port @i in : !np.pkt
  np.port @o out : !np.pkt
  np.handler {
    %p = np.recv @i : !np.pkt
    %off = arith.constant 300 : i64
    %a = np.pkt_get %p, %off {width = 8 : i32} : i8 loc("deep.np":6:3)
    np.send @o, %p : !np.pkt
  }
}
np.element @Src {
  np.port @o out : !np.pkt
  np.handler {
    %dev = arith.constant 0 : i32
    %p = np.device_recv %dev
    np.send @o, %p : !np.pkt
  }
}
