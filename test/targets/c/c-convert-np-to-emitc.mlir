// RUN: npcc-opt %s --c-convert-np-to-emitc | FileCheck %s
// RUN: npcc-opt %s --c-convert-np-to-emitc | npcc-opt | FileCheck %s

// Every np operation becomes a libnprt call with ports as indices within
// their direction; state is a member of the instance's state object; the
// program is constant tables. The input is what np-describe-graph leaves.
module {
  np.program @G elements [@E, @"E.b"] names ["a", "b"]
      placements ["npu", "fpga"]
      channels [array<i64: 0, 0, 1, 0, 4, 0, 0>, array<i64: 1, 0, 0, 0, 4, 1, 0>,
                array<i64: 0, 1, 1, 1, 1, 0, 0>, array<i64: 1, 1, 0, 1, 1, 0, 0>]
  np.element @E {
    np.port @i in : !np.pkt
    np.port @w in : i16
    np.port @o out : !np.pkt
    np.port @v out : i16
    np.state @n : memref<1xi32> = dense<5>
    np.state @"int" : memref<2x3xi13>
    np.handler {
    ^bb0(%self: !np.self):
      %p = np.recv @i : !np.pkt
      %ok, %x = np.try_recv @w : i16
      %k = np.select [@i, @w]
      %len = np.pkt_len %p
      %b0 = arith.constant 0 : i64
      %f = np.pkt_get %p, %b0 {width = 16 : i32} : i16
      np.pkt_set %p, %b0, %f {width = 16 : i32, bit = 4 : i32} : i16
      %m = np.meta_get %p "paint" : i32
      %w = arith.extui %f : i16 to i64
      np.meta_set %p "anno", %w : i64
      %q = np.clone %p
      np.drop %q
      %s = np.state_field %self @n : memref<1xi32>
      %t = np.state_field %self @"int" : memref<2x3xi13>
      np.send @v, %x : i16
      np.send @o, %p : !np.pkt
    }
  }
  np.element @"E.b" attributes {origin = "E"} {
    np.port @i in : !np.pkt
    np.port @w in : i16
    np.port @o out : !np.pkt
    np.port @v out : i16
    np.handler {
    ^bb0(%self: !np.self):
      %p = np.recv @i : !np.pkt
      np.send @o, %p : !np.pkt
    }
    np.signal {
    ^bb0(%self: !np.self, %msg: i64):
      %c = arith.trunci %msg : i64 to i16
      np.send @v, %c : i16
    }
  }
}
// CHECK: emitc.include "nprt/nprt.h"
// CHECK-NOT: np.
// CHECK: emitc.verbatim "typedef struct npcc_0_a_state {\0A  int32_t n[1];\0A  int16_t s_int[2][3];\0A} npcc_0_a_state;"
// CHECK: emitc.verbatim "static const npcc_0_a_state npcc_0_a_state_init = {\0A  .n = {5}\0A};"
// CHECK-LABEL: emitc.func @npcc_0_a_handler(
// CHECK-SAME: %[[SELF:.*]]: !emitc.ptr<!emitc.opaque<"nprt_inst">>) attributes {specifiers = ["static"]}
// CHECK: %[[RAW:.*]] = emitc.call_opaque "nprt_state"(%[[SELF]])
// CHECK: %[[OBJ:.*]] = emitc.cast %[[RAW]] {npcc.state_object = "state"} : {{.*}} to !emitc.ptr<!emitc.opaque<"npcc_0_a_state">>
// CHECK: %[[P:.*]] = emitc.call_opaque "nprt_recv_pkt"(%[[SELF]]) {args = [0 : index, #emitc.opaque<"0u">]}
// CHECK: emitc.call_opaque "nprt_poll"(%[[SELF]]) {args = [0 : index, #emitc.opaque<"1u">]} : {{.*}} -> i1
// CHECK: emitc.call_opaque "nprt_try_recv_val"(%[[SELF]]) {args = [0 : index, #emitc.opaque<"1u">]}
// CHECK: emitc.call_opaque "nprt_select"(%[[SELF]]) {args = [0 : index, #emitc.opaque<"3u">]}
// CHECK: emitc.call_opaque "nprt_pkt_len"(%[[P]])
// CHECK: emitc.call_opaque "nprt_pkt_get_bits"(%[[P]], %{{.*}}) {args = [0 : index, 1 : index, #emitc.opaque<"0u">, #emitc.opaque<"16u">]}
// CHECK: emitc.call_opaque "nprt_pkt_set_bits"(%[[P]], %{{.*}}, %{{.*}}) {args = [0 : index, 1 : index, #emitc.opaque<"4u">, #emitc.opaque<"16u">, 2 : index]}
// CHECK: emitc.call_opaque "nprt_pkt_get_meta"(%[[P]]) {args = [0 : index, #emitc.opaque<"NPRT_META_PAINT">]}
// CHECK: emitc.call_opaque "nprt_pkt_set_meta"(%[[P]], %{{.*}}) {args = [0 : index, #emitc.opaque<"NPRT_META_ANNO">, 1 : index]}
// CHECK: %[[Q:.*]] = emitc.call_opaque "nprt_clone"(%[[SELF]], %[[P]])
// CHECK: emitc.call_opaque "nprt_drop"(%[[SELF]], %[[Q]])
// CHECK: "emitc.member_of_ptr"(%[[OBJ]]) <{member = "n"}> : {{.*}} -> !emitc.array<1xi32>
// CHECK: "emitc.member_of_ptr"(%[[OBJ]]) <{member = "s_int"}> : {{.*}} -> !emitc.array<2x3xi16>
// CHECK: emitc.call_opaque "nprt_send_val"(%[[SELF]], %{{.*}}) {args = [0 : index, #emitc.opaque<"1u">, 1 : index]}
// CHECK: emitc.call_opaque "nprt_send_pkt"(%[[SELF]], %[[P]]) {args = [0 : index, #emitc.opaque<"0u">, 1 : index]}
// CHECK: emitc.return
// An instance without state has no state object.
// CHECK-LABEL: emitc.func @npcc_1_b_handler(
// CHECK-NOT: nprt_state
// CHECK-LABEL: emitc.func @npcc_1_b_signal(
// CHECK-SAME: !emitc.ptr<!emitc.opaque<"nprt_inst">>, %{{.*}}: i64)
// CHECK: emitc.verbatim "static const nprt_instance_desc npcc_classes[] = {
// CHECK-SAME: {.name = NULL, .element = \22E\22, .in_ports = \22i,w\22, .out_ports = \22o,v\22, .placement = \22npu\22, .init = NULL, .handler = npcc_0_a_handler, .signal = NULL, .timer = NULL, .timer_period = 0ull, .fini = NULL, .state_size = sizeof(npcc_0_a_state), .state_init = &npcc_0_a_state_init, .handlers = NULL, .n_handlers = 0u, .push_ports = 0ull, .shared = NULL, .replicate = false, .merges = NULL, .n_merges = 0u, .select_ports = 0ull, .push_fns = NULL}
// CHECK-SAME: {.name = NULL, .element = \22E\22, {{.*}} .placement = \22fpga\22, .init = NULL, .handler = npcc_1_b_handler, .signal = npcc_1_b_signal, .timer = NULL, .timer_period = 0ull, .fini = NULL, .state_size = 0, .state_init = NULL, .handlers = NULL, .n_handlers = 0u, .push_ports = 1ull, .shared = NULL, .replicate = false, .merges = NULL, .n_merges = 0u, .select_ports = 0ull, .push_fns = NULL}
// CHECK-SAME: static const char npcc_inst_names[] ={{\\0A}}   \22a\\0\22 \22b\\0\22;
// CHECK-SAME: static const uint32_t npcc_inst_class[] = {{{\\0A}}  0,1,};
// The channel that closes the cycle (b:o -> a:i, depth 4, lossy) stays
// counted: flags 1, where the others are uncounted (4) as well.
// CHECK-SAME: static const uint32_t npcc_channel_words[] = {{{\\0A}}  1,0,0,1,0,4,4,1,1,0,0,0,4,1,1,0,1,1,1,1,4,1,1,1,0,1,1,0,};
// CHECK-SAME: static const nprt_program npcc_program = {.name = \22G\22, .instances = NULL, .n_instances = 2u, .channels = NULL, .n_channels = 4u, .devices = NULL, .n_devices = 0u, .shared = NULL, .n_shared = 0u, .stages = NULL, .auto_pipeline = NULL, .cores = 0u, .mapping = 0u, .classes = npcc_classes, .n_classes = 2u, .inst_names = npcc_inst_names, .inst_class = npcc_inst_class, .channel_words = npcc_channel_words, .stage_runs = NULL};
// CHECK-SAME: return nprt_main(argc, argv, &npcc_program);
