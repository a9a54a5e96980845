// A keyword may name a variadic parameter: its words are the list, as
// Click's INTERFACES a/m b/m; the list cannot also be given by position.
// RUN: npcc %s --target=ast | FileCheck %s
// RUN: not npcc %S/Inputs/variadic-both.click --target=ast 2>&1 | FileCheck %s --check-prefix=BOTH
require(library "Inputs/variadic-lib.np")

FromDevice(0) -> K(1, LIST 18.26.4.0/24 10.0.0.0/8) -> ToDevice(0);

// CHECK: Instance K@2 = K(1, prefix(303694848, 24), prefix(167772160, 8))
// BOTH: variadic-both.click:2:23: error: parameter 'LIST' of 'K' is given by position and by keyword
