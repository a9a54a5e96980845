// RUN: npcc-opt %s -np-make-state-explicit | FileCheck %s
// RUN: npcc-opt %s -np-make-state-explicit | npcc-opt | FileCheck %s
// Running it twice changes nothing more.
// RUN: npcc-opt %s -np-make-state-explicit -np-make-state-explicit | FileCheck %s

// Every body takes !np.self first (a signal keeps its message after it);
// state_refs, also nested ones, become state_fields of %self.
np.element @E {
  np.port @i in : !np.pkt
  np.state @n : memref<1xi64> = dense<0>
  np.state @t : memref<4xi8>
  np.init {
    %m = np.state_ref @t : memref<4xi8>
  }
  np.handler {
    %p = np.recv @i : !np.pkt
    %c = arith.constant true
    scf.if %c {
      %m = np.state_ref @n : memref<1xi64>
    }
    np.drop %p
  }
  np.signal {
  ^bb0(%msg: i64):
    %m = np.state_ref @n : memref<1xi64>
  }
}
np.element @Stateless {
  np.handler {}
}
// CHECK-LABEL: np.element @E
// CHECK: np.init {
// CHECK-NEXT: ^bb0(%[[S0:.*]]: !np.self):
// CHECK-NEXT: np.state_field %[[S0]] @t : memref<4xi8>
// CHECK: np.handler {
// CHECK-NEXT: ^bb0(%[[S1:.*]]: !np.self):
// CHECK: scf.if
// CHECK-NEXT: np.state_field %[[S1]] @n : memref<1xi64>
// CHECK: np.signal {
// CHECK-NEXT: ^bb0(%[[S2:.*]]: !np.self, %{{.*}}: i64):
// CHECK-NEXT: np.state_field %[[S2]] @n : memref<1xi64>
// CHECK-NOT: np.state_ref
// CHECK-LABEL: np.element @Stateless
// CHECK-NEXT: np.handler {
// CHECK-NEXT: ^bb0(%{{.*}}: !np.self):
