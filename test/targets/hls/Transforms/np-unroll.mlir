// RUN: npcc-opt %s -split-input-file -verify-diagnostics -np-unroll | FileCheck %s
// RUN: npcc-opt %s -split-input-file -np-unroll='max-trip-count=2' 2>&1 >/dev/null | FileCheck %s --check-prefix=MAX2

// A loop of constant trip count in a handler: one copy of the body per
// iteration, the induction variable a constant, index casts folded.

// CHECK-LABEL: np.element @Fill
// The init body is not on the packet path: its loop stays.
// CHECK: np.init
// CHECK: scf.for
// CHECK: np.handler
// CHECK-NOT: scf.for
// CHECK: %[[M:.+]] = np.state_ref @m
// CHECK-NEXT: %[[C0:.+]] = arith.constant 0 : index
// CHECK-NEXT: %[[Z:.+]] = arith.constant 0 : i32
// CHECK-NEXT: memref.store %[[Z]], %[[M]][%[[C0]]] : memref<3xi32>
// CHECK-NEXT: %[[C1:.+]] = arith.constant 1 : index
// CHECK-NEXT: %[[O:.+]] = arith.constant 1 : i32
// CHECK-NEXT: memref.store %[[O]], %[[M]][%[[C1]]] : memref<3xi32>
// CHECK-NEXT: %[[C2:.+]] = arith.constant 2 : index
// CHECK-NEXT: %[[T:.+]] = arith.constant 2 : i32
// CHECK-NEXT: memref.store %[[T]], %[[M]][%[[C2]]] : memref<3xi32>
// CHECK-NOT: memref.store
// MAX2: remark: loop of 3 iterations not unrolled: more than max-trip-count (2)
np.element @Fill {
  np.port @i in : i32
  np.state @m : memref<3xi32>
  np.init {
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %c1 = arith.constant 1 : index
    %m = np.state_ref @m : memref<3xi32>
    scf.for %k = %c0 to %c3 step %c1 {
      %z = arith.constant 0 : i32
      memref.store %z, %m[%k] : memref<3xi32>
    }
  }
  np.handler {
    %x = np.recv @i : i32
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %c1 = arith.constant 1 : index
    %m = np.state_ref @m : memref<3xi32>
    // expected-remark @below {{unrolled loop of 3 iterations}}
    scf.for %k = %c0 to %c3 step %c1 {
      %v = arith.index_castui %k : index to i32
      memref.store %v, %m[%k] : memref<3xi32>
    }
  }
}

// -----

// Loop-carried values flow from one copy into the next; a nest unrolls
// from the inside out; a loop marked np.unroll unrolls whatever
// max-trip-count says, and a loop above it is left, with a remark.

// CHECK-LABEL: np.element @Sum
// CHECK: %[[X:.+]] = np.recv
// x + 0 + 1, folded:
// CHECK: %[[A:.+]] = arith.addi %[[X]], %{{.+}} : i32
// CHECK-NEXT: np.send @o, %[[A]] : i32
// CHECK: scf.for {{.*}} to %c100
// CHECK-COUNT-2: arith.muli
// CHECK-NOT: scf.for
// MAX2: remark: loop of 100 iterations not unrolled: more than max-trip-count (2)
// MAX2: remark: unrolled loop of 8 iterations
np.element @Sum {
  np.port @i in : i32
  np.port @o out : i32
  np.state @n : memref<1xi32>
  np.handler {
    %x = np.recv @i : i32
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c1 = arith.constant 1 : index
    // expected-remark @below {{unrolled loop of 2 iterations}}
    %s = scf.for %k = %c0 to %c2 step %c1 iter_args(%acc = %x) -> (i32) {
      %v = arith.index_castui %k : index to i32
      %a = arith.addi %acc, %v : i32
      scf.yield %a : i32
    }
    np.send @o, %s : i32
    %c100 = arith.constant 100 : index
    // expected-remark @below {{loop of 100 iterations not unrolled: more than max-trip-count (64)}}
    scf.for %j = %c0 to %c100 step %c1 {
      // expected-remark @below {{unrolled loop of 2 iterations}}
      scf.for %k = %c0 to %c2 step %c1 {
        %m = np.state_ref @n : memref<1xi32>
        %v = memref.load %m[%c0] : memref<1xi32>
        %w = arith.muli %v, %v : i32
        memref.store %w, %m[%c0] : memref<1xi32>
      }
    }
    %c8 = arith.constant 8 : index
    // expected-remark @below {{unrolled loop of 8 iterations}}
    scf.for %j = %c0 to %c8 step %c1 {
      %m = np.state_ref @n : memref<1xi32>
      %v = memref.load %m[%c0] : memref<1xi32>
      %w = arith.addi %v, %v : i32
      memref.store %w, %m[%c0] : memref<1xi32>
    } {np.unroll}
  }
}

// -----

// A loop that breaks: what follows np.exit_loop_if moves into a guard, so
// each copy does nothing once the loop has stopped (its else branch passes
// the carried value on).

// CHECK-LABEL: np.element @Break
// CHECK-NOT: np.exit_loop_if
// CHECK: %[[X:.+]] = np.recv
// (Folding swaps the guard's branches: `if stop` passes the value on.)
// CHECK: %[[S0:.+]] = memref.load %[[F:.+]][%{{.+}}] : memref<1xi1>
// CHECK-NEXT: %[[R0:.+]] = scf.if %[[S0]] -> (i32) {
// CHECK-NEXT: scf.yield %[[X]] : i32
// CHECK-NEXT: } else {
// CHECK: memref.store %{{.+}}, %[[F]]
// CHECK: %[[S1:.+]] = memref.load %[[F]][%{{.+}}] : memref<1xi1>
// CHECK-NEXT: %[[R1:.+]] = scf.if %[[S1]] -> (i32) {
// CHECK-NEXT: scf.yield %[[R0]] : i32
// CHECK-COUNT-2: scf.if %{{.+}} -> (i32)
// CHECK-NOT: scf.if %{{.+}} -> (i32)
// CHECK: np.send @o
np.element @Break {
  np.port @i in : i32
  np.port @o out : i32
  np.handler {
    %x = np.recv @i : i32
    %f = memref.alloca() : memref<1xi1>
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    %false = arith.constant false
    memref.store %false, %f[%c0] : memref<1xi1>
    // expected-remark @below {{unrolled loop of 4 iterations}}
    %r = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %x) -> (i32) {
      %stop = memref.load %f[%c0] : memref<1xi1>
      np.exit_loop_if %stop
      %one = arith.constant 1 : i32
      %a = arith.addi %acc, %one : i32
      %big = arith.cmpi ugt, %a, %one : i32
      scf.if %big {
        %true = arith.constant true
        memref.store %true, %f[%c0] : memref<1xi1>
      }
      scf.yield %a : i32
    }
    np.send @o, %r : i32
  }
}

// -----

// Only the packet path: push bodies too, not control handlers. A trip count
// that is not a constant is reported.

// CHECK-LABEL: np.element @Paths
// CHECK: np.push @i
// CHECK-NOT: scf.for
// CHECK: np.control
// CHECK: scf.for
np.element @Paths {
  np.port @i in : i32
  np.handler {
    %x = np.recv @i : i32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.index_castui %x : i32 to index
    // expected-remark @below {{loop not unrolled: unknown trip count}}
    scf.for %k = %c0 to %n step %c1 {
    }
  }
  np.push @i {
  ^bb0(%x: i32):
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c1 = arith.constant 1 : index
    // expected-remark @below {{unrolled loop of 2 iterations}}
    scf.for %k = %c0 to %c2 step %c1 {
      np.print %x {label = "x"} : i32
    }
  }
  np.control attributes {name = "c", result_kind = 0 : i32, param_kinds = array<i32>, param_defaults = array<i64>} {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c1 = arith.constant 1 : index
    scf.for %k = %c0 to %c2 step %c1 {
      %y = arith.constant 1 : i32
      np.print %y {label = "y"} : i32
    }
  }
}

// -----

// A loop that receives in its iterations (Queue's drain of the arrivals
// that waited) is the pipeline, one datum per clock: it stays a loop.
// With np.unroll the user asked for the copies, and gets them.

// CHECK-LABEL: np.element @Drain
// CHECK: scf.for
// CHECK: np.try_recv @i
// CHECK-COUNT-2: np.try_recv @i
// CHECK-NOT: np.try_recv
np.element @Drain {
  np.port @i in : i32
  np.port @o out : i32
  np.handler {
    %x = np.recv @i : i32
    np.send @o, %x : i32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    // expected-remark @below {{loop not unrolled: each iteration receives}}
    scf.for %k = %c0 to %c64 step %c1 {
      %ok, %v = np.try_recv @i : i32
      scf.if %ok {
        np.send @o, %v : i32
      }
    }
    // expected-remark @below {{unrolled loop of 2 iterations}}
    scf.for %k = %c0 to %c2 step %c1 {
      %ok, %v = np.try_recv @i : i32
      scf.if %ok {
        np.send @o, %v : i32
      }
    } {np.unroll}
  }
}
