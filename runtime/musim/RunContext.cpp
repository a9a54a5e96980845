//===- RunContext.cpp - a run's headers, answers and outputs -------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
#include "runtime/musim/RunContext.h"

namespace npcc::musim {

bool Context::answer(uint64_t cycle) {
  unsigned tag = m.outTag;
  if (!lm) {
    result.outputs.push_back({m.outVal, tag, cycle, m.lastPc});
    return true;
  }
  outCycles[cycle & 1] = cycle;
  if (tag == mu::TAG_DATA)
    return true;
  auto bad = [&](const char *why) {
    return fail(std::string("`") + tagName(tag) + "` answer " + why);
  };
  if (tag == mu::TAG_LENGTH) {
    if (!offPending)
      return bad("without a preceding `off`");
  } else {
    if (offPending)
      return bad("between `off` and `len`");
    if (ansHeader >= result.headers.size() ||
        lm->itemsSent(ansHeader) <= answers)
      return bad("when no item is outstanding");
  }
  if (tag == mu::TAG_OFFSET) {
    offPending = true;
    pendingOff = m.outVal;
    return true;
  }
  HeaderResult &h = result.headers[ansHeader];
  bool match = tag == mu::TAG_LENGTH;
  offPending = false;
  if (match && h.match < 0) {
    h.match = answers;
    h.offset = pendingOff;
    h.length = m.outVal;
  }
  ++answers;
  lm->answer(cycle, ansHeader, match);
  if (awaitLen)
    complete(cycle);
  return true;
}

void Context::complete(uint64_t cycle) {
  HeaderResult &h = result.headers[ansHeader];
  h.complete = true;
  h.endCycle = cycle;
  h.cycles = cycle - h.firstCycle;
  h.itemsPushed = lm->itemsSent(ansHeader);
  ++ansHeader;
  answers = 0;
  awaitLen = false;
}

bool Context::afterIssue(uint64_t cycle) {
  bool ok = attribute(cycle);
  quick = !offPending && !awaitLen && ansHeader < result.headers.size();
  return ok;
}

bool Context::attribute(uint64_t cycle) {
  if (m.popped && lm && !inHeader && popHeader < result.headers.size()) {
    inHeader = true;
    result.headers[popHeader].firstCycle = cycle;
  }
  if (m.hasOut && !answer(cycle))
    return false;
  if (!m.popped)
    return true;
  if (!lm) {
    endsPopped += m.poppedEnd;
    return true;
  }
  if (m.poppedEnd) {
    if (awaitLen)
      return fail("END of header " + std::to_string(popHeader) +
                  " while header " + std::to_string(ansHeader) +
                  " still waits for its `len` answer");
    ++popHeader;
    inHeader = false;
    if (offPending)
      awaitLen = true; // completed by the `len` answer
    else
      complete(cycle);
  }
  return true;
}

bool Context::finish() {
  if (awaitLen)
    return fail("header " + std::to_string(ansHeader) +
                " ended after an `off` answer without `len`");
  return true;
}

} // namespace npcc::musim
