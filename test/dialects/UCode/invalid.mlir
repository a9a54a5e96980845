// RUN: ucode-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect
// The microcode memory holds 1024 words: 1024 bundles verify, 1025 do not.
// RUN: (echo 'ucode.program @Max {'; yes 'ucode.bundle "nop"' | head -n 1024; echo '}') \
// RUN:   | ucode-opt | FileCheck %s --check-prefix=MAX
// RUN: (echo 'ucode.program @Long {'; yes 'ucode.bundle "nop"' | head -n 1025; echo '}') \
// RUN:   | not ucode-opt 2>&1 | FileCheck %s --check-prefix=LONG
// MAX: ucode.program @Max
// LONG: error: 'ucode.program' op has 1025 bundles, more than the 1024 words of microcode memory

//===----------------------------------------------------------------------===//
// ucode.bundle: the word's text, parsed by the ISA library
//===----------------------------------------------------------------------===//

ucode.program @P {
  // expected-error @+1 {{invalid word: column 1: unknown mnemonic 'alu.mul'}}
  ucode.bundle "alu.mul r1, r2, r3"
}

// -----

ucode.program @P {
  // expected-error @+1 {{invalid word: column 6: unexpected character ';'}}
  ucode.bundle "halt ; done"
}

// -----

ucode.program @P {
  // expected-error @+1 {{invalid word: column 1: expected a slot}}
  ucode.bundle ""
}

// -----

ucode.program @P {
  // expected-error @+1 {{invalid word: column 8: duplicate 'br' slot in one word}}
  ucode.bundle "halt | halt"
}

// -----

ucode.program @P {
  // expected-error @+1 {{invalid word: column 8: branch target 1024 out of range (0..1023)}}
  ucode.bundle "br p1, 1024"
}

// -----

ucode.program @P {
  // expected-error @+1 {{'ucode.bundle' op label 'two words' is not an identifier ([A-Za-z_.][A-Za-z0-9_.]*)}}
  ucode.bundle "halt" label "two words"
}

// -----

ucode.program @P {
  // expected-error @+1 {{'ucode.bundle' op label '1st' is not an identifier}}
  ucode.bundle "halt" label "1st"
}

// -----

// expected-error @+1 {{'ucode.bundle' op expects parent op 'ucode.program'}}
ucode.bundle "halt"

//===----------------------------------------------------------------------===//
// ucode.program: contents, labels, branch targets, entry
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{'ucode.program' op may contain only 'ucode.bundle', found 'test.op'}}
ucode.program @P {
  ucode.bundle "nop"
  "test.op"() : () -> () // expected-note {{found here}}
}

// -----

ucode.program @P {
  ucode.bundle "nop" label "top" // expected-note {{first defined here}}
  // expected-error @+1 {{'ucode.bundle' op label 'top' is defined twice}}
  ucode.bundle "halt" label "top"
}

// -----

ucode.program @P {
  ucode.bundle "nop" label "top"
  // expected-error @+1 {{'ucode.bundle' op branch to undefined label 'tpo'}}
  ucode.bundle "br p8, tpo"
}

// -----

// expected-error @+1 {{'ucode.program' op entry 'main' is not a bundle label}}
ucode.program @P attributes {entry = "main"} {
  ucode.bundle "halt" label "start"
}

// -----

// expected-error @+1 {{'ucode.program' op entry 'main' is not a bundle label}}
ucode.program @P attributes {entry = "main"} {
}

// -----

// expected-error @+1 {{'ucode.program' op entry 'main' does not label the first bundle: the unit starts at address 0}}
ucode.program @P attributes {entry = "main"} {
  ucode.bundle "nop"
  ucode.bundle "halt" label "main" // expected-note {{label defined here}}
}

// -----

ucode.program @P {
  // expected-error @+1 {{'ucode.bundle' op bits above bit 177 are set}}
  "ucode.bundle"() <{bits = array<i64: 0, 0, -1>}> : () -> ()
}

// -----

ucode.program @P {
  // expected-error @+1 {{'ucode.bundle' op bits must hold 3 64-bit words, found 2}}
  "ucode.bundle"() <{bits = array<i64: 0, 0>}> : () -> ()
}
