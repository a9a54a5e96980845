// RUN: npcc-opt %s -split-input-file -verify-diagnostics

np.element @OutsideInit {
  np.control attributes {name = "add", write, result_kind = 0 : i32, param_kinds = array<i32: 32>, param_defaults = array<i64: 0>} {
  }
  np.handler {
    // expected-error @+1 {{'np.handler_load' op is only allowed in 'np.init'}}
    np.handler_load "add", "routes.txt"
  }
}

// -----

np.element @NoFile {
  np.control attributes {name = "add", write, result_kind = 0 : i32, param_kinds = array<i32: 32>, param_defaults = array<i64: 0>} {
  }
  np.init {
    // expected-error @+1 {{'np.handler_load' op needs a file name}}
    np.handler_load "add", ""
  }
  np.handler {
  }
}

// -----

np.element @NoSuchHandler {
  np.init {
    // expected-error @+1 {{'np.handler_load' op names no write handler of the element: 'add'}}
    np.handler_load "add", "routes.txt"
  }
  np.handler {
  }
}

// -----

np.element @ReadHandler {
  np.control attributes {name = "add", result_kind = 32 : i32, param_kinds = array<i32>, param_defaults = array<i64>} {
  }
  np.init {
    // expected-error @+1 {{'np.handler_load' op names no write handler of the element: 'add'}}
    np.handler_load "add", "routes.txt"
  }
  np.handler {
  }
}
