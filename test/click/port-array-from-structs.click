// A port array sized by fields of variadic struct arguments: the front end
// reads `rs[k].port` from the converted arguments to number the ports, and
// sends the outputs left unconnected (o[1]) to synthesized Discards.
// RUN: npcc %s --target=ast | FileCheck %s
require(library "Inputs/ports-lib.np")

f :: Fan(10.0.0.0/8 2, 0.0.0.0/0 1);
FromDevice(0) -> f -> ToDevice(0);
f[2] -> Discard;

// CHECK: Instance f = Fan(R(prefix(167772160, 8), 2), R(prefix(0, 0), 1))
// CHECK-DAG: Instance Discard:f[1] = Discard()
