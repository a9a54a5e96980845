//===- Bridge.cpp - npsim's C interface for libnprt -----------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// npsim.h over the Engine: the machine a run configures, the simulated
// addresses of what the program keeps, and the ingress and egress engines
// that place packets in memory and take them out (docs/npsim.md).
//
//===----------------------------------------------------------------------===//

#include "runtime/npsim/npsim.h"

#include "runtime/npsim/Machine.h"

#include <algorithm>
#include <deque>

using namespace npcc::npsim;

namespace {

npsim_machine *machineOf(Engine &e) {
  return static_cast<npsim_machine *>(e.owner);
}

Context *ctx(npsim_ctx *c) { return reinterpret_cast<Context *>(c); }

int placement(const Config &cfg, enum npsim_kind k) {
  switch (k) {
  case NPSIM_STATE:
    return cfg.place.state;
  case NPSIM_STATE_ONCE:
    return cfg.place.stateOnce;
  case NPSIM_SHARED:
    return cfg.place.shared;
  case NPSIM_TABLE:
    return cfg.place.tables;
  case NPSIM_PACKET:
    return cfg.place.packets;
  case NPSIM_LANE:
    return cfg.place.lanes;
  case NPSIM_ENGINE:
  case NPSIM_N_KINDS:
    return cfg.place.engines;
  }
  return cfg.place.engines;
}

const char *placementKey(enum npsim_kind k) {
  static const char *const keys[] = {"state",   "state_once", "shared",
                                     "tables",  "packets",    "lanes",
                                     "engines", "engines"};
  return keys[k];
}

/// The cycles a packet of `bytes` takes on a line of `gbps` at the clock.
Cycle wireCycles(const Config &cfg, double gbps, uint64_t bytes) {
  if (gbps <= 0)
    return 0;
  double bitsPerCycle = gbps * 1000.0 / cfg.clockMhz;
  return Cycle(double(bytes * 8) / bitsPerCycle + 0.999999);
}

uint64_t bufferAddr(npsim_machine &m, uint64_t slot) {
  return (slot % std::max<uint64_t>(m.inSlots, 1)) * kBufStride;
}

void ingressStep(Engine &e, void *p, uint64_t);

void ingressReady(Engine &e, void *p, uint64_t i) {
  npsim_machine &m = *static_cast<npsim_machine *>(p);
  size_t q = m.queueOf(m.inTarget[i], m.inDev[i]);
  m.queues[q].push_back(Placed{bufferAddr(m, i), m.inStart + m.inArrive[i]});
  e.notify(m.waiting[q]);
}

void ingressDesc(Engine &e, void *p, uint64_t i) {
  npsim_machine &m = *static_cast<npsim_machine *>(p);
  uint32_t v = m.inTarget[i];
  int mem = m.cfg.place.engines;
  uint32_t core = v / m.contexts;
  Cycle done =
      e.bookSpan(mem, e.copyFor(mem, core), 64 * m.queueOf(v, m.inDev[i]),
                 m.cfg.ingress.descBytes, true, e.now());
  e.at(done, &ingressReady, &m, i);
}

/// Input `dev`'s ingress engine places its next packet: once it is on the
/// wire and its context's queue has room, it writes the packet to packet
/// memory, then the descriptor. Each interface has its own engine.
void ingressStep(Engine &e, void *p, uint64_t dev) {
  npsim_machine &m = *static_cast<npsim_machine *>(p);
  Ingress &in = m.ins[dev];
  if (in.next >= in.packets.size())
    return;
  size_t i = in.packets[in.next];
  size_t q = m.queueOf(m.inTarget[i], uint32_t(dev));
  uint32_t v = m.inTarget[i];
  if (m.inFlight[q] >= kQueueDepth) {
    in.blocked = true; // npsim_ingress_take restarts it
    return;
  }
  if (m.inStart + m.inArrive[i] > e.now()) {
    e.at(m.inStart + m.inArrive[i], &ingressStep, &m, dev);
    return;
  }
  ++m.inFlight[q];
  ++in.next;
  m.firstIn = std::min<Cycle>(m.firstIn, e.now());
  int mem = m.cfg.place.packets;
  uint32_t core = v / m.contexts;
  Cycle done = e.bookSpan(mem, e.copyFor(mem, core), bufferAddr(m, i),
                          m.inBytes[i], true, e.now());
  e.at(done, &ingressDesc, &m, i);
  // The engine streams: its port takes a beat a cycle, and the next packet
  // starts once this one's beats are out (its writes need not be done).
  const MemoryCfg &mc = m.cfg.memories[size_t(mem)];
  e.at(e.now() + std::max<Cycle>(1, (m.inBytes[i] + mc.width - 1) / mc.width),
       &ingressStep, &m, dev);
}

void startIngress(npsim_machine &m, Cycle t) {
  for (size_t d = 0; d < m.ins.size(); ++d)
    m.eng->at(t, &ingressStep, &m, d);
}

struct EgressReq {
  npsim_machine *m;
  uint32_t dev, core;
  uint64_t addr, bytes, born;
};

void egressStep(Engine &e, void *p, uint64_t) {
  auto *r = static_cast<EgressReq *>(p);
  npsim_machine &m = *r->m;
  if (m.outs.size() <= r->dev)
    m.outs.resize(r->dev + 1);
  Egress &o = m.outs[r->dev];
  if (o.free > e.now()) {
    e.at(o.free, &egressStep, r, 0);
    return;
  }
  int mem = m.cfg.place.packets;
  Cycle done = e.bookSpan(mem, e.copyFor(mem, r->core), r->addr, r->bytes,
                          false, e.now());
  Cycle leave =
      std::max(done, e.now() + wireCycles(m.cfg, m.cfg.egress.gbps, r->bytes));
  // Like the ingress engine it streams: the next packet's reads start once
  // this one's are issued, a beat a cycle, and the line is free again.
  const MemoryCfg &mc = m.cfg.memories[size_t(mem)];
  o.free = std::max(
      e.now() + std::max<Cycle>(1, (r->bytes + mc.width - 1) / mc.width),
      e.now() + wireCycles(m.cfg, m.cfg.egress.gbps, r->bytes));
  ++o.packets;
  o.bytes += r->bytes;
  ++m.packetsOut;
  m.bitsOut += r->bytes * 8;
  m.lastOut = std::max(m.lastOut, leave);
  m.latencies.push_back(leave - std::min<uint64_t>(leave, r->born));
  delete r;
}

} // namespace

extern "C" {

npsim_machine *npsim_open(const char *prog, const char *config,
                          const char *const *sets, uint32_t n_sets,
                          uint32_t cores, uint32_t contexts, FILE *err) {
  auto m = std::make_unique<npsim_machine>();
  m->prog = prog;
  m->err = err;
  std::vector<std::string> over(sets, sets + n_sets);
  std::string name = *config ? config : "nfp-like";
  std::string e;
  if (!loadConfig(name, "", over, m->cfg, e)) {
    // "npsim: error: ..." or "FILE:L:C: error: ...": the program's name first.
    if (e.rfind("npsim: ", 0) == 0)
      e = e.substr(7);
    fprintf(err, "%s: %s\n", prog, e.c_str());
    return nullptr;
  }
  m->npus = m->cfg.matrix.present ? m->cfg.matrix.npus : 1;
  // --cores counts one NPU's cores: the machine has them npus times.
  m->cores = (cores ? cores : m->cfg.cores) * m->npus;
  m->contexts = contexts ? contexts : m->cfg.contexts;
  if (m->cores * m->contexts > kMaxVcores) {
    fprintf(err,
            "%s: error: %s: %u NPU%s x %u cores x %u contexts is more than "
            "the %u contexts npsim simulates\n",
            prog, m->cfg.file.c_str(), m->npus, m->npus == 1 ? "" : "s",
            m->cores / m->npus, m->contexts, kMaxVcores);
    return nullptr;
  }
  const CostsCfg &k = m->cfg.costs;
  m->costs =
      npsim_costs{k.send,          k.recv,       k.poll,        k.select,
                  k.deviceRecv,    k.deviceSend, k.drop,        k.clone,
                  k.pktNew,        k.call,       k.swCsumPer16, k.swCrcPerByte,
                  k.swLpmPerLevel, k.swHashProbe};
  m->eng = std::make_unique<Engine>(m->cfg, m->cores, m->contexts);
  m->eng->owner = m.get();
  for (const Memory &mem : m->eng->memories)
    m->used.emplace_back(mem.copies.size(), 0);
  uint32_t v = m->cores * m->contexts;
  m->allocNext.assign(v, 0);
  m->matrixQ.resize(v);
  m->matrixTaken.resize(v);
  m->matrixWait.resize(v);
  m->quiet.assign(v, 0);
  m->portFrames.assign(m->npus, 0);
  m->matrixSlot.assign(m->npus, 0);
  // The core's private memory, where the dispatcher puts packet headers:
  // the last one the configuration lists.
  for (size_t i = 0; i < m->cfg.memories.size(); ++i)
    if (m->cfg.memories[i].scope == Scope::Core &&
        !m->cfg.memories[i].viaInterconnect)
      m->localMemory = int(i);
  int pm = m->cfg.place.packets;
  m->inSlots = m->cfg.memories[size_t(pm)].capacity / kBufStride;
  for (Lock *l : {&m->inLock, &m->outLock}) {
    l->memory = m->cfg.place.engines;
    m->eng->locks.push_back(l);
  }
  m->inLock.name = "ingress";
  m->inLock.addr = 0;
  m->outLock.name = "egress";
  m->outLock.addr = 8;
  if (m->inSlots == 0) {
    fprintf(err,
            "%s: error: %s: [placement] packets: memory '%s' holds less than "
            "one packet buffer (%llu bytes)\n",
            prog, m->cfg.file.c_str(), m->cfg.memories[size_t(pm)].name.c_str(),
            (unsigned long long)kBufStride);
    return nullptr;
  }
  return m.release();
}

void npsim_close(npsim_machine *m) { delete m; }
uint32_t npsim_cores(const npsim_machine *m) { return m->cores; }
uint32_t npsim_contexts(const npsim_machine *m) { return m->contexts; }
const npsim_costs *npsim_costs_of(const npsim_machine *m) { return &m->costs; }
bool npsim_has_unit(const npsim_machine *m, enum npsim_unit unit) {
  return size_t(unit) < m->cfg.coprocs.size() &&
         m->cfg.coprocs[size_t(unit)].present;
}
const char *npsim_config_name(const npsim_machine *m) {
  return m->cfg.name.c_str();
}

int npsim_place(npsim_machine *m, enum npsim_kind kind, uint32_t vcore,
                uint64_t bytes, const char *what, uint64_t *addr) {
  int mem = placement(m->cfg, kind);
  uint32_t copy = m->eng->copyFor(mem, vcore / m->contexts);
  const MemoryCfg &mc = m->cfg.memories[size_t(mem)];
  uint64_t &next = m->used[size_t(mem)][copy];
  // Objects start on a line of their own.
  uint64_t at = (next + 63) / 64 * 64;
  if (at + bytes > mc.capacity) {
    fprintf(m->err,
            "%s: error: %s: [placement] %s: memory '%s' holds %llu bytes "
            "per copy, and %s needs %llu more after %llu in use\n",
            m->prog.c_str(), m->cfg.file.c_str(), placementKey(kind),
            mc.name.c_str(), (unsigned long long)mc.capacity, what,
            (unsigned long long)bytes, (unsigned long long)at);
    return -1;
  }
  next = at + bytes;
  *addr = at;
  return 0;
}

int npsim_spawn(npsim_machine *m, uint32_t vcore, void (*fn)(void *),
                void *arg) {
  return m->eng->spawn(vcore / m->contexts, vcore % m->contexts, fn, arg) ? 0
                                                                          : -1;
}

uint64_t npsim_run(npsim_machine *m) {
  size_t queues = size_t(m->cores) * m->contexts * m->ins.size();
  m->queues.resize(queues);
  m->inFlight.assign(queues, 0);
  m->waiting.resize(queues);
  m->askedOnce.assign(size_t(m->cores) * m->contexts, 1);
  for (uint32_t v : m->inTarget)
    if (m->askedOnce[v]) {
      m->askedOnce[v] = 0;
      ++m->bootWait;
    }
  if (m->bootWait == 0)
    startIngress(*m, 0);
  m->end = m->eng->run();
  return m->end;
}

npsim_ctx *npsim_ctx_of(npsim_machine *m, uint32_t vcore) {
  return reinterpret_cast<npsim_ctx *>(
      m->eng->context(vcore / m->contexts, vcore % m->contexts));
}

npsim_machine *npsim_machine_of(npsim_ctx *c) {
  return machineOf(*ctx(c)->eng);
}

void npsim_set_user(npsim_ctx *c, void *user) { ctx(c)->user = user; }

void *npsim_user(const npsim_ctx *c) {
  return reinterpret_cast<const Context *>(c)->user;
}

uint32_t npsim_vcore(const npsim_ctx *c) {
  const Context *x = reinterpret_cast<const Context *>(c);
  return x->core * x->eng->contextsPerCore() + x->slot;
}

int npsim_ingress_add(npsim_machine *m, uint32_t vcore, uint32_t dev,
                      uint32_t bytes) {
  if (m->ins.size() <= dev)
    m->ins.resize(dev + 1);
  Ingress &in = m->ins[dev];
  // Each interface has its own wire: a packet arrives once the one
  // before it on the same interface is in.
  Cycle arrive = in.packets.empty()
                     ? 0
                     : in.lastArrive + wireCycles(m->cfg, m->cfg.ingress.gbps,
                                                  in.lastBytes);
  in.packets.push_back(m->inTarget.size());
  in.lastArrive = arrive;
  in.lastBytes = bytes;
  m->inTarget.push_back(vcore);
  m->inDev.push_back(dev);
  m->inBytes.push_back(bytes);
  m->inArrive.push_back(arrive);
  return 0;
}

void npsim_ingress_take(npsim_ctx *c, uint32_t dev, uint64_t *addr,
                        uint64_t *born) {
  Engine &e = *ctx(c)->eng;
  npsim_machine &m = *machineOf(e);
  uint32_t v = npsim_vcore(c);
  *addr = *born = 0;
  if (dev >= m.ins.size())
    return; // no packet was told for it: the runtime reads none
  if (!m.askedOnce[v]) {
    m.askedOnce[v] = 1;
    if (--m.bootWait == 0) {
      m.inStart = e.now();
      startIngress(m, e.now());
    }
  }
  size_t q = m.queueOf(v, dev);
  while (m.queues[q].empty())
    e.sleepOn(m.waiting[q]);
  e.lock(m.inLock);
  int mem = m.cfg.place.engines;
  e.access(mem, e.copyFor(mem, ctx(c)->core), 64 * q, m.cfg.ingress.descBytes,
           false);
  e.unlock(m.inLock);
  Placed got = m.queues[q].front();
  m.queues[q].pop_front();
  --m.inFlight[q];
  if (m.ins[dev].blocked) {
    m.ins[dev].blocked = false;
    e.at(e.now(), &ingressStep, &m, dev);
  }
  e.compute(m.costs.device_recv);
  *addr = got.addr;
  *born = got.born;
}

void npsim_egress(npsim_ctx *c, uint32_t dev, uint64_t addr, uint32_t bytes,
                  uint64_t born) {
  Engine &e = *ctx(c)->eng;
  npsim_machine &m = *machineOf(e);
  e.lock(m.outLock);
  int mem = m.cfg.place.engines;
  e.access(mem, e.copyFor(mem, ctx(c)->core), 4096 + 64 * dev,
           m.cfg.egress.descBytes, true);
  e.unlock(m.outLock);
  e.compute(m.costs.device_send);
  auto *r = new EgressReq{&m, dev, ctx(c)->core, addr, bytes, born};
  e.at(e.now(), &egressStep, r, 0);
}

uint64_t npsim_packet_alloc(npsim_ctx *c) {
  Engine &e = *ctx(c)->eng;
  npsim_machine &m = *machineOf(e);
  uint32_t v = npsim_vcore(c);
  // Buffers the program makes come from the top of packet memory down,
  // a stripe per vcore.
  uint64_t n = m.allocNext[v]++;
  uint64_t slots = std::max<uint64_t>(m.inSlots, 1);
  return ((slots - 1) - ((v * 64 + n % 64) % slots)) * kBufStride;
}

void npsim_compute(npsim_ctx *c, uint32_t cycles) {
  ctx(c)->eng->compute(cycles);
}

void npsim_block(npsim_ctx *c, uint32_t cycles, uint32_t code_off,
                 uint32_t code_bytes) {
  Engine &e = *ctx(c)->eng;
  e.fetch(code_off, code_bytes);
  e.compute(cycles);
}

void npsim_mem(npsim_ctx *c, enum npsim_kind kind, uint64_t addr,
               uint32_t bytes, bool write) {
  Engine &e = *ctx(c)->eng;
  npsim_machine &m = *machineOf(e);
  int mem = placement(m.cfg, kind);
  e.access(mem, e.copyFor(mem, ctx(c)->core), addr, bytes, write);
}

void npsim_pkt(npsim_ctx *c, uint64_t addr, uint64_t off, uint32_t bytes,
               bool write) {
  Engine &e = *ctx(c)->eng;
  npsim_machine &m = *machineOf(e);
  uint32_t head = m.cfg.ingress.headerBytes;
  if (off < head && off + bytes <= head) {
    // The dispatcher put the packet's first bytes in local memory.
    if (m.localMemory >= 0) {
      e.access(m.localMemory, ctx(c)->core, off, bytes, write);
      return;
    }
  }
  int mem = m.cfg.place.packets;
  e.access(mem, e.copyFor(mem, ctx(c)->core), addr + off % kBufBytes, bytes,
           write);
}

void npsim_coproc(npsim_ctx *c, enum npsim_unit unit, uint32_t bytes,
                  uint32_t sw) {
  ctx(c)->eng->coproc(uint32_t(unit), bytes, sw);
}

void npsim_poll(npsim_ctx *c) {
  Engine &e = *ctx(c)->eng;
  npsim_machine &m = *machineOf(e);
  e.compute(m.costs.poll);
  int mem = m.cfg.place.lanes;
  e.access(mem, e.copyFor(mem, ctx(c)->core), 0, 8, false);
  // What the poll looks at changes only as the rest of the machine moves:
  // let it catch up (a cached read took no time to the event loop).
  e.sync();
  // Nothing came: another context of the core may have work.
  e.yieldCore();
}

void npsim_doorbell_wait(npsim_ctx *c) {
  Engine &e = *ctx(c)->eng;
  e.sleepOn(machineOf(e)->doorbell);
}

void npsim_doorbell_ring(npsim_ctx *c) {
  Engine &e = *ctx(c)->eng;
  e.notify(machineOf(e)->doorbell);
}

uint32_t npsim_stuck(const npsim_machine *m) {
  uint32_t n = 0;
  for (const auto &c : m->eng->contexts)
    n += c->state != Context::DONE;
  return n;
}

void npsim_tag(npsim_ctx *c, uint32_t tag) {
  ctx(c)->eng->setTag(tag >= NPSIM_TAG_ACQUISITION ? tag - NPSIM_TAG_ACQUISITION
                                                   : tag + kFirstInstanceTag);
}

void npsim_on_stack(npsim_ctx *c, void *base, size_t size, void *tsan) {
  Context *x = ctx(c);
  x->point.stack = base ? StackRef{base, size, tsan} : x->stack.ref();
}

uint64_t npsim_now(const npsim_ctx *c) {
  return reinterpret_cast<const Context *>(c)->t;
}

void npsim_sync(npsim_ctx *c) { ctx(c)->eng->sync(); }

npsim_ctx *npsim_running(void) {
  Engine *e = Engine::active();
  return e ? reinterpret_cast<npsim_ctx *>(e->current()) : nullptr;
}

} // extern "C"
