// RUN: ucode-translate --emit-ucode %s -split-input-file -verify-diagnostics
// RUN: ucode-translate --emit-ucode-asm %s -split-input-file -verify-diagnostics
// RUN: ucode-translate --emit-ucode-listing %s -split-input-file -verify-diagnostics

// expected-error @+1 {{expected one 'ucode.program', found 0}}
module {
}

// -----

// expected-error @+1 {{expected one 'ucode.program', found 2}}
module {
  ucode.program @A {
    ucode.bundle "halt"
  }
  ucode.program @B {
    ucode.bundle "halt"
  }
}
