// RUN: npcc-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{header and item sizes must be 1..64 words}}
match.program @Big attributes {header_words = 65} {
  %h = match.header_word 0 : i64
  match.accept %h, %h
}

// -----

match.program @OutOfRange attributes {item_words = 2} {
  // expected-error @+1 {{word 2 is outside the item (2 words)}}
  %i = match.item_word 2 : i64
  match.accept %i, %i
}

// -----

match.program @Header {
  // expected-error @+1 {{word 8 is outside the header (8 words)}}
  %h = match.header_word 8 : i64
  match.accept %h, %h
}

// -----

func.func @outside() {
  // expected-error @+1 {{must be inside a 'match.program'}}
  %h = match.header_word 0 : i64
  return
}

// -----

match.program @Straddle {
  %h = match.header_word 0 : i64
  // expected-error @+1 {{field [60, 68) does not fit in a 64-bit word}}
  %f = match.field %h {lsb = 60 : i64, width = 8 : i64} : i8
  match.accept %h, %h
}

// -----

match.program @Width {
  %h = match.header_word 0 : i64
  // expected-error @+1 {{result type must be i8}}
  %f = match.field %h {lsb = 0 : i64, width = 8 : i64} : i16
  match.accept %h, %h
}

// -----

match.program @FailType {
  %h = match.header_word 0 : i64
  // expected-error @+1 {{operand #0 must be 1-bit signless integer}}
  "match.fail_if"(%h) : (i64) -> ()
  match.accept %h, %h
}

// -----

match.program @AcceptType {
  %h = match.header_word 0 : i64
  %f = match.field %h {lsb = 0 : i64, width = 8 : i64} : i8
  // expected-error @+1 {{operand #0 must be 64-bit signless integer}}
  "match.accept"(%f, %h) : (i8, i64) -> ()
}

// -----

func.func @acceptOutside(%a: i64) {
  // expected-error @+1 {{expects parent op to be one of 'match.program, match.speculate'}}
  match.accept %a, %a
  return
}

// -----

match.program @SpeculateNoAccept {
  %h = match.header_word 0 : i64
  %c = arith.constant true
  // expected-error @+1 {{each region must end with 'match.accept'}}
  "match.speculate"(%c) ({
    match.accept %h, %h
  }, {
    match.fail_if %c
  }) : (i1) -> ()
}

// -----

func.func @speculateOutside(%c: i1, %a: i64) {
  // expected-error @+1 {{expects parent op 'match.program'}}
  match.speculate %c {
    match.accept %a, %a
  } otherwise {
    match.accept %a, %a
  }
  return
}

// -----

match.program @SpeculateNotLast {
  %h = match.header_word 0 : i64
  %c = arith.constant true
  // expected-error @+1 {{must be the last operation in the parent block}}
  match.speculate %c {
    match.accept %h, %h
  } otherwise {
    match.accept %h, %h
  }
  match.accept %h, %h
}

// -----

match.program @Bswap {
  %i = match.item_word 0 : i64
  %g = match.field %i {lsb = 0 : i64, width = 12 : i64} : i12
  // expected-error @+1 {{operand must be whole bytes, not i12}}
  %b = match.bswap %g : i12
  match.accept %i, %i
}

// -----

match.program @Wide {
  %i = match.item_word 0 : i64
  %c = arith.constant 0 : i65
  // expected-error @+1 {{operand must be at most 64 bits wide}}
  %b = match.popcount %c : i65
  match.accept %i, %i
}
