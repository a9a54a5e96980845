// RUN: npcc-opt %s --c-lower-np-to-runtime | FileCheck %s

// Every np operation becomes a libnprt call; ports become indices within
// their direction, state becomes a private global per instance.
module {
  np.graph @G attributes {top} {
    np.instance @a of @E
    np.instance @b of @E
    np.connect @a::@o to @b::@i depth 4
    np.connect @b::@o to @a::@i depth 4
    np.connect @a::@v to @b::@w depth 1
    np.connect @b::@v to @a::@w depth 1
  }
  np.element @E {
    np.port @i in : !np.pkt
    np.port @w in : i16
    np.port @o out : !np.pkt
    np.port @v out : i16
    np.state @n : memref<1xi32> = dense<5>
    np.handler {
      %p = np.recv @i : !np.pkt
      %ok, %x = np.try_recv @w : i16
      %k = np.select [@i, @w]
      %len = np.pkt_len %p
      %c0 = arith.constant 0 : i32
      %b0 = arith.constant 0 : i64
      %f = np.pkt_get %p, %b0 {width = 16 : i32} : i16
      np.pkt_set %p, %b0, %f {width = 16 : i32, bit = 4 : i32} : i16
      %m = np.meta_get %p "paint" : i32
      %w = arith.extui %f : i16 to i64
      np.meta_set %p "anno", %w : i64
      %q = np.clone %p
      np.drop %q
      %s = np.state_ref @n : memref<1xi32>
      np.send @v, %x : i16
      np.send @o, %p : !np.pkt
    }
  }
}

// CHECK: memref.global "private" @npcc_0_a__n : memref<1xi32> = dense<5>
// CHECK-LABEL: func.func private @npcc_0_a_handler(
// CHECK-SAME: %[[SELF:.*]]: !emitc.ptr<!emitc.opaque<"nprt_inst">>)
// CHECK: %[[P:.*]] = emitc.call_opaque "nprt_recv_pkt"(%[[SELF]]) {args = [0 : index, #emitc.opaque<"0">]}
// CHECK: emitc.call_opaque "nprt_poll"(%[[SELF]]) {args = [0 : index, #emitc.opaque<"1">]} : {{.*}} -> i1
// CHECK: emitc.call_opaque "nprt_try_recv_val"(%[[SELF]]) {args = [0 : index, #emitc.opaque<"1">]}
// CHECK: emitc.call_opaque "nprt_select"(%[[SELF]]) {args = [0 : index, #emitc.opaque<"3ull">]}
// CHECK: emitc.call_opaque "nprt_pkt_len"(%[[P]])
// CHECK: emitc.call_opaque "nprt_pkt_get_bits"(%[[P]], %{{.*}}) {args = [0 : index, 1 : index, #emitc.opaque<"0">, #emitc.opaque<"16">]}
// CHECK: emitc.call_opaque "nprt_pkt_set_bits"(%[[P]], %{{.*}}, %{{.*}}) {args = [0 : index, 1 : index, #emitc.opaque<"4">, #emitc.opaque<"16">, 2 : index]}
// CHECK: emitc.call_opaque "nprt_pkt_get_meta"(%[[P]]) {args = [0 : index, #emitc.opaque<"NPRT_META_PAINT">]}
// CHECK: emitc.call_opaque "nprt_pkt_set_meta"(%[[P]], %{{.*}}) {args = [0 : index, #emitc.opaque<"NPRT_META_ANNO">, 1 : index]}
// CHECK: %[[Q:.*]] = emitc.call_opaque "nprt_clone"(%[[SELF]], %[[P]])
// CHECK: emitc.call_opaque "nprt_drop"(%[[SELF]], %[[Q]])
// CHECK: memref.get_global @npcc_0_a__n
// CHECK: emitc.call_opaque "nprt_send_val"(%[[SELF]], %{{.*}}) {args = [0 : index, #emitc.opaque<"1">, 1 : index]}
// CHECK: emitc.call_opaque "nprt_send_pkt"(%[[SELF]], %[[P]]) {args = [0 : index, #emitc.opaque<"0">, 1 : index]}
// CHECK: memref.global "private" @npcc_1_b__n : memref<1xi32> = dense<5>
// CHECK: memref.get_global @npcc_1_b__n
// CHECK-LABEL: func.func private @npcc_build_graph(
// CHECK: "nprt_graph_add_instance"({{.*}}#emitc.opaque<"\22a\22">, #emitc.opaque<"\22E\22">, #emitc.opaque<"\22i,w\22">, #emitc.opaque<"\22o,v\22">
// CHECK: "nprt_graph_connect"({{.*}}#emitc.opaque<"0">, #emitc.opaque<"0">, #emitc.opaque<"1">, #emitc.opaque<"0">, #emitc.opaque<"4">, #emitc.opaque<"false">
// CHECK-NOT: np.element
// CHECK-NOT: np.graph
// CHECK: emitc.verbatim "int main
