// RUN: npcc-opt %s -split-input-file -np-describe-graph -verify-diagnostics

// expected-error @below {{no top-level graph to compile}}
module {
}

// -----

module {
  np.element @E {
    np.handler {}
  }
  np.graph @G attributes {top} {
    np.instance @a of @E
    // expected-error @below {{must instantiate an element of its own; run np-flatten-graph and np-instantiate-elements first}}
    np.instance @b of @E
  }
}

// -----

module {
  np.element @E {
    np.port @i in : !np.pkt
    np.handler {}
  }
  np.graph @G attributes {top} {
    // expected-error @below {{of the top graph has nothing to connect to}}
    np.port @in in : !np.pkt
    np.instance @a of @E
    np.connect @in to @a::@i depth 1
  }
}
