// RUN: npcc-opt %s --c-convert-np-to-emitc | FileCheck %s
// RUN: npcc-opt %s --c-convert-np-to-emitc | npcc-opt | FileCheck %s

// Shared state: @E and @"E.b" (source name "E") have one struct, declared
// before the first of them, and reach its members through nprt_shared;
// the instances' state objects keep the rest. The program lists one shared
// object and points both instances at it.
module {
  np.program @G elements [@E, @"E.b", @F] names ["a", "b", "f"]
      placements ["npu", "npu", "npu"]
      channels []
  np.element @E {
    np.state @mine : memref<1xi32>
    np.state shared @next : memref<1xi16> = dense<1>
    np.state shared @"int" : memref<4xi8>
    np.handler {
    ^bb0(%self: !np.self):
      %m = np.state_field %self @mine : memref<1xi32>
      %n = np.state_field %self @next : memref<1xi16>
      %i = np.state_field %self @"int" : memref<4xi8>
    }
  }
  np.element @"E.b" attributes {origin = "E"} {
    np.state @mine : memref<1xi32>
    np.state shared @next : memref<1xi16> = dense<1>
    np.state shared @"int" : memref<4xi8>
    np.handler {
    ^bb0(%self: !np.self):
      %n = np.state_field %self @next : memref<1xi16>
    }
  }
  np.element @F {
    np.handler {
    ^bb0(%self: !np.self):
    }
  }
}
// CHECK: emitc.verbatim "typedef struct npcc_0_a_state {\0A  int32_t mine[1];\0A} npcc_0_a_state;"
// CHECK-NEXT: emitc.verbatim "typedef struct npcc_shared_0_E {\0A  int16_t next[1];\0A  int8_t s_int[4];\0A} npcc_shared_0_E;"
// CHECK-NEXT: emitc.verbatim "static const npcc_shared_0_E npcc_shared_0_E_init = {\0A  .next = {1}\0A};"
// CHECK-LABEL: emitc.func @npcc_0_a_handler(
// CHECK-SAME: %[[SELF:.*]]: !emitc.ptr<!emitc.opaque<"nprt_inst">>)
// CHECK: %[[RAW:.*]] = emitc.call_opaque "nprt_state"(%[[SELF]])
// CHECK: %[[OBJ:.*]] = emitc.cast %[[RAW]] {npcc.state_object = "state"} : {{.*}} to !emitc.ptr<!emitc.opaque<"npcc_0_a_state">>
// CHECK: %[[SRAW:.*]] = emitc.call_opaque "nprt_shared"(%[[SELF]])
// CHECK: %[[SH:.*]] = emitc.cast %[[SRAW]] {npcc.state_object = "shared"} : {{.*}} to !emitc.ptr<!emitc.opaque<"npcc_shared_0_E">>
// CHECK: "emitc.member_of_ptr"(%[[OBJ]]) <{member = "mine"}> : {{.*}} -> !emitc.array<1xi32>
// CHECK: "emitc.member_of_ptr"(%[[SH]]) <{member = "next"}> : {{.*}} -> !emitc.array<1xi16>
// CHECK: "emitc.member_of_ptr"(%[[SH]]) <{member = "s_int"}> : {{.*}} -> !emitc.array<4xi8>
// The second element of the name declares no struct of its own.
// CHECK-NOT: npcc_shared_0_E {
// CHECK-LABEL: emitc.func @npcc_1_b_handler(
// CHECK: emitc.call_opaque "nprt_shared"
// CHECK: emitc.cast %{{.*}} {npcc.state_object = "shared"} : {{.*}} to !emitc.ptr<!emitc.opaque<"npcc_shared_0_E">>
// An element without shared state does not ask for it.
// CHECK-LABEL: emitc.func @npcc_2_f_handler(
// CHECK-NOT: nprt_shared
// CHECK: emitc.verbatim "static const nprt_shared_desc npcc_shared[] = {\0A  {.size = sizeof(npcc_shared_0_E), .init = &npcc_shared_0_E_init},\0A};
// CHECK-SAME: .handler = npcc_0_a_handler, {{[^}]*}}, .n_handlers = 0u, .push_ports = {{[0-9]+}}ull, .shared = &npcc_shared[0], .replicate = false, .merges = NULL, .n_merges = 0u, .select_ports = 0ull, .push_fns = NULL},\0A
// CHECK-SAME: .handler = npcc_1_b_handler, {{[^}]*}}, .n_handlers = 0u, .push_ports = {{[0-9]+}}ull, .shared = &npcc_shared[0], .replicate = false, .merges = NULL, .n_merges = 0u, .select_ports = 0ull, .push_fns = NULL},\0A
// CHECK-SAME: .handler = npcc_2_f_handler, {{[^}]*}}, .n_handlers = 0u, .push_ports = {{[0-9]+}}ull, .shared = NULL, .replicate = false, .merges = NULL, .n_merges = 0u, .select_ports = 0ull, .push_fns = NULL},\0A};
// CHECK-SAME: .shared = npcc_shared, .n_shared = 1u, .stages = NULL, .auto_pipeline = NULL, .cores = 0u, .mapping = 0u,
