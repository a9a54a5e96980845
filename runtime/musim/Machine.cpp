//===- Machine.cpp - match-unit state -------------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
#include "runtime/musim/Machine.h"

namespace npcc::musim {

void Machine::reset() {
  for (unsigned i = 0; i < 17; ++i) {
    r[i] = 0;
    t[i] = 0;
    p[i] = 0;
  }
  t[0] = ~0ull; // t0 reads all ones, r0 zero, p0 one
  p[0] = 1;
  pc = lastPc = delayLeft = pendingTarget = 0;
  stalls = words = taken = cancelled = 0;
  execCount.assign(prog->simOps.size(), 0);
}

} // namespace npcc::musim
