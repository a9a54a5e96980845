//===- InputFifo.cpp - the match unit's input FIFO ------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
#include "runtime/musim/InputFifo.h"

namespace npcc::musim {

InputFifo::Run *InputFifo::grow(Run *ring, uint32_t mask, uint32_t from,
                                uint32_t to) {
  uint32_t bigger = 2 * mask + 1;
  Run *r = new Run[bigger + 1];
  for (uint32_t i = from; i != to; ++i)
    r[i & bigger] = ring[i & mask];
  delete[] ring;
  return r;
}

} // namespace npcc::musim
