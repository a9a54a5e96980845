//===- Run.cpp - the simulation loop --------------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// One loop, specialised on whether the run is observed (trace, VCD) and on
// whether a list manager feeds the unit, so the common case carries no
// tracing and no indirect calls.
//
//===----------------------------------------------------------------------===//
#include "runtime/musim/Run.h"
#include "runtime/musim/MachineStep.h"
#include "runtime/musim/Observer.h"

namespace npcc::musim {

const char *tagName(unsigned tag) {
  static const char *const Names[] = {"fail", "off", "len", "data"};
  return Names[tag & 3];
}

namespace {

struct Context {
  Context(const Program &prog, const RunConfig &config, RunResult &result)
      : m(prog), config(config), result(result) {}
  Machine m;
  const RunConfig &config;
  RunResult &result;
  ListManager *lm = nullptr;
  Observer *observer = nullptr;
  // List mode. Pops go to header `popHeader`, answers to `ansHeader`: they
  // differ while a header whose END was popped after its `off` answer
  // waits for the `len` that completes it.
  unsigned popHeader = 0, ansHeader = 0;
  bool inHeader = false, offPending = false, awaitLen = false;
  uint64_t answers = 0, pendingOff = 0;
  // Raw mode.
  uint64_t endsPopped = 0;
  uint64_t outCycles[2] = {~0ull, ~0ull}; // answers in flight, for the VCD

  bool fail(const std::string &msg) {
    result.error = "pc " + std::to_string(m.lastPc) + ": " + msg;
    return false;
  }
  bool answer(uint64_t cycle);
  void complete(uint64_t cycle);
  bool afterIssue(uint64_t cycle);
  bool finish();
};

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

template <bool Observe, bool HasLM> bool simulate(Context &c) {
  Machine &m = c.m;
  ListManager *lm = c.lm;
  CycleEvent ev;
  uint64_t cycle = 0;
  bool ok = true;
  for (;; ++cycle) {
    if (cycle >= c.config.maxCycles) {
      c.result.error = "cycle limit (" + std::to_string(c.config.maxCycles) +
                       ") reached at pc " + std::to_string(m.pc);
      ok = false;
      break;
    }
    if (HasLM)
      lm->tick(cycle, m.in);
    Status s = m.issue<Observe>(&ev);
    if (s == Status::Stalled) {
      if (m.in.empty() && (!lm || lm->done())) {
        --m.stalls; // the unit waits for input that never comes: the end
        m.lastPc = m.pc;
        ok = c.finish();
        if (!lm && !m.lastPopEnd) {
          ok = c.fail(c.endsPopped ? "program read past the last END"
                                   : "program read past the end of the input");
        }
        break;
      }
      if (lm && m.in.empty() && lm->blockedOnAnswer()) {
        m.lastPc = m.pc;
        ok = c.fail("deadlock: the unit waits for input and the list "
                    "manager for an answer");
        break;
      }
    } else if (s == Status::Fault) {
      c.result.error = m.fault;
      ok = false;
      break;
    } else if ((m.hasOut | m.poppedEnd | (m.popped & !c.inHeader)) &&
               !c.afterIssue(cycle)) {
      ok = false;
      break;
    }
    if (Observe) {
      ev.cycle = cycle;
      size_t out =
          c.lm ? (c.outCycles[0] + 2 > cycle && c.outCycles[0] != ~0ull) +
                     (c.outCycles[1] + 2 > cycle && c.outCycles[1] != ~0ull)
               : c.result.outputs.size();
      c.observer->cycle(m, ev, out);
    }
    if (s == Status::Halted) {
      c.result.stats.halted = true;
      ++cycle;
      break;
    }
  }
  RunStats &st = c.result.stats;
  st.cycles = cycle + DRAIN_CYCLES;
  st.stalls = m.stalls;
  st.words = m.words;
  st.taken = m.taken;
  st.cancelled = m.cancelled;
  for (size_t pc = 0; pc < m.execCount.size(); ++pc)
    for (unsigned k = 0; k < NUM_SLOTS; ++k)
      if (c.m.prog->ops[pc].slots >> k & 1)
        st.slots[k] += m.execCount[pc];
  if (Observe)
    c.observer->finish(st.cycles);
  return ok;
}

bool simulate(Context &c) {
  if (c.observer)
    return c.lm ? simulate<true, true>(c) : simulate<true, false>(c);
  return c.lm ? simulate<false, true>(c) : simulate<false, false>(c);
}

} // namespace

bool runList(const Program &prog, const std::vector<Item> &list,
             const std::vector<Item> &headers, const RunConfig &config,
             RunResult &result, Observer *observer) {
  result = RunResult();
  result.headers.assign(headers.size(), HeaderResult());
  Context c(prog, config, result);
  ListManager lm(list, headers, config.list);
  c.lm = &lm;
  c.observer = observer;
  return simulate(c);
}

bool runRaw(const Program &prog, const std::vector<InputWord> &input,
            const RunConfig &config, RunResult &result, Observer *observer) {
  result = RunResult();
  Context c(prog, config, result);
  for (const InputWord &w : input)
    c.m.in.push(w.value, w.end);
  c.m.lastPopEnd = input.empty();
  c.observer = observer;
  return simulate(c);
}

} // namespace npcc::musim
