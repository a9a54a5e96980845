//===- Simulate.h - the cycle loop ------------------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_RUNTIME_MUSIM_SIMULATE_H
#define NPCC_RUNTIME_MUSIM_SIMULATE_H

#include "runtime/musim/RunContext.h"

namespace npcc::musim {

/// Runs the unit of `c` until the input is consumed, `halt`, a fault or the
/// cycle limit, and fills `c.result.stats` (and the error when it returns
/// false).
bool simulate(Context &c);

} // namespace npcc::musim

#endif // NPCC_RUNTIME_MUSIM_SIMULATE_H
