// RadixIPLookup has one output per port its routes use, counted by the
// library's compile-time function route_outputs (a loop over the routes,
// at most 8 outputs): the outputs left unconnected go to synthesized
// Discards, and none past the count. StaticIPLookup and LinearIPLookup
// (aliases) count the same way.
// RUN: npcc %s --target=ast | FileCheck %s
// RUN: npcc %s --target=mlir | FileCheck %s --check-prefix=NPL

rt :: RadixIPLookup(18.26.4.0/24 0, 10.0.0.0/8 18.26.4.1 3);
st :: StaticIPLookup(0/0 12);
lt :: LinearIPLookup(18.26.4.0/24 1);
FromDevice(0) -> rt -> ToDevice(0);
FromDevice(1) -> st -> ToDevice(1);
FromDevice(2) -> lt -> ToDevice(2);
rt[3] -> Discard;
st[7] -> Discard;

// CHECK-DAG: Instance Discard:rt[1] = Discard()
// CHECK-DAG: Instance Discard:rt[2] = Discard()
// CHECK-DAG: Instance Discard:st[6] = Discard()
// CHECK-DAG: Instance Discard:lt[1] = Discard()
// CHECK-NOT: Discard:rt[4]
// CHECK-NOT: Discard:st[8]
// CHECK-NOT: Discard:lt[2]

// The front end counts the same outputs:
// NPL-LABEL: np.element @RadixIPLookup
// NPL: np.port @"o[3]" out
// NPL-NOT: np.port @"o[4]"
// NPL-LABEL: np.element @StaticIPLookup
// NPL: np.port @"o[7]" out
// NPL-NOT: np.port @"o[8]"
// NPL-LABEL: np.element @LinearIPLookup
// NPL: np.port @"o[1]" out
// NPL-NOT: np.port @"o[2]"
