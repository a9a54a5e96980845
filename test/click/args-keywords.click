// Keyword arguments: an all-caps first word followed by a value names a
// parameter (compared lowercased) and binds by name, in any order, after
// or between positional ones; parameters left out before one given take
// their defaults.
// RUN: npcc %s --target=ast | FileCheck %s
require(library "Inputs/args-lib.np")

src :: FromDevice(0);
p1 :: Print(MAXLENGTH 4);
p2 :: Print(in, MAXLENGTH -1);
a :: Args(KIND unreachable, E 3, 9, BIG 0x10);
src -> p1 -> p2 -> a -> CheckLength(LENGTH 100) -> ToDevice(0);

// CHECK-LABEL: Graph args_keywords()
// CHECK: Instance p1 = Print("", 4) @9:1
// CHECK-NEXT: Instance p2 = Print("in", (-1)) @10:1
// CHECK-NEXT: Instance a = Args(9, 0, 0, 0, 3, Args_kind_unreachable, 16) @11:1
// CHECK-NEXT: Instance CheckLength@5 = CheckLength(100, 1)
