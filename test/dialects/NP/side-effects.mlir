// RUN: npcc-opt %s -split-input-file -canonicalize -cse | FileCheck %s

// Channel and device operations are never removed, even when their results
// are unused; reads of packet fields are merged while no write intervenes,
// and an unused read or allocation is removed.

// CHECK-LABEL: np.element @Effects
np.element @Effects {
  np.port @in in : !np.pkt
  np.port @out out : !np.pkt
  np.handler {
    // CHECK: %[[P:.+]] = np.recv @in
    %p = np.recv @in : !np.pkt
    // CHECK-NEXT: np.try_recv @in
    %ok, %unused = np.try_recv @in : !np.pkt
    // CHECK-NEXT: np.select [@in]
    %idx = np.select [@in]
    %dev = arith.constant 0 : i32
    // CHECK: np.device_recv
    %d = np.device_recv %dev
    %off = arith.constant 12 : i64
    // CHECK: %[[A:.+]] = np.pkt_get %[[P]]
    %a = np.pkt_get %p, %off {width = 16 : i32} : i16
    %b = np.pkt_get %p, %off {width = 16 : i32} : i16
    // CHECK-NEXT: np.pkt_set %[[P]], %{{.+}}, %[[A]]
    np.pkt_set %p, %off, %a {width = 16 : i32} : i16
    // CHECK-NEXT: %[[C:.+]] = np.pkt_get %[[P]]
    %c = np.pkt_get %p, %off {width = 16 : i32} : i16
    // CHECK-NEXT: %[[SUM:.+]] = arith.addi %[[A]], %[[C]]
    %sum = arith.addi %b, %c : i16
    np.pkt_set %p, %off, %sum {width = 16 : i32} : i16
    %len = np.pkt_len %p
    %q = np.clone %p
    %n = arith.constant 96 : i32
    %r = np.pkt_new %n : i32
    // CHECK-NOT: np.pkt_len
    // CHECK-NOT: np.clone
    // CHECK-NOT: np.pkt_new
    // CHECK: np.send @out, %[[P]]
    np.send @out, %p : !np.pkt
  }
}
