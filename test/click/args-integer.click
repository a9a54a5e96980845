// Integer parameters take Click integers (decimal, 0x hex, 0b binary, a
// leading 0 for octal, '_' between digits, '-' for signed types), IPv4
// addresses and Ethernet addresses (':' or '-' separated), and symbolic
// names: a word for parameter `kind` of `Args` is the library constant
// `Args_kind_WORD`.
// RUN: npcc %s --target=ast | FileCheck %s
// RUN: npcc %s --target=mlir | FileCheck %s --check-prefix=IR
require(library "Inputs/args-lib.np")

src :: FromDevice(0);
a1 :: Args(10, 0x0800, -5, 00:00:c0:ae:67:ef, 010, timeexceeded, 1_000_000);
a2 :: Args(18.26.4.24, 0b101, +7, 00-00-C0-AE-67-EF, 0xff, unreachable, 0);
src -> a1 -> a2 -> ToDevice(0);

// CHECK-LABEL: Graph args_integer()
// CHECK-NEXT: Instance src = FromDevice(0)
// CHECK-NEXT: Instance a1 = Args(10, 2048, (-5), 3232655343, 8, Args_kind_timeexceeded, 1000000) @11:1
// CHECK-NEXT: Instance a2 = Args(303694872, 5, 7, 3232655343, 255, Args_kind_unreachable, 0) @12:1

// IR: np.instance @a1 of @Args {args = [10, 2048, -5, 3232655343, 8, 11, 1000000]}
// IR: np.instance @a2 of @Args_1 {args = [303694872, 5, 7, 3232655343, 255, 3, 0]}
