// RUN: ucode-opt %s -split-input-file | ucode-opt -split-input-file | FileCheck %s
// RUN: ucode-opt %s -split-input-file --mlir-print-op-generic \
// RUN:   | ucode-opt -split-input-file | FileCheck %s

// CHECK-LABEL: ucode.program @Copy attributes {entry = "loop"} {
// CHECK-NEXT: ucode.bundle "in.r r1, end=p15" label "loop"{{$}}
// CHECK-NEXT: ucode.bundle "cp.out r1, data ? !p15 | brn p15, loop"{{$}}
// CHECK-NEXT: ucode.bundle "nop"{{$}}
// CHECK-NEXT: ucode.bundle "halt"{{$}}
ucode.program @Copy attributes {entry = "loop"} {
  ucode.bundle "in.r r1, end=p15" label "loop"
  ucode.bundle "brn p15, loop | cp.out r1, data ? !p15"
  ucode.bundle "nop"
  ucode.bundle "halt"
}

// -----

// Every slot in one word, slots in any order, a numeric branch target past
// the end of the program, a label used before its bundle, `.word`. The op
// holds the encoded word, so it prints in canonical syntax: slots in slot
// order, truth tables by name, a `.word` that slots can express as slots.
// CHECK-LABEL: ucode.program @Slots {
// CHECK-NEXT: ucode.bundle "in.t t1, end=p15 | cp.t t10, r12 | alu.add r3, r1, r0, lo=0x10 ? p2 | tern.eq p8, t1, t2, t3 | pred p1 = and(p8, p9), p2 = a&!b(p1, p10) | br p1, 1000"
// CHECK-NEXT: ucode.bundle "jmp .L_end" label "start"
// CHECK-NEXT: ucode.bundle "in.r r0"
// CHECK-NEXT: ucode.bundle "halt" label ".L_end" {note = "kept"}
ucode.program @Slots {
  ucode.bundle "br p1, 1000 | pred p1 = and(p8, p9), p2 = 0x4(p1, p10) | tern.eq p8, t1, t2, t3 | alu.add r3, r1, r0, lo=0x10 ? p2 | cp.t t10, r12 | in.t t1, end=p15"
  ucode.bundle "jmp .L_end" label "start"
  ucode.bundle ".word 0x0, 0x0, 0x1"
  ucode.bundle "halt" label ".L_end" {note = "kept"}
}

// -----

// CHECK-LABEL: ucode.program @Empty {
// CHECK-NEXT: }
ucode.program @Empty {
}
