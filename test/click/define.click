// define($X value) and $X, ${X}, ${X-default} in configurations; a
// string argument that is exactly one define is marked with it (for
// run-time overrides), also through an elementclass formal. -D X=V (or
// -DX=V) overrides a define or adds one.
// RUN: npcc %s --target=ast | FileCheck %s
// RUN: npcc %s --target=ast -D LEN=20 -DLABEL=other -D EXTRA=1 | FileCheck %s --check-prefix=OVERRIDE

define($LEN 14, $LABEL in   , $PAT 12/0800)
elementclass Labelled { $l |
  define($MAX 8)
  input -> Print($l, $MAX) -> output;
}

src :: FromDevice(0);
src -> Strip($LEN) -> Print($LABEL) -> Print(${LABEL}) -> Print("$LABEL-x")
    -> Print(${NOPE-fallback}) -> Labelled($LABEL) -> Classifier($PAT, -)
    -> ToDevice(0);

// CHECK-LABEL: Graph Labelled()
// CHECK: Instance Print@1 = Print("in" (define $LABEL), 8)
// CHECK-LABEL: Graph define()
// CHECK: Instance Strip@2 = Strip(14) @15:8
// CHECK-NEXT: Instance Print@3 = Print("in" (define $LABEL)) @15:23
// CHECK-NEXT: Instance Print@4 = Print("in" (define $LABEL)) @15:40
// CHECK-NEXT: Instance Print@5 = Print("in-x") @15:59
// CHECK-NEXT: Instance Print@6 = Print("fallback") @16:8
// CHECK-NEXT: Instance Labelled@7 = Labelled() @16:35
// CHECK-NEXT: Instance Classifier@8 = Classifier("12/0800" (define $PAT), "-") @16:55

// OVERRIDE: Instance Print@1 = Print("other" (define $LABEL), 8)
// OVERRIDE: Instance Strip@2 = Strip(20)
// OVERRIDE-NEXT: Instance Print@3 = Print("other" (define $LABEL))
