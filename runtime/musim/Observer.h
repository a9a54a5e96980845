//===- Observer.h - cycle-by-cycle trace and VCD output ---------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// An observed run calls cycle() once per cycle. The trace is one line per
// cycle: the cycle, the PC, then `stall` or the slots that did something
// with the values they wrote, separated by `; `:
//
//   12 pc=5 in r1=0x2a; alu r3=0x3a; tern p8=1; br taken->3
//
// The VCD has the PC, a stall flag, every register and predicate and the
// depths of the input and output FIFOs.
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_RUNTIME_MUSIM_OBSERVER_H
#define NPCC_RUNTIME_MUSIM_OBSERVER_H

#include "runtime/musim/Machine.h"

#include <cstdint>
#include <ostream>
#include <string>

namespace npcc::musim {

class Observer {
public:
  /// Either may be null.
  Observer(std::ostream *trace, std::ostream *vcd) : trace(trace), vcd(vcd) {}
  /// `inDepth`: words in the input FIFO; `outDepth`: answers in flight to
  /// the list manager, or the output FIFO's length in raw mode.
  void cycle(const Machine &m, const CycleEvent &ev, size_t inDepth,
             size_t outDepth);
  void finish(uint64_t cycles);

  /// The trace text of one cycle, without the newline.
  static std::string traceLine(const Machine &m, const CycleEvent &ev);

private:
  void vcdHeader();
  void vcdValue(unsigned id, uint64_t value, unsigned width);

  std::ostream *trace, *vcd;
  bool started = false;
  // Last dumped values, by signal id.
  uint64_t last[64];
};

} // namespace npcc::musim

#endif // NPCC_RUNTIME_MUSIM_OBSERVER_H
