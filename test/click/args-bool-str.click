// bool parameters take true/false, yes/no, 1/0 (and t/f, y/n); str
// parameters the argument's text with one level of quoting removed
// ("..." with backslash escapes, '...', \<hex bytes>); a variadic
// parameter (`names: str...`) the remaining positional arguments.
// RUN: npcc %s --target=ast | FileCheck %s
// RUN: npcc %s --target=mlir | FileCheck %s --check-prefix=IR
require(library "Inputs/args-lib.np")

src :: FromDevice(0);
f1 :: Flags(yes, 0, plain words, "a, b", 'single "quoted"', "\x41\102", \<4865 6c6c6f>);
f2 :: Flags(true, n, /* a comment */ spaced  out);
f3 :: Flags(1);
src -> f1 -> f2 -> f3 -> Classifier(12/0800 20/0001, "12/0806", -) -> ToDevice(0);

// CHECK-LABEL: Graph args_bool_str()
// CHECK: Instance f1 = Flags(true, false, "plain words", "a, b", "single "quoted"", "AB", "Hello") @10:1
// CHECK-NEXT: Instance f2 = Flags(true, false, "spaced  out") @11:1
// CHECK-NEXT: Instance f3 = Flags(true) @12:1
// CHECK-NEXT: Instance Classifier@5 = Classifier("12/0800 20/0001", "12/0806", "-")

// IR: np.instance @f1 of @Flags {args = [true, false, "plain words", "a, b", "single \22quoted\22", "AB", "Hello"]}
