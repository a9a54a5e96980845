//===- Matrix.cpp - several NPUs joined by a switch matrix ----------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The [switch] configuration (docs/npsim.md, "Several NPUs"): the machine
// is `npus` copies of the NPU the file describes, their cores numbered NPU
// by NPU. NPU k's Ethernet interface is device k and its port on the
// matrix device first_port + k. A frame a context sends out of its NPU's
// port crosses the matrix (its latency, the port's rate) to the port of
// the NPU its 8-byte header names (SwitchEncap's: destination NPU in bytes
// 0-1), whose ingress engine writes it into that NPU's packet memory and
// queues it for a context there. The ports are inputs that end once the
// whole machine is quiet: every context's graph waits for input, nothing
// is in the matrix and every input packet was taken.
//
//===----------------------------------------------------------------------===//
#include "runtime/npsim/Machine.h"
#include "runtime/npsim/npsim.h"

#include <algorithm>

using namespace npcc::npsim;

namespace {

Context *ctx(npsim_ctx *c) { return reinterpret_cast<Context *>(c); }

npsim_machine &machineOf(Engine &e) {
  return *static_cast<npsim_machine *>(e.owner);
}

uint32_t vcoresPerNpu(const npsim_machine &m) {
  return m.cores * m.contexts / m.npus;
}

int portNpu(const npsim_machine &m, uint32_t dev) {
  const SwitchCfg &s = m.cfg.matrix;
  if (!s.present || dev < s.firstPort || dev >= s.firstPort + s.npus)
    return -1;
  return int(dev - s.firstPort);
}

Cycle portCycles(const npsim_machine &m, uint64_t bytes) {
  double gbps = m.cfg.matrix.gbps;
  if (gbps <= 0)
    return 0;
  double bitsPerCycle = gbps * 1000.0 / m.cfg.clockMhz;
  return Cycle(double(bytes * 8) / bitsPerCycle + 0.999999);
}

/// Ends the ports once nothing can send into the matrix again.
void checkEnd(npsim_machine &m) {
  if (m.matrixEnded || m.matrixInFlight)
    return;
  for (const Ingress &in : m.ins)
    if (in.next < in.packets.size())
      return;
  for (size_t q = 0; q < m.queues.size(); ++q)
    if (!m.queues[q].empty())
      return;
  uint32_t v = m.cores * m.contexts;
  for (uint32_t k = 0; k < v; ++k) {
    if (!m.matrixQ[k].empty())
      return;
    const Context *c = m.eng->context(k / m.contexts, k % m.contexts);
    if (!m.quiet[k] && c && c->state != Context::DONE)
      return;
  }
  m.matrixEnded = true;
  for (WaitQueue &w : m.matrixWait)
    m.eng->notify(w);
}

void matrixQueued(Engine &e, void *p, uint64_t) {
  auto *f = static_cast<MatrixFrame *>(p);
  npsim_machine &m = machineOf(e);
  uint32_t npu = f->vcore / vcoresPerNpu(m);
  f->index = m.portFrames[npu]++;
  uint32_t v = f->vcore;
  m.matrixQ[v].push_back(std::move(*f));
  delete f;
  --m.matrixInFlight;
  e.notify(m.matrixWait[v]);
}

/// The frame reaches its destination port: that NPU's ingress engine
/// writes it into packet memory, then its descriptor.
void matrixArrive(Engine &e, void *p, uint64_t) {
  auto *f = static_cast<MatrixFrame *>(p);
  npsim_machine &m = machineOf(e);
  uint32_t core = f->vcore / m.contexts;
  uint32_t npu = f->vcore / vcoresPerNpu(m);
  int mem = m.cfg.place.packets;
  // Its buffer comes round the same ring as the interfaces' (what
  // matters is the banks it falls on, not the bytes).
  f->addr = m.matrixSlot[npu]++ % std::max<uint64_t>(m.inSlots, 1) * kBufStride;
  Cycle done = e.bookSpan(mem, e.copyFor(mem, core), f->addr, f->bytes.size(),
                          true, e.now());
  int eng = m.cfg.place.engines;
  done = std::max(done, e.bookSpan(eng, e.copyFor(eng, core), 64 * f->vcore,
                                   m.cfg.ingress.descBytes, true, done));
  e.at(done, &matrixQueued, f, 0);
}

} // namespace

extern "C" {

uint32_t npsim_npus(const npsim_machine *m) { return m->npus; }

int npsim_npu_of_device(const npsim_machine *m, uint32_t dev) {
  if (!m->cfg.matrix.present)
    return 0;
  if (dev < m->npus)
    return int(dev);
  return portNpu(*m, dev);
}

bool npsim_is_port(const npsim_machine *m, uint32_t dev) {
  return portNpu(*m, dev) >= 0;
}

void npsim_matrix_send(npsim_ctx *c, uint32_t dev, const uint8_t *bytes,
                       uint32_t len, int64_t ts, uint32_t lane, uint64_t born) {
  Engine &e = *ctx(c)->eng;
  npsim_machine &m = machineOf(e);
  if (portNpu(m, dev) < 0)
    return;
  uint32_t dst = len >= 8 ? uint32_t(bytes[0]) << 8 | bytes[1] : m.npus;
  if (dst >= m.npus) {
    ++m.matrixDropped; // a header that names no NPU: the matrix drops it
    return;
  }
  auto *f = new MatrixFrame();
  f->bytes.assign(bytes, bytes + len);
  f->ts = ts;
  f->vcore = dst * vcoresPerNpu(m) + lane % vcoresPerNpu(m);
  f->port = m.cfg.matrix.firstPort + dst;
  f->born = born;
  ++m.matrixInFlight;
  ++m.matrixSwitched;
  e.at(e.now() + m.cfg.matrix.latency + portCycles(m, len), &matrixArrive, f,
       0);
}

int npsim_matrix_take(npsim_ctx *c, uint32_t dev, npsim_frame *out) {
  Engine &e = *ctx(c)->eng;
  npsim_machine &m = machineOf(e);
  uint32_t v = npsim_vcore(c);
  std::deque<MatrixFrame> &q = m.matrixQ[v];
  if (q.empty() || q.front().port != dev)
    return m.matrixEnded ? -1 : 0;
  e.lock(m.inLock);
  int eng = m.cfg.place.engines;
  e.access(eng, e.copyFor(eng, ctx(c)->core), 64 * v, m.cfg.ingress.descBytes,
           false);
  e.unlock(m.inLock);
  e.compute(m.costs.device_recv);
  m.matrixTaken[v] = std::move(q.front());
  q.pop_front();
  const MatrixFrame &f = m.matrixTaken[v];
  *out = npsim_frame{
      f.bytes.data(), uint32_t(f.bytes.size()), f.ts, f.index, f.addr, f.born};
  return 1;
}

bool npsim_matrix_ready(npsim_ctx *c, uint32_t dev) {
  npsim_machine &m = machineOf(*ctx(c)->eng);
  const std::deque<MatrixFrame> &q = m.matrixQ[npsim_vcore(c)];
  return m.matrixEnded || (!q.empty() && q.front().port == dev);
}

bool npsim_matrix_idle(npsim_ctx *c) {
  Engine &e = *ctx(c)->eng;
  npsim_machine &m = machineOf(e);
  uint32_t v = npsim_vcore(c);
  m.quiet[v] = 1;
  checkEnd(m);
  while (!m.matrixEnded && m.matrixQ[v].empty())
    e.sleepOn(m.matrixWait[v]);
  m.quiet[v] = 0;
  return m.matrixEnded;
}

} // extern "C"
