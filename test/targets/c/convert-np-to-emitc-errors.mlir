// RUN: npcc-opt %s --c-convert-np-to-emitc -split-input-file -verify-diagnostics

// The pass needs np-describe-graph's table.
// expected-error @below {{no np.program to compile; run np-describe-graph}}
module {
  np.graph @G attributes {top} {
    np.instance @e of @E
  }
  np.element @E {
    np.handler {
    ^bb0(%self: !np.self):
    }
  }
}

// -----

// State must be reached through !np.self.
module {
  np.program @G elements [@E] names ["e"] placements ["npu"] channels []
  np.element @E {
    np.state @n : memref<1xi32>
    np.handler {
    ^bb0(%self: !np.self):
      // expected-error @below {{must be made explicit first (np-make-state-explicit)}}
      %m = np.state_ref @n : memref<1xi32>
    }
  }
}

// -----

module {
  np.program @G elements [@E] names ["e"] placements ["npu"] channels []
  np.element @E {
    // expected-error @below {{takes no '!np.self'; run np-make-state-explicit first}}
    np.handler {
    }
  }
}

// -----

// An element the program does not use would be dead C.
module {
  np.program @G elements [@E] names ["e"] placements ["npu"] channels []
  np.element @E {
    np.handler {
    ^bb0(%self: !np.self):
    }
  }
  // expected-error @below {{is not used by the program; run np-instantiate-elements first}}
  np.element @F {
    np.handler {
    ^bb0(%self: !np.self):
    }
  }
}
