// Declarations (`name :: Class(args)`, `a, b :: Class`), anonymous
// elements (`Class(args)` and bare `Class` in a connection) and Click's
// automatic names: `Class@N`, N the element's position in its scope
// (declared elements count), moved past a name the configuration took.
// RUN: npcc %s --target=ast | FileCheck %s

src :: FromDevice(0);
a, b :: Counter;
Counter@5 :: Counter();   // the name the next Counter would get
src -> a -> b -> Counter@5 -> Counter -> Paint(7) -> ToDevice;

// CHECK-LABEL: Graph declarations() @1:1
// CHECK-NEXT:   Instance src = FromDevice(0) @7:1
// CHECK-NEXT:   Instance a = Counter() @8:1
// CHECK-NEXT:   Instance b = Counter() @8:4
// CHECK-NEXT:   Instance Counter@5 = Counter() @9:1
// CHECK-NEXT:   Instance Counter@6 = Counter() @10:31
// CHECK-NEXT:   Instance Paint@6 = Paint(7) @10:42
// CHECK-NEXT:   Instance ToDevice@7 = ToDevice() @10:54
// CHECK-NEXT:   Connect src.o -> a.i @10:5
// CHECK-NEXT:   Connect a.o -> b.i @10:10
// CHECK-NEXT:   Connect b.o -> Counter@5.i @10:15
// CHECK-NEXT:   Connect Counter@5.o -> Counter@6.i @10:28
// CHECK-NEXT:   Connect Counter@6.o -> Paint@6.i @10:39
// CHECK-NEXT:   Connect Paint@6.o -> ToDevice@7.i @10:51
// CHECK-NOT: Instance
