// The image of --emit-ucode is the one muasm makes from --emit-ucode-asm,
// the listing is muasm's, and the program runs: it copies its input to the
// output until the END mark.
// RUN: ucode-translate --emit-ucode %s -o %t.mu
// RUN: ucode-translate --emit-ucode-asm %s -o %t.mua
// RUN: FileCheck %s --check-prefix=ASM < %t.mua
// RUN: muasm %t.mua -o %t.asm.mu --listing %t.asm.lst
// RUN: cmp %t.mu %t.asm.mu
// RUN: ucode-translate --emit-ucode-listing %s -o %t.lst
// RUN: diff %t.asm.lst %t.lst
// RUN: FileCheck %s --check-prefix=LST < %t.lst
// RUN: printf '0x1111\n0x2222\n0xabcdef\nend\n' > %t.in
// RUN: musim %t.mu --input %t.in | FileCheck %s --check-prefix=OUT

// Bundle labels, canonical slot order, and a label too long for the margin
// on a line of its own.
// ASM:      ; ucode.program @Copy, entry loop
// ASM-NEXT: loop:   in.r r1, end=p15
// ASM-NEXT:         cp.out r1, data ? !p15 | brn p15, loop
// ASM-NEXT:         nop
// ASM-NEXT:         alu.add r2, r2, r0, lo=0x1
// ASM-NEXT: finished:
// ASM-NEXT:         cp.out r2, len | halt
// ASM-NOT: {{.}}

// LST:      0000  0000000000000000 0000000000000000 00000000003c0005  L0: in.r r1, end=p15
// LST-NEXT: 0001  000000f800000000 0000000000000000 0000007f01800000  cp.out r1, data ? !p15 | brn p15, L0
// LST-NEXT: 0002  0000000000000000 {{.*}}  nop
// LST-NEXT: 0003  {{.*}}  alu.add r2, r2, r0, lo=0x1
// LST-NEXT: 0004  {{.*}}  cp.out r2, len | halt

// One data word per input word, then the count of loop iterations.
// OUT:      out 0: data 0x1111
// OUT-NEXT: out 1: data 0x2222
// OUT-NEXT: out 2: data 0xabcdef
// OUT-NEXT: out 3: len 0x4
// OUT-NOT:  out
ucode.program @Copy attributes {entry = "loop"} {
  ucode.bundle "in.r r1, end=p15" label "loop"
  ucode.bundle "brn p15, loop | cp.out r1, data ? !p15"
  ucode.bundle "nop"
  ucode.bundle "alu.add r2, r2, r0, lo=1"
  ucode.bundle "halt | cp.out r2, len" label "finished"
}
