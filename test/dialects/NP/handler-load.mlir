// RUN: npcc-opt %s | FileCheck %s
// RUN: npcc-opt %s | npcc-opt | FileCheck %s

// np.handler_load prints and parses back, in init and nested in its loops.

// CHECK-LABEL: np.element @Routes
np.element @Routes {
  np.state @rt : memref<4xi64>
  np.control attributes {name = "add", write, result_kind = 0 : i32, param_kinds = array<i32: 768>, param_defaults = array<i64: 0>} {
  }
  // CHECK: np.init {
  // CHECK-NEXT: np.handler_load "add", "routes.txt"
  // CHECK: scf.if
  // CHECK-NEXT: np.handler_load "add", "more routes.txt"
  np.init {
    np.handler_load "add", "routes.txt"
    %t = arith.constant true
    scf.if %t {
      np.handler_load "add", "more routes.txt"
    }
  }
  np.handler {
  }
}
