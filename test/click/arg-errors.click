// Bad arguments are errors at the argument (or the keyword, or the word
// of a struct argument), naming the parameter and what was expected.
// RUN: not npcc %s --target=ast 2>&1 | FileCheck %s
require(library "Inputs/args-lib.np")
require(library "Inputs/prefix-lib.np")

src :: FromDevice(0);
a :: Args(abc, 1, 2, 3, 4, nosuch);
b :: Args(1, -1, 1.2.3.4.5);
f :: Flags(maybe);
p :: Print(LABEL x, MAXLENGTH 3, MAXLENGTH 4, COLOR red);
q :: Print(x, LABEL y);
s :: Strip;
t :: Strip(1, 2);
r :: Routes(10.0.0.0/33, 10/8 1 2 3, 10/8);
src -> a -> b -> f -> p -> q -> s -> t -> r -> ToDevice(0);
// CHECK: arg-errors.click:8:11: error: expected an integer, an IPv4 address or an Ethernet address for parameter 'a' of 'Args' (type 'u32'), found 'abc'
// CHECK: arg-errors.click:8:28: error: expected an integer, an IPv4 address or an Ethernet address, or one of timeexceeded, unreachable for parameter 'kind' of 'Args' (type 'u8'), found 'nosuch'
// CHECK: arg-errors.click:9:14: error: negative value '-1' for parameter 'b' of 'Args' of type 'u16'
// CHECK: arg-errors.click:9:18: error: expected an integer, an IPv4 address or an Ethernet address for parameter 'c' of 'Args' (type 'i16'), found '1.2.3.4.5'
// CHECK: arg-errors.click:10:12: error: expected a boolean (true, false, yes, no, 1 or 0) for parameter 'on' of 'Flags', found 'maybe'
// CHECK: arg-errors.click:11:34: error: parameter 'MAXLENGTH' of 'Print' is given twice
// CHECK: arg-errors.click:11:47: error: unknown keyword 'COLOR' for 'Print'; its parameters are LABEL, MAXLENGTH
// CHECK: arg-errors.click:12:12: error: parameter 'LABEL' of 'Print' is given by position and by keyword
// CHECK: arg-errors.click:13:1: error: missing argument for parameter 'LENGTH' of 'Strip' (parameter 1)
// CHECK: arg-errors.click:14:15: error: too many arguments: 'Strip' takes at most 1
// CHECK: arg-errors.click:15:13: error: expected an IPv4 prefix (ADDR/LEN, ADDR/MASK or ADDR) for parameter 'local' of 'Routes', found '10.0.0.0/33'
// CHECK: arg-errors.click:15:35: error: too many words for parameter 'table' of 'Routes': 'Route' has 3 fields (dst gw port)
// CHECK: arg-errors.click:15:38: error: too few words for parameter 'table' of 'Routes': 'Route' needs 3 of its fields (dst gw port), 1 given
