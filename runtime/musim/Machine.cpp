//===- Machine.cpp - match-unit state -------------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
#include "runtime/musim/Machine.h"

namespace npcc::musim {

void InputFifo::grow() {
  size_t n = vals.size();
  std::vector<uint64_t> v(2 * n);
  std::vector<uint8_t> e(2 * n);
  for (size_t i = 0; i < n; ++i) {
    v[i] = vals[(head + i) & mask];
    e[i] = ends[(head + i) & mask];
  }
  vals.swap(v);
  ends.swap(e);
  head = 0;
  tail = n;
  mask = 2 * n - 1;
}

void Machine::reset() {
  for (unsigned i = 0; i < 17; ++i) {
    r[i] = 0;
    t[i] = 0;
    p[i] = 0;
  }
  t[0] = ~0ull; // t0 reads all ones, r0 zero, p0 one
  p[0] = 1;
  pc = lastPc = delayLeft = pendingTarget = 0;
  in = InputFifo();
  stalls = words = taken = cancelled = 0;
  execCount.assign(prog->ops.size(), 0);
  counts = execCount.data();
  fault.clear();
}

} // namespace npcc::musim
