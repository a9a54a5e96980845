// RUN: npcc-opt %s -split-input-file -verify-diagnostics

np.element @E {
  np.handler {}
}
// expected-error @below {{has 1 elements but 2 names and 1 placements}}
np.program @P elements [@E] names ["a", "b"] placements ["npu"] channels []

// -----

np.element @E {
  np.handler {}
}
// expected-error @below {{placement must be 'npu', 'fpga' or 'host', found 'gpu'}}
np.program @P elements [@E] names ["a"] placements ["gpu"] channels []

// -----

np.element @E {
  np.port @o out : i32
  np.handler {}
}
// expected-error @below {{channel 0 has 5 fields, expected 7}}
np.program @P elements [@E] names ["a"] placements ["npu"] channels [array<i64: 0, 0, 0, 0, 1>]

// -----

np.element @E {
  np.port @o out : i32
  np.port @i in : i32
  np.handler {}
}
// expected-error @below {{channel 0 refers to instance 3 of 1}}
np.program @P elements [@E] names ["a"] placements ["npu"] channels [array<i64: 0, 0, 3, 0, 1, 0, 0>]

// -----

np.element @E {
  np.port @o out : i32
  np.port @i in : i32
  np.handler {}
}
// expected-error @below {{channel 0 has lossy flag 2, expected 0 or 1}}
np.program @P elements [@E] names ["a"] placements ["npu"] channels [array<i64: 0, 0, 0, 0, 1, 2, 0>]

// -----

np.element @E {
  np.port @o out : i32
  np.port @i in : i32
  np.handler {}
}
// expected-error @below {{channel 0 refers to a port that instance 'a' does not have}}
np.program @P elements [@E] names ["a"] placements ["npu"] channels [array<i64: 0, 1, 0, 0, 1, 0, 0>]

// -----

np.element @E {
  np.port @o out : i32
  np.port @i in : !np.pkt
  np.handler {}
}
// expected-error @below {{channel 0 connects a port of type 'i32' to one of type '!np.pkt'}}
np.program @P elements [@E] names ["a"] placements ["npu"] channels [array<i64: 0, 0, 0, 0, 1, 0, 0>]

// -----

np.element @E {
  np.port @o out : i32
  np.port @i in : i32
  np.port @j in : i32
  np.handler {}
}
// expected-error @below {{channel 1 uses a port that another channel uses}}
np.program @P elements [@E] names ["a"] placements ["npu"] channels [array<i64: 0, 0, 0, 0, 1, 0, 0>, array<i64: 0, 0, 0, 1, 1, 0, 0>]

// -----

np.element @E {
  np.handler {}
}
// expected-error @below {{element 'E' is used by two instances; run np-instantiate-elements first}}
np.program @P elements [@E, @E] names ["a", "b"] placements ["npu", "npu"] channels []

// -----

// expected-error @below {{'F' does not name an 'np.element'}}
np.program @P elements [@F] names ["a"] placements ["npu"] channels []

// -----

np.element @E {
  np.handler {}
}
// expected-error @below {{instance name 'a' is used twice}}
np.program @P elements [@E, @E] names ["a", "a"] placements ["npu", "npu"] channels []

// -----

np.element @E {
  np.port @o out : i32
  np.port @i in : i32
  np.handler {}
}
// expected-error @below {{channel 0 has fused flag 2, expected 0 or 1}}
np.program @P elements [@E] names ["a"] placements ["npu"] channels [array<i64: 0, 0, 0, 0, 1, 0, 2>]

// -----

np.element @E {
  np.port @o out : i32
  np.port @i in : i32
  np.handler {}
}
// expected-error @below {{channel 0 is both lossy and fused: a lossy channel drops when full}}
np.program @P elements [@E] names ["a"] placements ["npu"] channels [array<i64: 0, 0, 0, 0, 1, 1, 1>]
