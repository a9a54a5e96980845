//===- Engine.cpp - npsim's discrete-event machine ------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "runtime/npsim/Engine.h"

#include <algorithm>

using namespace npcc::npsim;

//--- Cache -----------------------------------------------------------------

void Cache::init(const CacheCfg &c) {
  cfg = c;
  if (!c.present)
    return;
  sets = c.size / (c.line * c.ways);
  tags.assign(size_t(sets) * c.ways, 0);
  used.assign(tags.size(), 0);
}

bool Cache::lookup(uint64_t key) {
  uint64_t lineNo = key / cfg.line;
  size_t set = size_t(lineNo % sets) * cfg.ways;
  for (uint32_t w = 0; w < cfg.ways; ++w)
    if (tags[set + w] == lineNo + 1) {
      used[set + w] = ++tick;
      ++hits;
      return true;
    }
  ++misses;
  return false;
}

void Cache::fill(uint64_t key) {
  uint64_t lineNo = key / cfg.line;
  size_t set = size_t(lineNo % sets) * cfg.ways;
  size_t victim = set;
  for (uint32_t w = 0; w < cfg.ways; ++w) {
    if (tags[set + w] == lineNo + 1)
      return;
    if (used[set + w] < used[victim])
      victim = set + w;
  }
  tags[victim] = lineNo + 1;
  used[victim] = ++tick;
}

//--- Set-up and the loop ----------------------------------------------------

Engine::Engine(const Config &c, uint32_t ncores, uint32_t contexts)
    : cfg(c), nctx(contexts) {
  fetchesCode = cfg.icache.present && cfg.place.code >= 0;
  for (uint32_t i = 0; i < ncores; ++i) {
    auto core = std::make_unique<Core>();
    core->icache.init(cfg.icache);
    core->dcache.init(cfg.dcache);
    cores.push_back(std::move(core));
  }
  // With a switch matrix, `ncores` are all NPUs' cores, NPU by NPU; each
  // NPU has its own clusters, chip memories and interconnect.
  uint32_t npus = cfg.matrix.present ? cfg.matrix.npus : 1;
  coresPerNpu = std::max(1u, ncores / npus);
  clustersPerNpu = (coresPerNpu + cfg.cluster - 1) / cfg.cluster;
  icCycle.assign(npus, 0);
  icUsed.assign(npus, 0);
  for (const MemoryCfg &m : cfg.memories) {
    Memory mem;
    mem.cfg = &m;
    uint32_t n = m.scope == Scope::Core      ? ncores
                 : m.scope == Scope::Cluster ? npus * clustersPerNpu
                                             : npus;
    mem.copies.resize(n);
    for (MemCopy &cp : mem.copies) {
      cp.busyUntil.assign(m.banks, 0);
      cp.stats.assign(m.banks, BankStats());
    }
    memories.push_back(std::move(mem));
  }
  for (const CoprocCfg &k : cfg.coprocs) {
    Coproc cp;
    cp.cfg = &k;
    cp.unitFree.assign(k.present ? k.units : 0, 0);
    coprocs.push_back(cp);
  }
  loop.stack = hostStack();
}

Engine::~Engine() = default;

bool Engine::spawn(uint32_t core, uint32_t slot, void (*fn)(void *), void *arg,
                   size_t stackBytes) {
  auto c = std::make_unique<Context>();
  c->eng = this;
  c->id = uint32_t(contexts.size());
  c->core = core;
  c->slot = slot;
  c->fn = fn;
  c->arg = arg;
  if (!c->stack.make(stackBytes, &Engine::entry, c.get()))
    return false;
  c->point.stack = c->stack.ref();
  c->state = Context::READY;
  Core &k = *cores[core];
  if (k.ctxs.size() <= slot)
    k.ctxs.resize(slot + 1, nullptr);
  k.ctxs[slot] = c.get();
  contexts.push_back(std::move(c));
  pending.resize(contexts.size());
  coprocUnit.resize(contexts.size());
  coprocBytes.resize(contexts.size());
  return true;
}

void Engine::at(Cycle t, void (*fn)(Engine &, void *, uint64_t), void *p,
                uint64_t a) {
  queue.push(Event{t, seq++, fn, p, a});
}

namespace {
thread_local Engine *activeEngine;
} // namespace

Engine *Engine::active() { return activeEngine; }

Cycle Engine::run() {
  Engine *outer = activeEngine;
  activeEngine = this;
  loop.stack = hostStack();
  for (auto &core : cores)
    dispatch(*core, 0);
  while (!queue.empty()) {
    Event e = queue.top();
    queue.pop();
    time = e.t;
    ++events;
    e.fn(*this, e.p, e.a);
  }
  activeEngine = outer;
  end = std::max(end, time);
  for (auto &core : cores)
    if (core->isIdle)
      core->idle += end - std::min(end, core->idleSince);
  return end;
}

void Engine::entry(void *p) {
  auto *c = static_cast<Context *>(p);
  Engine &e = *c->eng;
  c->fn(c->arg);
  e.tagFlush(c);
  e.sliceEnd(c);
  c->state = Context::DONE;
  Core &core = *e.cores[c->core];
  core.running = nullptr;
  core.last = c;
  core.freeAt = c->t;
  e.dispatch(core, c->t);
  e.cur = nullptr;
  e.end = std::max(e.end, c->t);
  switchTo(c->point, e.loop);
}

void Engine::dispatch(Core &core, Cycle t, bool inLoop) {
  if (core.running)
    return;
  t = std::max(t, core.freeAt);
  size_t n = core.ctxs.size();
  size_t k = core.last ? core.last->slot + 1 : 0;
  for (size_t i = 0; i < n; ++i, ++k) {
    if (k == n)
      k = 0;
    Context *c = core.ctxs[k];
    if (!c || c->state != Context::READY)
      continue;
    if (core.isIdle) {
      core.idle += t - std::min(t, core.idleSince);
      core.isIdle = false;
    }
    Cycle start = t;
    if (core.last && core.last != c) {
      start += cfg.switchCycles;
      core.switching += cfg.switchCycles;
      ++core.switches;
    }
    core.running = c;
    // Woken from the event loop, a context that can start now starts
    // here rather than through one more event: a third fewer events per
    // access. It then runs before other events of the same cycle, an
    // order as deterministic as the queue's.
    if (inLoop && start == time)
      onResume(*this, c, 0);
    else
      resumeAt(c, start);
    return;
  }
  if (!core.isIdle) {
    core.isIdle = true;
    core.idleSince = t;
  }
  if (cfg.lock.kind == LockKind::Mutex && !core.polling && anyMutexWait(core)) {
    core.polling = true;
    at(t + cfg.lock.schedCycles, &Engine::onIdlePoll, &core, 0);
  }
}

void Engine::resumeAt(Context *c, Cycle t) { at(t, &Engine::onResume, c, 0); }

void Engine::onResume(Engine &e, void *p, uint64_t) {
  auto *c = static_cast<Context *>(p);
  c->t = e.time;
  c->sliceStart = c->t;
  c->state = Context::RUNNING;
  e.cur = c;
  if (!c->started) {
    c->started = true;
    c->tagSince = c->t;
    c->stack.start(e.loop);
  } else {
    switchTo(e.loop, c->point);
  }
  e.cur = nullptr;
}

void Engine::sleep(Cycle until) {
  Context *c = cur;
  sliceEnd(c);
  c->state = Context::SLEEPING;
  c->sleptAt = c->t;
  Core &core = *cores[c->core];
  if (!c->stalling) {
    core.running = nullptr;
    core.last = c;
    core.freeAt = c->t;
    dispatch(core, c->t);
  }
  if (until != UINT64_MAX)
    at(until, &Engine::onWake, c, 0);
  cur = nullptr;
  switchTo(c->point, loop);
  // Resumed: onResume set the clock and `cur`.
}

bool Engine::waitInPlace(Cycle until) {
  Context *c = cur;
  Core &core = *cores[c->core];
  // Sleeping would change nothing but the host's work when nothing is due
  // before `until` and no other context of the core is ready: the core
  // would idle, the wake-up would be the next event and would start this
  // context again at once, with no switch. Then only the books change.
  if (!queue.empty() && queue.top().t <= until)
    return false;
  for (const Context *x : core.ctxs)
    if (x && x != c && x->state == Context::READY)
      return false;
  if (cfg.lock.kind == LockKind::Mutex && !core.polling && anyMutexWait(core))
    return false; // sleeping would start the scheduler's idle poll
  sliceEnd(c);
  core.idle += until - c->t;
  c->waited += until - c->t;
  c->t = until;
  c->sliceStart = until;
  return true;
}

void Engine::onWake(Engine &e, void *p, uint64_t) {
  auto *c = static_cast<Context *>(p);
  Core &core = *e.cores[c->core];
  if (c->stalling) {
    c->stalling = false;
    core.stalled += e.time - c->sleptAt;
    c->run += e.time - c->sleptAt;
    c->state = Context::READY;
    onResume(e, c, 0);
    return;
  }
  // A context runs ahead of the queue's clock within its slice, so a
  // notification may come at a time before it went to sleep: then it did
  // not wait.
  c->waited += e.time > c->sleptAt ? e.time - c->sleptAt : 0;
  c->state = Context::READY;
  if (!core.running)
    e.dispatch(core, e.time, true);
}

void Engine::tagFlush(Context *c) {
  if (tagCycles.size() <= c->tag) {
    tagCycles.resize(c->tag + 1, 0);
    tagFirst.resize(c->tag + 1, UINT64_MAX);
    tagLast.resize(c->tag + 1, 0);
  }
  if (c->t > c->tagSince) {
    tagCycles[c->tag] += c->t - c->tagSince;
    tagFirst[c->tag] = std::min(tagFirst[c->tag], c->tagSince);
    tagLast[c->tag] = std::max(tagLast[c->tag], c->t);
  }
  c->tagSince = c->t;
}

void Engine::sliceEnd(Context *c) {
  if (tracing && c->t > c->sliceStart)
    slices.push_back(Slice{c->id, c->tag, c->sliceStart, c->t});
  c->sliceStart = c->t;
}

void Engine::retag(uint32_t tag) {
  Context *c = cur;
  tagFlush(c);
  sliceEnd(c);
  c->tag = tag;
}

//--- Work -------------------------------------------------------------------

void Engine::sync() {
  Context *c = cur;
  if (queue.empty() || queue.top().t > c->t)
    return;
  c->stalling = true;
  at(c->t, &Engine::onWake, c, 0);
  sleep(UINT64_MAX);
}

void Engine::yieldCore() {
  Context *c = cur;
  Core &core = *cores[c->core];
  bool other = false;
  for (const Context *x : core.ctxs)
    other |= x && x != c && x->state == Context::READY;
  if (!other)
    return;
  sliceEnd(c);
  c->state = Context::READY;
  core.running = nullptr;
  core.last = c;
  core.freeAt = c->t;
  dispatch(core, c->t);
  cur = nullptr;
  switchTo(c->point, loop);
}

uint32_t Engine::copyFor(int mem, uint32_t core) const {
  switch (cfg.memories[size_t(mem)].scope) {
  case Scope::Core:
    return core;
  case Scope::Cluster:
    return core / coresPerNpu * clustersPerNpu +
           core % coresPerNpu / cfg.cluster;
  case Scope::Chip:
    return core / coresPerNpu;
  }
  return 0;
}

uint32_t Engine::npuOf(Scope scope, uint32_t copy) const {
  switch (scope) {
  case Scope::Core:
    return copy / coresPerNpu;
  case Scope::Cluster:
    return copy / clustersPerNpu;
  case Scope::Chip:
    return copy;
  }
  return 0;
}

Cycle Engine::admit(Cycle t, uint32_t npu) {
  Cycle &cycle = icCycle[npu];
  uint32_t &used = icUsed[npu];
  Cycle e = std::max(t, cycle);
  if (e > cycle) {
    cycle = e;
    used = 0;
  }
  if (used == cfg.icPorts) {
    ++cycle;
    used = 0;
    e = cycle;
  }
  ++used;
  ++icAdmitted;
  icConflict += e - t;
  return e;
}

Cycle Engine::book(int mem, uint32_t copy, uint64_t addr, uint32_t bytes,
                   bool write, Cycle t) {
  Memory &m = memories[size_t(mem)];
  const MemoryCfg &mc = *m.cfg;
  Cycle arrive = t;
  if (mc.viaInterconnect)
    arrive = admit(t, npuOf(mc.scope, copy)) + cfg.icLatency;
  MemCopy &cp = m.copies[copy];
  uint32_t bank = uint32_t((addr / mc.interleave) % mc.banks);
  uint32_t beats = std::max(1u, (bytes + mc.width - 1) / mc.width);
  Cycle occupy = Cycle(beats) * mc.bankCycles;
  Cycle start = std::max(arrive, cp.busyUntil[bank]);
  BankStats &bs = cp.stats[bank];
  bs.conflict += start - arrive;
  bs.busy += occupy;
  ++bs.accesses;
  cp.busyUntil[bank] = start + occupy;
  (write ? m.writes : m.reads) += 1;
  m.bytes += bytes;
  return start + mc.latency + occupy - mc.bankCycles +
         (mc.viaInterconnect ? cfg.icLatency : 0);
}

Cycle Engine::bookSpan(int mem, uint32_t copy, uint64_t addr, uint64_t bytes,
                       bool write, Cycle t) {
  const MemoryCfg &mc = cfg.memories[size_t(mem)];
  bytes = std::max<uint64_t>(bytes, 1);
  if (addr % mc.interleave + bytes <= mc.interleave)
    return book(mem, copy, addr, uint32_t(bytes), write, t);
  // The span crosses banks: each bank takes its share as one burst, so
  // the beats of one request that fall on one bank follow each other
  // instead of queueing as conflicts.
  spanFirst.assign(mc.banks, UINT64_MAX);
  spanBytes.assign(mc.banks, 0);
  for (uint64_t end = addr + bytes; addr < end;) {
    uint64_t chunk =
        std::min<uint64_t>(end, (addr / mc.interleave + 1) * mc.interleave) -
        addr;
    size_t bank = size_t((addr / mc.interleave) % mc.banks);
    if (spanFirst[bank] == UINT64_MAX)
      spanFirst[bank] = addr;
    spanBytes[bank] += chunk;
    addr += chunk;
  }
  Cycle done = t;
  for (size_t b = 0; b < mc.banks; ++b)
    if (spanBytes[b])
      done = std::max(done, book(mem, copy, spanFirst[b],
                                 uint32_t(spanBytes[b]), write, t));
  return done;
}

void Engine::access(int mem, uint32_t copy, uint64_t addr, uint32_t bytes,
                    bool write) {
  Context *c = cur;
  const MemoryCfg &mc = cfg.memories[size_t(mem)];
  if (mc.scope == Scope::Core && !mc.viaInterconnect) {
    // The core's own memory: private, no banks to share.
    c->t += mc.latency;
    c->run += mc.latency;
    cores[c->core]->stalled += mc.latency;
    memories[size_t(mem)].copies[copy].stats[0].accesses += 1;
    (write ? memories[size_t(mem)].writes : memories[size_t(mem)].reads) += 1;
    memories[size_t(mem)].bytes += bytes;
    return;
  }
  Core &core = *cores[c->core];
  if (core.dcache.present() && bytes && mc.cached) {
    uint64_t base = uint64_t(mem) << 48;
    uint32_t line = core.dcache.line();
    uint64_t first = addr / line * line,
             last = (addr + bytes - 1) / line * line;
    if (write) {
      // Write-through, no allocation: the memory sees every write.
    } else {
      bool hit = true;
      for (uint64_t a = first; a <= last; a += line)
        hit = core.dcache.lookup(base + a) && hit;
      if (hit) {
        compute(core.dcache.line() ? cfg.dcache.hit : 0);
        return;
      }
      for (uint64_t a = first; a <= last; a += line)
        core.dcache.fill(base + a);
      addr = first;
      bytes = uint32_t(last + line - first);
    }
  }
  if (write && cfg.postedWrites) {
    uint32_t slot;
    if (freeWrites.empty()) {
      slot = uint32_t(posted.size());
      posted.push_back(Request());
    } else {
      slot = freeWrites.back();
      freeWrites.pop_back();
    }
    posted[slot] = Request{mem, copy, addr, bytes, true};
    at(c->t, &Engine::onWrite, nullptr, slot);
    compute(1);
    return;
  }
  Cycle unloaded =
      mc.latency + (mc.viaInterconnect ? 2 * Cycle(cfg.icLatency) : 0);
  bool stall = unloaded <= cfg.stallBelow;
  if (queue.empty() || queue.top().t > c->t) {
    // Nothing is due before this cycle, so the request would be the
    // queue's next event: book it now and save the event (most accesses
    // of a busy machine).
    Cycle done = bookSpan(mem, copy, addr, bytes, write, c->t);
    if (stall) {
      cores[c->core]->stalled += done - c->t;
      c->run += done - c->t;
      c->t = done;
      return;
    }
    c->stalling = false;
    if (!waitInPlace(done))
      sleep(done);
    return;
  }
  pending[c->id] = Request{mem, copy, addr, bytes, write};
  c->stalling = stall;
  at(c->t, &Engine::onAccess, c, 0);
  sleep(UINT64_MAX);
}

void Engine::onAccess(Engine &e, void *p, uint64_t) {
  auto *c = static_cast<Context *>(p);
  const Request &r = e.pending[c->id];
  Cycle done = e.bookSpan(r.mem, r.copy, r.addr, r.bytes, r.write, e.time);
  e.at(done, &Engine::onWake, c, 0);
}

void Engine::onWrite(Engine &e, void *, uint64_t a) {
  const Request r = e.posted[a];
  e.freeWrites.push_back(uint32_t(a));
  e.bookSpan(r.mem, r.copy, r.addr, r.bytes, true, e.time);
}

void Engine::fetchLines(uint64_t addr, uint32_t bytes) {
  Context *c = cur;
  Core &core = *cores[c->core];
  uint32_t line = core.icache.line();
  uint64_t first = addr / line * line, last = (addr + bytes - 1) / line * line;
  for (uint64_t a = first; a <= last; a += line) {
    if (core.icache.lookup(a))
      continue;
    core.icache.fill(a);
    int mem = cfg.place.code;
    access(mem, copyFor(mem, c->core), a, line, false);
  }
}

//--- Coprocessors -------------------------------------------------------------

void Engine::coproc(uint32_t unit, uint32_t bytes, Cycle swCycles) {
  Context *c = cur;
  if (unit >= coprocs.size() || coprocs[unit].unitFree.empty()) {
    compute(swCycles);
    return;
  }
  coprocUnit[c->id] = unit;
  coprocBytes[c->id] = bytes;
  at(c->t, &Engine::onCoproc, c, 0);
  sleep(UINT64_MAX);
}

void Engine::onCoproc(Engine &e, void *p, uint64_t) {
  auto *c = static_cast<Context *>(p);
  Coproc &k = e.coprocs[e.coprocUnit[c->id]];
  size_t u = size_t(std::min_element(k.unitFree.begin(), k.unitFree.end()) -
                    k.unitFree.begin());
  Cycle start = std::max(e.time, k.unitFree[u]);
  Cycle service =
      k.cfg->latency + (Cycle(k.cfg->perByte) * e.coprocBytes[c->id] + 15) / 16;
  k.queued += start - e.time;
  k.busy += service;
  ++k.requests;
  k.unitFree[u] = start + service;
  e.at(start + service, &Engine::onWake, c, 0);
}

//--- Locks and queues ---------------------------------------------------------

void Engine::schedulerPath() {
  Context *c = cur;
  compute(cfg.lock.schedCycles);
  int os = cfg.place.os;
  if (os < 0)
    return;
  for (uint32_t i = 0; i < cfg.lock.schedAccesses; ++i)
    access(os, copyFor(os, c->core), 8 * i, 4, i % 2 == 1);
}

bool Engine::anyMutexWait(const Core &core) const {
  for (const Context *c : core.ctxs)
    if (c && c->mutexWait)
      return true;
  return false;
}

void Engine::onIdlePoll(Engine &e, void *p, uint64_t) {
  auto *core = static_cast<Core *>(p);
  core->polling = false;
  if (core->running || !e.anyMutexWait(*core) || e.cfg.place.os < 0)
    return;
  // The core's only threads sleep: its scheduler loops over the ready
  // list, which lives in the shared RAM with the rest of its data.
  int os = e.cfg.place.os;
  Cycle done = e.book(os, 0, 0, 4, false, e.time);
  core->polling = true;
  e.at(done + e.cfg.lock.schedCycles, &Engine::onIdlePoll, core, 0);
}

void Engine::lock(Lock &l) {
  Context *c = cur;
  ++l.acquisitions;
  if (cfg.lock.kind == LockKind::None) {
    l.owner = c;
    return;
  }
  sync();
  Cycle start = c->t;
  bool contended = false;
  uint32_t copy = copyFor(l.memory, c->core);
  for (;;) {
    ++l.tries;
    bool got = l.owner == nullptr;
    if (got)
      l.owner = c;
    // The test-and-set: one read-modify-write of the lock word.
    pending[c->id] = Request{l.memory, copy, l.addr, 4, true};
    c->stalling = false;
    at(c->t, &Engine::onAccess, c, 0);
    sleep(UINT64_MAX);
    if (got)
      break;
    contended = true;
    if (cfg.lock.kind == LockKind::Spinlock) {
      compute(cfg.lock.spinBackoff);
      sync();
      continue;
    }
    // Mutex: the thread goes to sleep through the scheduler.
    schedulerPath();
    sync();
    if (l.owner == nullptr)
      continue;
    l.waiters.push_back(c);
    c->mutexWait = true;
    sleep(UINT64_MAX);
    // Woken by unlock, which made it the owner: back out of the scheduler.
    schedulerPath();
    break;
  }
  if (contended)
    ++l.contended;
  l.waitCycles += c->t - start;
  c->lockWait += c->t - start;
}

void Engine::unlock(Lock &l) {
  Context *c = cur;
  if (cfg.lock.kind == LockKind::None) {
    l.owner = nullptr;
    return;
  }
  sync();
  uint32_t copy = copyFor(l.memory, c->core);
  // The release is a store to the lock word.
  Cycle done = book(l.memory, copy, l.addr, 4, true, c->t);
  (void)done;
  compute(1);
  if (l.waiters.empty()) {
    l.owner = nullptr;
    return;
  }
  schedulerPath();
  sync();
  Context *next = l.waiters.front();
  l.waiters.pop_front();
  l.owner = next;
  next->mutexWait = false;
  at(c->t, &Engine::onWake, next, 0);
}

void Engine::sleepOn(WaitQueue &q) {
  Context *c = cur;
  q.waiters.push_back(c);
  Cycle from = c->t;
  sleep(UINT64_MAX);
  c->queueWait += c->t - from;
  c->waited -= std::min(c->waited, c->t - from);
}

void Engine::notify(WaitQueue &q, Cycle delay) {
  Cycle t = now() + delay;
  for (Context *w : q.waiters)
    at(t, &Engine::onWake, w, 0);
  q.waiters.clear();
}
