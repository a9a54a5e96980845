//===- Engine.h - npsim's discrete-event machine ----------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The simulated NPU: cores with hardware contexts, memories with banks, an
// interconnect, caches, locks and coprocessors, driven by one
// discrete-event queue on one host thread (docs/npsim.md, "The model").
//
// A context is a coroutine. It runs ahead on its own clock while it only
// computes; whatever touches something another context could touch (a
// memory outside the core, a lock, a coprocessor, a queue) is an event at
// the context's time, and the queue handles events in time order (ties in
// the order they were made), so the shared parts see requests in the order
// the simulated time gives them and the run is the same on every machine.
// A context that waits for an answer sleeps; its core then runs another
// ready context, round robin, after a switch.
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_RUNTIME_NPSIM_ENGINE_H
#define NPCC_RUNTIME_NPSIM_ENGINE_H

#include "runtime/npsim/Config.h"
#include "runtime/npsim/EventQueue.h"
#include "runtime/npsim/Fiber.h"

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace npcc::npsim {

using Cycle = uint64_t;

class Engine;

/// What a bank of a memory saw.
struct BankStats {
  uint64_t accesses = 0;
  Cycle busy = 0;     ///< cycles it served beats
  Cycle conflict = 0; ///< cycles requests waited for it
};

/// One copy of a memory (a core's, a cluster's, or the chip's): its banks.
struct MemCopy {
  std::vector<Cycle> busyUntil;
  std::vector<BankStats> stats;
};

struct Memory {
  const MemoryCfg *cfg = nullptr;
  std::vector<MemCopy> copies;
  uint64_t reads = 0, writes = 0, bytes = 0;
};

/// A set-associative cache with LRU replacement, over simulated addresses
/// (memory index and address: lines of two memories never alias).
class Cache {
public:
  void init(const CacheCfg &c);
  bool present() const { return cfg.present; }
  /// True on a hit (which refreshes the line).
  bool lookup(uint64_t key);
  void fill(uint64_t key);
  uint32_t line() const { return cfg.line; }
  uint64_t hits = 0, misses = 0;

private:
  CacheCfg cfg;
  uint32_t sets = 0;
  std::vector<uint64_t> tags; ///< key + 1; 0 is an empty way
  std::vector<uint64_t> used;
  uint64_t tick = 0;
};

struct Context;

/// A lock guarding a shared structure: its word lives in a memory.
struct Lock {
  std::string name;
  int memory = -1;
  uint64_t addr = 0;
  Context *owner = nullptr;
  std::deque<Context *> waiters; ///< mutex: the sleeping contexts, in order
  uint64_t acquisitions = 0, contended = 0, tries = 0;
  Cycle waitCycles = 0;
};

/// Contexts sleeping until something happens (a queue gets an entry).
struct WaitQueue {
  std::vector<Context *> waiters;
};

struct Coproc {
  const CoprocCfg *cfg = nullptr;
  std::vector<Cycle> unitFree;
  uint64_t requests = 0;
  Cycle queued = 0, busy = 0;
};

struct Context {
  Engine *eng = nullptr;
  uint32_t id = 0, core = 0, slot = 0;
  Cycle t = 0; ///< its clock while it runs
  enum State { NEW, READY, RUNNING, SLEEPING, DONE } state = NEW;
  FiberPoint point;
  FiberStack stack;
  void (*fn)(void *) = nullptr;
  void *arg = nullptr;
  /// Holds the core while it waits (a short stall), instead of letting
  /// another context run.
  bool stalling = false;
  // What it did.
  Cycle run = 0;       ///< cycles it held the core computing or stalling
  Cycle waited = 0;    ///< cycles it slept for memory or a coprocessor
  Cycle lockWait = 0;  ///< cycles it waited for locks
  Cycle queueWait = 0; ///< cycles it slept in a WaitQueue
  uint32_t tag = 0;    ///< what its cycles count against (an element)
  Cycle tagSince = 0;
  Cycle sleptAt = 0;
  Cycle sliceStart = 0; ///< tracing: since when it runs with its tag
  bool started = false;
  void *user = nullptr;   ///< the runtime's (npsim_set_user)
  bool mutexWait = false; ///< asleep in a mutex's queue
};

struct Core {
  std::vector<Context *> ctxs;
  Context *running = nullptr; ///< running, or about to (a switch to it)
  Context *last = nullptr;    ///< the context that ran last
  /// When the core was last given up: a context that ran ahead of the
  /// event loop's time has it until then.
  Cycle freeAt = 0;
  bool isIdle = true; ///< no context ready since `idleSince`
  Cycle idleSince = 0;
  Cache icache, dcache;
  Cycle busy = 0;      ///< computing
  Cycle stalled = 0;   ///< held by a context waiting for a short access
  Cycle switching = 0; ///< changing contexts
  Cycle idle = 0;      ///< no context ready
  uint64_t switches = 0;
  bool polling = false; ///< its scheduler's idle loop runs (mutex)
};

/// An event: `fn(eng, p, a)` at time `t`.
struct Event {
  Cycle t;
  uint64_t seq;
  void (*fn)(Engine &, void *, uint64_t);
  void *p;
  uint64_t a;
};

class Engine {
public:
  Engine(const Config &cfg, uint32_t cores, uint32_t contexts);
  ~Engine();
  Engine(const Engine &) = delete;
  Engine &operator=(const Engine &) = delete;

  const Config &config() const { return cfg; }
  uint32_t numCores() const { return uint32_t(cores.size()); }
  uint32_t contextsPerCore() const { return nctx; }

  /// A context on `core`, slot `slot`, that runs `fn(arg)` from cycle 0.
  /// False when its stack cannot be had.
  bool spawn(uint32_t core, uint32_t slot, void (*fn)(void *), void *arg,
             size_t stackBytes = 256 * 1024);
  /// Handles events until there are none; the time of the last one.
  Cycle run();
  /// `fn(p, a)` at `t` on the event loop (an engine of the model: ingress,
  /// egress).
  void at(Cycle t, void (*fn)(Engine &, void *, uint64_t), void *p, uint64_t a);
  Cycle now() const { return cur ? cur->t : time; }
  /// The engine whose run() this thread is in, or nullptr.
  static Engine *active();
  Context *current() const { return cur; }
  Context *context(uint32_t core, uint32_t slot) {
    return cores[core]->ctxs[slot];
  }

  //--- Called by the running context ---------------------------------------
  /// `n` cycles of work on its core (every basic block: inline).
  void compute(Cycle n) {
    cur->t += n;
    cur->run += n;
    cores[cur->core]->busy += n;
  }
  /// An access to memory `mem` (copy `copy`, see copyFor) at `addr`.
  void access(int mem, uint32_t copy, uint64_t addr, uint32_t bytes,
              bool write);
  /// The copy of `mem` the running context's core reaches.
  uint32_t copyFor(int mem, uint32_t core) const;
  /// Instructions at `addr` (`bytes` of code): the instruction cache.
  void fetch(uint64_t addr, uint32_t bytes) {
    if (fetchesCode && bytes)
      fetchLines(addr, bytes);
  }
  /// A request to coprocessor `unit` (an index into the config's list)
  /// working on `bytes`; without one, `swCycles` of work instead.
  void coproc(uint32_t unit, uint32_t bytes, Cycle swCycles);
  void lock(Lock &l);
  void unlock(Lock &l);
  /// Sleeps until `notify` (the caller checks its condition again).
  void sleepOn(WaitQueue &q);
  /// Wakes every context in `q` at the current time (plus `delay`).
  void notify(WaitQueue &q, Cycle delay = 0);
  /// Lets every event before the context's time happen first: what it
  /// does next sees the rest of the machine at its own time.
  void sync();
  /// Gives the core to another ready context of it, if there is one (a
  /// poll that found nothing: `ctx_arb` on an NFP); the caller runs again
  /// when its turn comes.
  void yieldCore();
  /// Counts the running context's cycles against `tag` from now.
  void setTag(uint32_t tag) {
    if (cur->tag != tag)
      retag(tag);
  }

  //--- Results ------------------------------------------------------------
  std::vector<std::unique_ptr<Core>> cores;
  std::vector<std::unique_ptr<Context>> contexts;
  std::vector<Memory> memories;
  std::vector<Coproc> coprocs;
  std::vector<Lock *> locks; ///< registered for the report
  uint64_t icAdmitted = 0;
  Cycle icConflict = 0;
  std::vector<Cycle> tagCycles; ///< per tag, summed over contexts
  /// Per tag, the first and the last cycle any context spent in it: the
  /// span of an element's work on the machine (UINT64_MAX, 0: none).
  std::vector<Cycle> tagFirst, tagLast;
  uint64_t events = 0;

  /// A stretch a context held its core with one tag (when tracing).
  struct Slice {
    uint32_t ctx, tag;
    Cycle start, end;
  };
  bool tracing = false;
  std::vector<Slice> slices;

  /// The access's answer time for a request issued at `t` (books the
  /// interconnect and the bank); for the model's own engines too.
  Cycle book(int mem, uint32_t copy, uint64_t addr, uint32_t bytes, bool write,
             Cycle t);
  /// book() for a span of any length: one burst per bank it covers, all
  /// issued at `t`; the last answer.
  Cycle bookSpan(int mem, uint32_t copy, uint64_t addr, uint64_t bytes,
                 bool write, Cycle t);
  /// Whoever runs the engine (npsim's bridge to libnprt).
  void *owner = nullptr;

private:
  const Config cfg; ///< a copy: the memories point into it
  uint32_t nctx;
  EventQueue<Event> queue;
  bool fetchesCode = false; ///< an instruction cache and a code memory
  void fetchLines(uint64_t addr, uint32_t bytes);
  uint64_t seq = 0;
  Cycle time = 0; ///< the event being handled
  Cycle end = 0;  ///< the last context's end
  Context *cur = nullptr;
  FiberPoint loop; ///< the event loop's side of every switch
  // Per NPU (one unless [switch]): the interconnect's current cycle and
  // the requests it admitted in it.
  std::vector<Cycle> icCycle;
  std::vector<uint32_t> icUsed;
  uint32_t coresPerNpu = 1, clustersPerNpu = 1;
  /// The NPU whose copy `copy` of a memory of scope `scope` is.
  uint32_t npuOf(Scope scope, uint32_t copy) const;

  static void onResume(Engine &e, void *p, uint64_t);
  static void onWake(Engine &e, void *p, uint64_t);
  static void onAccess(Engine &e, void *p, uint64_t a);
  static void onWrite(Engine &e, void *p, uint64_t a);
  static void onCoproc(Engine &e, void *p, uint64_t a);
  static void onIdlePoll(Engine &e, void *p, uint64_t a);
  static void entry(void *p);

  /// The running context gives up the core until `onWake` at `until`
  /// (UINT64_MAX: until woken).
  void sleep(Cycle until);
  /// Lets the core of `c` run its next ready context from `t`.
  void dispatch(Core &core, Cycle t, bool inLoop = false);
  void resumeAt(Context *c, Cycle t);
  void becomeReady(Context *c, Cycle t);
  void tagFlush(Context *c);
  /// Tracing: the context stops running with its tag at its clock.
  void sliceEnd(Context *c);
  void retag(uint32_t tag);
  /// Instead of sleep(until), when sleeping would change nothing.
  bool waitInPlace(Cycle until);
  Cycle admit(Cycle t, uint32_t npu);
  /// A memory request waiting for its event.
  struct Request {
    int mem;
    uint32_t copy;
    uint64_t addr;
    uint32_t bytes;
    bool write;
  };
  std::vector<Request> pending; ///< a sleeping context's, by context id
  std::vector<Request> posted;  ///< posted writes, reused through `freeWrites`
  /// bookSpan's scratch: per bank, the first address and the bytes.
  std::vector<uint64_t> spanFirst, spanBytes;
  std::vector<uint32_t> freeWrites;
  std::vector<uint32_t> coprocUnit; ///< a sleeping context's coprocessor
  std::vector<uint32_t> coprocBytes;
  /// Accesses of the scheduler's code to its data in `placement.os`.
  void schedulerPath();
  bool anyMutexWait(const Core &core) const;
};

} // namespace npcc::npsim

#endif // NPCC_RUNTIME_NPSIM_ENGINE_H
