// RUN: npcc-opt %s -split-input-file -np-flatten-graph -verify-diagnostics
// RUN: not npcc-opt %s -split-input-file -np-flatten-graph=top=Nope 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OPTION

// OPTION: error: no graph named 'Nope' (option 'top')

np.element @Fwd {
  np.port @in in : !np.pkt
  np.port @out out : !np.pkt
  np.handler {}
}

// A graph may not contain itself through other graphs; the verifier rejects
// it before the pass runs.
// expected-error @+1 {{'np.graph' op instantiates itself}}
np.graph @A {
  np.port @in in : !np.pkt
  np.port @out out : !np.pkt
  np.instance @b of @B // expected-note {{through this instance: 'A' -> 'B' -> 'A'}}
  np.connect @in to @b::@in depth 0
  np.connect @b::@out to @out depth 0
}
np.graph @B {
  np.port @in in : !np.pkt
  np.port @out out : !np.pkt
  np.instance @a of @A
  np.connect @in to @a::@in depth 0
  np.connect @a::@out to @out depth 0
}
np.graph @Top {
  np.port @in in : !np.pkt
  np.port @out out : !np.pkt
  np.instance @a of @A
  np.connect @in to @a::@in depth 0
  np.connect @a::@out to @out depth 0
}

// -----

np.element @Loop {
  np.port @in in : !np.pkt
  np.port @out out : !np.pkt
  np.handler {}
}
np.graph @First { // expected-note {{graph 'First' is not instantiated either}}
  np.instance @l of @Loop
  np.connect @l::@out to @l::@in depth 1
}
// expected-error @+1 {{'np.graph' op is one of 2 graphs that no graph instantiates; mark the top graph with 'top' or name it with the 'top' option}}
np.graph @Second {
  np.instance @l of @Loop
  np.connect @l::@out to @l::@in depth 1
}

// -----

np.element @Loop {
  np.port @in in : !np.pkt
  np.port @out out : !np.pkt
  np.handler {}
}
np.graph @First attributes {top} { // expected-note {{other top graph here}}
  np.instance @l of @Loop
  np.connect @l::@out to @l::@in depth 1
}
// expected-error @+1 {{'np.graph' op is marked 'top', and so is graph 'First'}}
np.graph @Second attributes {top} {
  np.instance @l of @Loop
  np.connect @l::@out to @l::@in depth 1
}

// -----

np.element @Fwd {
  np.port @in in : !np.pkt
  np.port @out out : !np.pkt
  np.handler {}
}
np.graph @Pair {
  np.port @in in : !np.pkt
  np.port @out out : !np.pkt
  np.instance @a of @Fwd
  np.connect @in to @a::@in depth 0
  np.connect @a::@out to @out depth 0
}
np.graph @Top {
  np.instance @"p/a" of @Fwd
  // expected-error @+1 {{'np.instance' op cannot be flattened: graph 'Top' already has a symbol named 'p/a'}}
  np.instance @p of @Pair
  np.connect @"p/a"::@out to @p::@in depth 0
  np.connect @p::@out to @"p/a"::@in depth 0
}

// -----

np.graph @Wire {
  np.port @in in : !np.pkt
  np.port @out out : !np.pkt
  np.connect @in to @out depth 0
}
np.graph @Top {
  // expected-error @+1 {{'np.instance' op cannot be flattened: a pass-through of 'Wire' is wired back to the instance}}
  np.instance @w of @Wire
  np.connect @w::@out to @w::@in depth 0
}
