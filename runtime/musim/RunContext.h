//===- RunContext.h - a run's headers, answers and outputs -----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// What the loop (Simulate.cpp) reports to, outside the unit: which header
// the popped words belong to, the answers and their checks (an answer with
// no item outstanding, `len` without `off`, ...), the per-header results,
// and in raw mode the output FIFO. The loop calls it only for the words
// that matter (Issue.h, ISSUE_NOTE), so none of this is per cycle.
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_RUNTIME_MUSIM_RUNCONTEXT_H
#define NPCC_RUNTIME_MUSIM_RUNCONTEXT_H

#include "runtime/musim/ListManager.h"
#include "runtime/musim/Machine.h"
#include "runtime/musim/Run.h"

#include <string>
#include <vector>

namespace npcc::musim {

class Observer;

struct Context {
  Context(const Program &prog, const RunConfig &config, RunResult &result)
      : m(prog), config(config), result(result) {}
  Machine m;
  const RunConfig &config;
  RunResult &result;
  ListManager *lm = nullptr;                     // list mode
  const std::vector<InputWord> *input = nullptr; // raw mode
  Observer *observer = nullptr;
  // List mode. Pops go to header `popHeader`, answers to `ansHeader`: they
  // differ while a header whose END was popped after its `off` answer
  // waits for the `len` that completes it.
  unsigned popHeader = 0, ansHeader = 0;
  bool inHeader = false, offPending = false, awaitLen = false;
  // quickFail's test of the above: no `off` pending, no header waiting for
  // its `len`, and a header to answer for; set by afterIssue().
  bool quick = false;
  uint64_t answers = 0, pendingOff = 0;
  // Raw mode.
  uint64_t endsPopped = 0;
  uint64_t outCycles[2] = {~0ull, ~0ull}; // answers in flight, for the VCD

  /// Fails the run at the last issued word.
  bool fail(const std::string &msg) {
    result.error = "pc " + std::to_string(m.lastPc) + ": " + msg;
    return false;
  }
  /// The word issued at `cycle` popped the first word of a header, an END
  /// mark or answered (Machine's popped, poppedEnd, hasOut): attributes it.
  bool afterIssue(uint64_t cycle);
  /// The unit waits for input that never comes: checks the last header.
  bool finish();
  /// The common answer, without the Machine: `fail` in list mode for an
  /// outstanding item, from a word that popped no END and no first header
  /// word. Returns false, having done nothing, in any other case. Only
  /// unobserved runs call it, so it leaves outCycles (the VCD's) alone.
  bool quickFail(uint64_t cycle, unsigned tag) {
    if (tag != mu::TAG_FAIL || !quick || lm->itemsSent(ansHeader) <= answers)
      return false;
    ++answers;
    lm->answer(cycle, ansHeader, false);
    return true;
  }

private:
  /// afterIssue(), but for `quick`.
  bool attribute(uint64_t cycle);
  bool answer(uint64_t cycle);
  void complete(uint64_t cycle);
};

} // namespace npcc::musim

#endif // NPCC_RUNTIME_MUSIM_RUNCONTEXT_H
