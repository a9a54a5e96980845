// RUN: npcc-opt %s -split-input-file -np-instantiate-elements -verify-diagnostics

// expected-error @below {{no top-level graph to compile}}
module {
  np.element @E {
    np.handler {}
  }
}

// -----

module {
  np.graph @Inner {
    np.instance @e of @E
  }
  np.graph @G attributes {top} {
    // expected-error @below {{does not instantiate an element; run np-flatten-graph first}}
    np.instance @c of @Inner
  }
  np.element @E {
    np.handler {}
  }
}
