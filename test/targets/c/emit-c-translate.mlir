// npcc-translate --emit-c lowers np IR written by hand.
// RUN: npcc-translate --emit-c %s -o %t.c
// RUN: FileCheck %s < %t.c
// RUN: %cc -c -I %nprt_include %t.c -o %t.o
module {
  np.graph @G attributes {top} {
    np.instance @src of @Src
    np.instance @sink of @Sink
    np.connect @src::@o to @sink::@i depth 0
  }
  np.element @Src {
    np.port @o out : i32
    np.handler {
      %c = arith.constant 7 : i32
      np.send @o, %c : i32
    }
  }
  np.element @Sink {
    np.port @i in : i32
    np.handler {
      %v = np.recv @i : i32
    }
  }
}
// The channel is fused (np-fuse): the send calls the sink's push body.
// CHECK: static inline void npcc_1_sink_push_i(nprt_inst* {{v[0-9]+}}, int64_t {{v[0-9]+}});
// CHECK-LABEL: static void npcc_0_src_handler(
// CHECK: [[TO:v[0-9]+]] = nprt_link_pass_val({{.*}}, 0u, {{.*}})
// CHECK: npcc_1_sink_push_i([[TO]],
// CHECK-LABEL: static void npcc_1_sink_handler(
// CHECK: nprt_recv_val({{.*}}, 0u)
// One channel from 0:0 to 1:0, a rendezvous (depth 0), fused and
// uncounted (flags 6).
// CHECK: static const uint32_t npcc_channel_words[] = {
// CHECK-NEXT: 1,0,0,1,0,0,6,};
