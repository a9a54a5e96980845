// RUN: npcc-opt %s -split-input-file --match-select-ucode -verify-diagnostics

// The general path is entered by one ternary compare of option bits: an
// assumption of another shape breaks the contract of
// match-speculate-option-flags.
match.program @NotAFlagTest {
  %i0 = match.item_word 0 : i64
  %h0 = match.header_word 0 : i64
  %lt = arith.cmpi ult, %i0, %h0 : i64
  // expected-error @+1 {{the assumption of 'match.speculate' must test option bits of an item field: (x & K) == 0}}
  match.speculate %lt {
    match.accept %i0, %i0
  } otherwise {
    match.accept %h0, %h0
  }
}

// -----

match.program @Multiply {
  %i0 = match.item_word 0 : i64
  %h0 = match.header_word 0 : i64
  // expected-error @+1 {{the match unit has no multiplier}}
  %p = arith.muli %i0, %h0 : i64
  match.accept %p, %p
}

// -----

// expected-error @+1 {{the list manager streams 8-word headers and items}}
match.program @Short attributes {header_words = 4, item_words = 8} {
  %i0 = match.item_word 0 : i64
  match.accept %i0, %i0
}
