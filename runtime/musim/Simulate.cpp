//===- Simulate.cpp - the cycle loop --------------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// One loop, specialised on whether the run is observed (trace, VCD) and on
// whether a list manager feeds the unit. Unobserved, it is musim's hot
// path (runtime/musim/README.md, "Speed"):
//
//  * a header or an item is pushed into the FIFO at once, and its cycles
//    run in an inner loop: the unit cannot stall in them and the list
//    manager has nothing to decide until the last one;
//  * each word is dispatched on its slots and ALU class (MicroOp::kind) to
//    a copy of issue() with what the word's decoding fixes folded in;
//  * the unit's registers and control are locals of this frame, which no
//    other store of the loop can alias;
//  * the run's bookkeeping (RunContext) hears only of the words that
//    answer (the common `fail` inline), pop an END or start a header.
//
// Observed, every cycle takes the general path, and issue() runs with every
// slot decided at run time and fills the CycleEvent.
//
//===----------------------------------------------------------------------===//
#include "runtime/musim/Simulate.h"
#include "runtime/musim/InputFifo.h"
#include "runtime/musim/Issue.h"
#include "runtime/musim/Observer.h"

#include <algorithm>
#include <array>
#include <utility>

namespace npcc::musim {

namespace {

void loadCore(const Machine &m, Core &k, Control &ctl) {
  std::copy(m.r, m.r + 17, k.r);
  std::copy(m.t, m.t + 17, k.t);
  std::copy(m.p, m.p + 17, k.p);
  ctl.pc = m.pc;
  ctl.delayLeft = m.delayLeft;
  ctl.pendingTarget = m.pendingTarget;
  ctl.taken = m.taken;
  ctl.cancelled = m.cancelled;
  ctl.outVal = 0;
}

void storeCore(const Core &k, const Control &ctl, Machine &m) {
  std::copy(k.r, k.r + 17, m.r);
  std::copy(k.t, k.t + 17, m.t);
  std::copy(k.p, k.p + 17, m.p);
  m.pc = ctl.pc;
  m.delayLeft = ctl.delayLeft;
  m.pendingTarget = ctl.pendingTarget;
  m.taken = ctl.taken;
  m.cancelled = ctl.cancelled;
}

/// Hands cycle `cycle` to the observer, with the FIFO depths.
void observe(Context &c, CycleEvent &ev, uint64_t cycle, size_t inDepth) {
  ev.cycle = cycle;
  size_t out = c.lm
                   ? (c.outCycles[0] + 2 > cycle && c.outCycles[0] != ~0ull) +
                         (c.outCycles[1] + 2 > cycle && c.outCycles[1] != ~0ull)
                   : c.result.outputs.size();
  c.observer->cycle(c.m, ev, inDepth, out);
}

/// Bits of popAndIssue's result: the run's bookkeeping must hear of the
/// word (it popped an END or a header's first word); the word was an END.
/// And the dispatch's: the PC is past the program's end (nothing issued).
constexpr unsigned ISSUE_NOTE = 4, ISSUE_END = 8, ISSUE_PAST_END = 16;

/// The word `o` pops if it reads input and issues, through the one copy
/// of issue() for any slots. Words pushed with flags (InputFifo) are noted.
NPCC_MUSIM_ALWAYS_INLINE inline unsigned
popAndIssueAny(Core &k, Control &ctl, const MicroOp &o, InputFifo &in,
               InputFifo::Cursor &cur) {
  bool pops = o.slots >> SLOT_IN & 1;
  InputFifo::Word w = {0, 0};
  if (pops)
    w = in.pop(cur);
  unsigned res = issue<ANY_SLOTS, false>(k, ctl, o, w.value,
                                         w.flags & InputFifo::END, nullptr);
  if (w.flags)
    res |= ISSUE_NOTE | (w.flags & InputFifo::END ? ISSUE_END : 0);
  return res;
}

/// popAndIssueAny for a word that pops the first word of a FIFO run (which
/// may be an END or a header's first word): out of line, so that the
/// dispatch's copies have only words without flags to pop.
struct SlowIssue {
  Control ctl;
  unsigned res;
};
__attribute__((noinline)) SlowIssue popAndIssueSlow(Core &k, Control ctl,
                                                    const MicroOp &o,
                                                    InputFifo &in,
                                                    InputFifo::Cursor &cur) {
  unsigned res = popAndIssueAny(k, ctl, o, in, cur);
  return {ctl, res};
}

/// The word `o`, which uses exactly the slots `Set` (and whose ALU is of
/// class `AluClass`, 0: unknown), pops if it reads input and issues; its
/// copy of issue() knows the slots.
template <unsigned Set, unsigned AluClass>
NPCC_MUSIM_ALWAYS_INLINE inline unsigned
popAndIssue(Core &k, Control &ctl, const MicroOp &o, InputFifo &in,
            InputFifo::Cursor &cur) {
  constexpr unsigned Slots = knownSlots(ALL_SLOTS, Set, AluClass);
  uint64_t inVal = 0;
  if constexpr (Set >> SLOT_IN & 1) {
    if (__builtin_expect(!InputFifo::inRun(cur), 0)) {
      SlowIssue s = popAndIssueSlow(k, ctl, o, in, cur);
      ctl = s.ctl;
      return s.res;
    }
    inVal = InputFifo::popInRun(cur);
  }
  return issue<Slots, false>(k, ctl, o, inVal, false, nullptr);
}

// One case per set of slots S, each with its own copy of popAndIssue
// inline; a word with nothing to report goes on to the next cycle. The
// fine dispatch (`fineSwitch`), on MicroOp::kind, also knows the ALU's
// class C (1..3; a case with a class and no ALU is empty), and finds the
// sentinels past the program's end (KIND_PAST_END); the coarse one, on the
// slots (C = 0), leaves the class to run time.
#define NPCC_MUSIM_CASE(S, C)                                                  \
  case (S) | (C) << NUM_SLOTS:                                                 \
    if constexpr (fineSwitch && (S) == KIND_PAST_END && (C) == 0) {            \
      res = ISSUE_PAST_END;                                                    \
    } else if constexpr ((C) == 0 || ((S) >> SLOT_ALU & 1)) {                  \
      res = popAndIssue<S, C>(k, ctl, *o, in, cur);                            \
      if (res == ISSUE_DONE)                                                   \
        continue;                                                              \
    }                                                                          \
    break;
#define NPCC_MUSIM_CASE4(S, C)                                                 \
  NPCC_MUSIM_CASE(S, C)                                                        \
  NPCC_MUSIM_CASE(S + 1, C) NPCC_MUSIM_CASE(S + 2, C) NPCC_MUSIM_CASE(S + 3, C)
#define NPCC_MUSIM_CASE16(S, C)                                                \
  NPCC_MUSIM_CASE4(S, C)                                                       \
  NPCC_MUSIM_CASE4(S + 4, C)                                                   \
  NPCC_MUSIM_CASE4(S + 8, C) NPCC_MUSIM_CASE4(S + 12, C)
#define NPCC_MUSIM_CASE64(C)                                                   \
  NPCC_MUSIM_CASE16(0, C)                                                      \
  NPCC_MUSIM_CASE16(16, C)                                                     \
  NPCC_MUSIM_CASE16(32, C) NPCC_MUSIM_CASE16(48, C)

// A sanitizer's instrumentation of the dispatch's hundreds of copies takes
// the compiler tens of minutes: those builds run one copy, issue() for any
// slots (the same function the copies specialise).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define NPCC_MUSIM_FINE_DISPATCH 0
#undef NPCC_MUSIM_CASE64
#define NPCC_MUSIM_CASE64(C)                                                   \
  default:                                                                     \
    (void)fineSwitch; /* the PC is checked before the switch */                \
    res = popAndIssueAny(k, ctl, *o, in, cur);                                 \
    if (res == ISSUE_DONE)                                                     \
      continue;                                                                \
    break;
#else
#define NPCC_MUSIM_FINE_DISPATCH 1
#endif

/// Why the loop stopped.
enum class Exit { CycleLimit, PcPastEnd, InputDone, Deadlock, Fault, Halt };

/// The end of a run: its error, if any, and the statistics. Out of the
/// loop so that the loop's registers are not spent on it.
__attribute__((noinline, cold)) bool finishRun(Context &c, Exit exit,
                                               uint64_t cycle) {
  Machine &m = c.m;
  bool ok = true;
  switch (exit) {
  case Exit::CycleLimit:
    c.result.error = "cycle limit (" + std::to_string(c.config.maxCycles) +
                     ") reached at pc " + std::to_string(m.pc);
    ok = false;
    break;
  case Exit::PcPastEnd:
    c.result.error = "pc " + std::to_string(m.pc) +
                     " is past the end of the program (" +
                     std::to_string(m.numOps) + " words)";
    ok = false;
    break;
  case Exit::InputDone:
    m.lastPc = m.pc;
    ok = c.finish();
    if (!c.lm && !m.lastPopEnd)
      ok = c.fail(c.endsPopped ? "program read past the last END"
                               : "program read past the end of the input");
    break;
  case Exit::Deadlock:
    m.lastPc = m.pc;
    ok = c.fail("deadlock: the unit waits for input and the list manager "
                "for an answer");
    break;
  case Exit::Fault:
    ok = false;
    break;
  case Exit::Halt:
    break;
  }

  m.words = 0;
  for (size_t pc = 0; pc < m.numOps; ++pc) // not the sentinels
    m.words += m.execCount[pc];
  RunStats &st = c.result.stats;
  st.cycles = cycle + DRAIN_CYCLES;
  st.stalls = m.stalls;
  st.words = m.words;
  st.taken = m.taken;
  st.cancelled = m.cancelled;
  for (size_t pc = 0; pc < m.numOps; ++pc)
    for (unsigned s = 0; s < NUM_SLOTS; ++s)
      if (m.prog->ops[pc].slots >> s & 1)
        st.slots[s] += m.execCount[pc];
  return ok;
}

template <bool Observe, bool HasLM> bool loop(Context &c) {
  Machine &m = c.m;
  ListManager *lm = c.lm;
  const MicroOp *ops = m.ops;
  const unsigned numOps = m.numOps;
  const uint64_t maxCycles = c.config.maxCycles;
  uint64_t *counts = m.execCount.data();

  Core k;
  Control ctl;
  loadCore(m, k, ctl);
  uint64_t stalls = m.stalls;
  InputFifo in;
  std::vector<uint64_t> rawValues; // the FIFO reads raw input from here
  if (!HasLM) {
    for (const InputWord &w : *c.input)
      rawValues.push_back(w.value);
    for (size_t i = 0; i < rawValues.size(); ++i)
      in.push(&rawValues[i], 1, (*c.input)[i].end ? InputFifo::END : 0);
  }
  Feed noFeed;
  Feed &feed = HasLM ? lm->feed : noFeed;

  CycleEvent ev;
  uint64_t cycle = 0;
  Exit exit;
  for (;; ++cycle) {
    const MicroOp *o;
    unsigned pc, res;
    if (!Observe && HasLM && feed.left == 0 && cycle < maxCycles) {
      // The next header or item starts here, usually.
      lm->refill(cycle);
    }
    if (!Observe && HasLM && feed.left != 0 && cycle < maxCycles) {
      // The rest of a header or an item, at once: the list manager pushes
      // a word at the start of each of these cycles, so the unit cannot
      // stall, and it decides nothing until the last one (answers that
      // fall due meanwhile wait for it). Push them all now and take back
      // those of the cycles not run.
      uint32_t n = std::min<uint64_t>(feed.left, maxCycles - cycle);
      in.push(feed.src, n, feed.flags);
      uint64_t first = cycle, end = cycle + n;
      bool tail = false;
      InputFifo::Cursor &cur = in.cursor();
      // Counts down the cycles left, the cheapest loop test; the cycle is
      // end - left.
      uint32_t left = n;
      for (; left != 0; --left) {
        pc = ctl.pc;
        if (!NPCC_MUSIM_FINE_DISPATCH && pc >= numOps)
          break; // the general path faults, this cycle
        o = &ops[pc];
        ++counts[pc]; // a sentinel's count is ignored
        constexpr bool fineSwitch = true;
        switch (o->kind) {
#if NPCC_MUSIM_FINE_DISPATCH
          NPCC_MUSIM_CASE64(0)
          NPCC_MUSIM_CASE64(1)
          NPCC_MUSIM_CASE64(2)
          NPCC_MUSIM_CASE64(3)
#else
          NPCC_MUSIM_CASE64(0)
#endif
        }
        if (res == ISSUE_OUT) {
          // The cycle, worked out here: the opaque copy keeps the compiler
          // from counting it every cycle as well.
          uint32_t l = left;
#if defined(__GNUC__)
          asm("" : "+r"(l));
#endif
          if (c.quickFail(end - l, o->cpTag))
            continue;
        }
        if (res == ISSUE_PAST_END)
          break;     // the general path faults, this cycle
        tail = true; // the bookkeeping must hear of this word
        break;
      }
      cycle = end - left;
      uint32_t ran = cycle - first + tail;
      if (ran != n)
        in.unpush(n - ran);
      if (ran)
        feed.flags = 0;
      feed.src += ran;
      feed.left -= ran;
      if (feed.left == 0)
        lm->blockDone(first + n - 1);
      if (!tail) {
        --cycle; // the loop's increment
        continue;
      }
    } else {
      if (cycle >= maxCycles) {
        exit = Exit::CycleLimit;
        break;
      }
      // The list manager pushes at most one word, before the unit pops.
      if (HasLM) {
        uint8_t flags;
        const uint64_t *word = lm->decide(cycle, flags);
        if (word)
          in.push(word, 1, flags);
      }
      pc = ctl.pc;
      if (pc >= numOps) {
        exit = Exit::PcPastEnd;
        break;
      }
      o = &ops[pc];
      if ((o->slots >> SLOT_IN & 1) && in.empty()) {
        // The word stalls as a whole.
        ++stalls;
        if (!HasLM || lm->done()) {
          --stalls; // the unit waits for input that never comes: the end
          exit = Exit::InputDone;
          break;
        }
        if (lm->blockedOnAnswer()) {
          exit = Exit::Deadlock;
          break;
        }
        if (Observe) {
          ev.pc = pc;
          ev.stall = true;
          storeCore(k, ctl, m);
          observe(c, ev, cycle, in.size());
        }
        continue;
      }
      // The word at the PC issues.
      ++counts[pc];
      if (Observe) {
        InputFifo::Word w = {0, 0};
        if (o->slots >> SLOT_IN & 1)
          w = in.pop();
        res = issue<ANY_SLOTS, true>(k, ctl, *o, w.value,
                                     w.flags & InputFifo::END, &ev);
        if (w.flags)
          res |= ISSUE_NOTE | (w.flags & InputFifo::END ? ISSUE_END : 0);
      } else {
        // Rarer: one copy per set of slots will do.
        InputFifo::Cursor &cur = in.cursor();
        constexpr bool fineSwitch = false;
        switch (o->slots & ALL_SLOTS) { NPCC_MUSIM_CASE64(0) }
      }
    }

    // The tail of a cycle whose word the bookkeeping hears of, or halts.
    if (res & (ISSUE_OUT | ISSUE_NOTE)) {
      bool pops = o->slots >> SLOT_IN & 1;
      m.lastPc = pc;
      m.popped = pops;
      m.poppedEnd = res & ISSUE_END;
      m.hasOut = res & ISSUE_OUT;
      m.outVal = ctl.outVal;
      m.outTag = o->cpTag;
      if (!c.afterIssue(cycle)) {
        exit = Exit::Fault;
        break;
      }
    }
    if (Observe) {
      storeCore(k, ctl, m);
      observe(c, ev, cycle, in.size());
    }
    if (__builtin_expect(res & ISSUE_HALT, 0)) {
      c.result.stats.halted = true;
      ++cycle;
      exit = Exit::Halt;
      break;
    }
  }

  storeCore(k, ctl, m);
  if (in.poppedAny())
    m.lastPopEnd = in.lastPoppedEnd();
  m.stalls = stalls;
  bool ok = finishRun(c, exit, cycle);
  if (Observe)
    c.observer->finish(c.result.stats.cycles);
  return ok;
}

#undef NPCC_MUSIM_CASE64
#undef NPCC_MUSIM_CASE16
#undef NPCC_MUSIM_CASE4
#undef NPCC_MUSIM_CASE

} // namespace

bool simulate(Context &c) {
  if (c.observer)
    return c.lm ? loop<true, true>(c) : loop<true, false>(c);
  return c.lm ? loop<false, true>(c) : loop<false, false>(c);
}

} // namespace npcc::musim
