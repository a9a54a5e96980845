// RUN: npcc-opt %s -split-input-file -verify-diagnostics -np-scatter-memory | FileCheck %s
// RUN: npcc-opt %s -split-input-file -np-scatter-memory='elements=fpga' 2>/dev/null | FileCheck %s --check-prefix=FPGA
// RUN: npcc-opt %s -split-input-file -np-scatter-memory='elements=fpga' 2>&1 >/dev/null | FileCheck %s --check-prefix=FPGA-REMARK
// RUN: npcc-opt %s -split-input-file -np-scatter-memory='elements=all' 2>&1 >/dev/null | FileCheck %s --check-prefix=ALL
// RUN: not npcc-opt %s -split-input-file -np-scatter-memory='elements=gpu' 2>&1 | FileCheck %s --check-prefix=BAD

// The fields of a struct array lose their shared `memory`: one memory each.
// The states, their types and the accesses are unchanged; states of other
// memories and plain states are left alone.

// CHECK-LABEL: np.element @Tab
// CHECK: np.state @tab.key : memref<64xi32>{{$}}
// CHECK: np.state @tab.val : memref<64xi16>{{$}}
// CHECK: np.state @tab.hits : memref<64xi64>{{$}}
// CHECK: np.state @n : memref<1xi64>{{$}}
// CHECK: np.state @small.a : memref<4xi8>{{$}}
// CHECK: np.handler
// CHECK: memref.load %{{.+}}[%{{.+}}] : memref<64xi32>
// FPGA: np.state @tab.key : memref<64xi32> {memory = "tab"}
// ALL: remark: scattered 'tab' into 3 memories: key, val, hits
// BAD: error: np-scatter-memory: elements must be not-host, fpga or all, not 'gpu'
np.element @Tab {
  np.port @i in : i32
  // expected-remark @below {{scattered 'tab' into 3 memories: key, val, hits}}
  np.state @tab.key : memref<64xi32> {memory = "tab"}
  np.state @tab.val : memref<64xi16> {memory = "tab"}
  np.state @tab.hits : memref<64xi64> {memory = "tab"}
  np.state @n : memref<1xi64>
  // expected-remark @below {{scattered 'small' into 1 memory: a}}
  np.state @small.a : memref<4xi8> {memory = "small"}
  np.handler {
    %k = np.recv @i : i32
    %i = arith.index_castui %k : i32 to index
    %m = np.state_ref @tab.key : memref<64xi32>
    %v = memref.load %m[%i] : memref<64xi32>
  }
}

// -----

// Only elements whose instances are not placed `host` are changed (by
// default); with elements=fpga, only those placed `fpga`.

// CHECK-LABEL: np.graph @Top
// CHECK-LABEL: np.element @OnHost
// CHECK: np.state @t.k : memref<32xi32> {memory = "t"}
// CHECK-LABEL: np.element @OnNPU
// CHECK: np.state @t.k : memref<32xi32>{{$}}
// CHECK-LABEL: np.element @OnFPGA
// CHECK: np.state @t.k : memref<32xi32>{{$}}
// FPGA-LABEL: np.element @OnHost
// FPGA: np.state @t.k : memref<32xi32> {memory = "t"}
// FPGA-LABEL: np.element @OnNPU
// FPGA: np.state @t.k : memref<32xi32> {memory = "t"}
// FPGA-LABEL: np.element @OnFPGA
// FPGA: np.state @t.k : memref<32xi32>{{$}}
// FPGA-REMARK-NOT: scattered 'tab'
// FPGA-REMARK: remark: scattered 't' into 2 memories: k, v
// FPGA-REMARK-NOT: remark
// ALL-COUNT-3: remark: scattered 't' into 2 memories: k, v
np.graph @Top attributes {top} {
  np.instance @h of @OnHost {placement = "host"}
  np.instance @n of @OnNPU
  np.instance @f of @OnFPGA {placement = "fpga"}
  np.connect @h::@o to @n::@i depth 4
  np.connect @n::@o to @f::@i depth 4
}
np.element @OnHost {
  np.port @o out : i32
  np.state @t.k : memref<32xi32> {memory = "t"}
  np.state @t.v : memref<32xi8> {memory = "t"}
  np.handler {}
}
np.element @OnNPU {
  np.port @i in : i32
  np.port @o out : i32
  // expected-remark @below {{scattered 't' into 2 memories: k, v}}
  np.state @t.k : memref<32xi32> {memory = "t"}
  np.state @t.v : memref<32xi8> {memory = "t"}
  np.handler {}
}
np.element @OnFPGA {
  np.port @i in : i32
  // expected-remark @below {{scattered 't' into 2 memories: k, v}}
  np.state @t.k : memref<32xi32> {memory = "t"}
  np.state @t.v : memref<32xi8> {memory = "t"}
  np.handler {}
}
