// RUN: npcc-opt %s -split-input-file -verify-diagnostics -np-delay-write | FileCheck %s
// RUN: npcc-opt %s -split-input-file -np-delay-write -np-delay-write 2>/dev/null | FileCheck %s --check-prefix=TWICE

// PCSA's `bitmap[j] |= bit`: a block RAM loaded and stored per packet gets
// a one-entry forward register. Stores also write the register; loads take
// its value when it holds their index. The control handler that writes the
// bitmap clears it; the read handler is unchanged.

// CHECK-LABEL: np.element @PCSA
// CHECK: np.state @bitmap : memref<8192xi32> {delayed_write}
// CHECK-NEXT: np.state @bitmap.fwd_idx : memref<1xi13> {forward_of = "bitmap"}
// CHECK-NEXT: np.state @bitmap.fwd_val : memref<1xi32> {forward_of = "bitmap"}
// CHECK-NEXT: np.state @bitmap.fwd_valid : memref<1xi1> {forward_of = "bitmap"}
// CHECK: np.handler {
// CHECK-NEXT: ^bb0(%[[SELF:.+]]: !np.self):
// CHECK-NEXT: %[[IDX:.+]] = np.state_field %[[SELF]] @bitmap.fwd_idx : memref<1xi13>
// CHECK-NEXT: %[[VAL:.+]] = np.state_field %[[SELF]] @bitmap.fwd_val : memref<1xi32>
// CHECK-NEXT: %[[VALID:.+]] = np.state_field %[[SELF]] @bitmap.fwd_valid : memref<1xi1>
// CHECK: %[[J:.+]] = arith.index_castui
// CHECK: %[[M:.+]] = np.state_field %[[SELF]] @bitmap : memref<8192xi32>
// CHECK: %[[OLD:.+]] = memref.load %[[M]][%[[J]]] : memref<8192xi32>
// CHECK-NEXT: %[[C0:.+]] = arith.constant 0 : index
// CHECK-NEXT: %[[V:.+]] = memref.load %[[VALID]][%[[C0]]] : memref<1xi1>
// CHECK-NEXT: %[[I:.+]] = memref.load %[[IDX]][%[[C0]]] : memref<1xi13>
// CHECK-NEXT: %[[H:.+]] = memref.load %[[VAL]][%[[C0]]] : memref<1xi32>
// CHECK-NEXT: %[[JJ:.+]] = arith.index_castui %[[J]] : index to i13
// CHECK-NEXT: %[[SAME:.+]] = arith.cmpi eq, %[[JJ]], %[[I]] : i13
// CHECK-NEXT: %[[HIT:.+]] = arith.andi %[[V]], %[[SAME]] : i1
// CHECK-NEXT: %[[CUR:.+]] = arith.select %[[HIT]], %[[H]], %[[OLD]] : i32
// CHECK: %[[NEW:.+]] = arith.ori %[[CUR]], %{{.+}} : i32
// CHECK-NEXT: memref.store %[[NEW]], %[[M]][%[[J]]] : memref<8192xi32>
// CHECK-NEXT: %[[Z:.+]] = arith.constant 0 : index
// CHECK-NEXT: %[[SJ:.+]] = arith.index_castui %[[J]] : index to i13
// CHECK-NEXT: memref.store %[[SJ]], %[[IDX]][%[[Z]]] : memref<1xi13>
// CHECK-NEXT: memref.store %[[NEW]], %[[VAL]][%[[Z]]] : memref<1xi32>
// CHECK-NEXT: %[[T:.+]] = arith.constant true
// CHECK-NEXT: memref.store %[[T]], %[[VALID]][%[[Z]]] : memref<1xi1>
// CHECK: np.control attributes {{{.*}}result_kind = 32 : i32} {
// CHECK-NOT: fwd_
// CHECK: np.control attributes {{{.*}}write} {
// CHECK: memref.store %{{.+}}, %{{.+}}[%{{.+}}] : memref<8192xi32>
// CHECK-NEXT: %[[Z2:.+]] = arith.constant 0 : index
// CHECK-NEXT: %[[F:.+]] = arith.constant false
// CHECK-NEXT: memref.store %[[F]], %{{.+}}[%[[Z2]]] : memref<1xi1>
// TWICE-COUNT-1: np.state @bitmap.fwd_idx
// TWICE-NOT: fwd_idx.fwd
np.element @PCSA {
  np.port @i in : i32
  // expected-remark @below {{forwarding the last write of 'bitmap' through a register (1 load, 1 store)}}
  np.state @bitmap : memref<8192xi32>
  np.handler {
  ^bb0(%self: !np.self):
    %h = np.recv @i : i32
    %c19 = arith.constant 19 : i32
    %hi = arith.shrui %h, %c19 : i32
    %j = arith.index_castui %hi : i32 to index
    %m = np.state_field %self @bitmap : memref<8192xi32>
    %old = memref.load %m[%j] : memref<8192xi32>
    %bit = arith.constant 1 : i32
    %new = arith.ori %old, %bit : i32
    memref.store %new, %m[%j] : memref<8192xi32>
  }
  np.control attributes {name = "estimate", result_kind = 32 : i32, param_kinds = array<i32>, param_defaults = array<i64>} {
  ^bb0(%self: !np.self):
    %c0 = arith.constant 0 : index
    %m = np.state_field %self @bitmap : memref<8192xi32>
    %v = memref.load %m[%c0] : memref<8192xi32>
    np.handler_result %v : i32
  }
  np.control attributes {name = "reset", write, result_kind = 0 : i32, param_kinds = array<i32>, param_defaults = array<i64>} {
  ^bb0(%self: !np.self):
    %c0 = arith.constant 0 : index
    %z = arith.constant 0 : i32
    %m = np.state_field %self @bitmap : memref<8192xi32>
    memref.store %z, %m[%c0] : memref<8192xi32>
  }
}

// -----

// Left alone: registers (at most 16 elements), a block RAM only read or
// only written per packet, one written only by init. Reported: a shared
// block RAM, and one an op other than load and store uses.

// CHECK-LABEL: np.element @Alone
// CHECK-NOT: delayed_write
// CHECK-NOT: fwd_
np.element @Alone {
  np.port @i in : i32
  np.state @small : memref<16xi32>
  np.state @ro : memref<64xi32>
  np.state @wo : memref<64xi32>
  np.state @boot : memref<64xi32>
  // expected-remark @below {{last write of 'sh' not forwarded: it is shared by the instances of 'Alone'}}
  np.state shared @sh : memref<64xi32>
  // expected-remark @below {{last write of 'tab' not forwarded: 'np.table' uses it}}
  np.state @tab : memref<99xi64>
  np.init {
    %c0 = arith.constant 0 : index
    %z = arith.constant 0 : i32
    %b = np.state_ref @boot : memref<64xi32>
    memref.store %z, %b[%c0] : memref<64xi32>
  }
  np.handler {
    %x = np.recv @i : i32
    %j = arith.index_castui %x : i32 to index
    %s = np.state_ref @small : memref<16xi32>
    %v0 = memref.load %s[%j] : memref<16xi32>
    memref.store %v0, %s[%j] : memref<16xi32>
    %r = np.state_ref @ro : memref<64xi32>
    %v1 = memref.load %r[%j] : memref<64xi32>
    %w = np.state_ref @wo : memref<64xi32>
    memref.store %v1, %w[%j] : memref<64xi32>
    %b = np.state_ref @boot : memref<64xi32>
    %v2 = memref.load %b[%j] : memref<64xi32>
    %sh = np.state_ref @sh : memref<64xi32>
    %v3 = memref.load %sh[%j] : memref<64xi32>
    memref.store %v3, %sh[%j] : memref<64xi32>
    %t = np.state_ref @tab : memref<99xi64>
    %v4 = memref.load %t[%j] : memref<99xi64>
    memref.store %v4, %t[%j] : memref<99xi64>
    %ok = np.table lookup lpm %t(%x) {capacity = 16 : i32, key_words = 1 : i32, value_words = 1 : i32} : memref<99xi64> -> i1
  }
}
