// A `prefix` parameter takes ADDR/LEN, ADDR/MASK or a bare ADDR (/32) and
// becomes prefix(address, length); a struct parameter takes one argument
// whose space-separated words convert field by field (Route(dst, gw,
// port)), a word for an integer field also as a constant
// `Routes_table_WORD` or `Route_port_WORD`. (AST only: the types are the
// frontend's.)
// RUN: npcc %s --target=ast | FileCheck %s
require(library "Inputs/prefix-lib.np")

src :: FromDevice(0);
r :: Routes(18.26.4.0/24,
            18.26.4.24 18.26.4.1 1,
            10/8 10.0.0.1 uplink,
            0.0.0.0/0.0.0.0 0x0a000001 0);
src -> r -> ToDevice(0);

// CHECK-LABEL: Graph args_prefix_struct()
// CHECK: Instance r = Routes(prefix(303694848, 24), Route(prefix(303694872, 32), 303694849, 1), Route(prefix(167772160, 8), 167772161, Route_port_uplink), Route(prefix(0, 0), 167772161, 0)) @11:1
