//===- Report.cpp - what a simulated run measured -------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// npsim_report: throughput (bits per cycle, Mpps at the clock), the
// latency distribution, cycles per element with the acquisition and
// extraction rows (the modular-NPU paper's Fig. 7 table), utilisation per
// core, conflict cycles per memory and bank, locks and coprocessors; as a
// table and as JSON (docs/npsim.md, "Reports").
//
//===----------------------------------------------------------------------===//

#include "runtime/npsim/Machine.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <string>

using namespace npcc::npsim;

namespace {

std::string jsonStr(const std::string &s) {
  std::string o = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      o += '\\';
    if ((unsigned char)c < 0x20) {
      char b[8];
      snprintf(b, sizeof(b), "\\u%04x", c);
      o += b;
      continue;
    }
    o += c;
  }
  return o + "\"";
}

struct Summary {
  Cycle cycles = 0; ///< the run's simulated cycles
  Cycle window = 0; ///< first packet in to last packet out
  double bitsPerCycle = 0, mpps = 0;
  uint64_t latMin = 0, latMed = 0, latP99 = 0, latMax = 0;
  double latMean = 0;
};

Summary summarize(npsim_machine &m) {
  Summary s;
  s.cycles = m.end;
  if (m.packetsOut && m.lastOut > m.firstIn)
    s.window = m.lastOut - (m.firstIn == UINT64_MAX ? 0 : m.firstIn);
  if (s.window) {
    s.bitsPerCycle = double(m.bitsOut) / double(s.window);
    s.mpps = double(m.packetsOut) / (double(s.window) / m.cfg.clockMhz);
  }
  if (!m.latencies.empty()) {
    std::vector<uint64_t> l = m.latencies;
    std::sort(l.begin(), l.end());
    s.latMin = l.front();
    s.latMax = l.back();
    s.latMed = l[l.size() / 2];
    s.latP99 = l[std::min(l.size() - 1, l.size() * 99 / 100)];
    double sum = 0;
    for (uint64_t x : l)
      sum += double(x);
    s.latMean = sum / double(l.size());
  }
  return s;
}

std::string tagName(uint32_t t, const char *const *tags, uint32_t n) {
  if (t == 0)
    return "Acquisition";
  if (t == 1)
    return "Extraction";
  if (t == 2)
    return "(runtime)";
  uint32_t i = t - kFirstInstanceTag;
  return i < n ? tags[i] : "?";
}

double pct(Cycle part, Cycle whole) {
  return whole ? 100.0 * double(part) / double(whole) : 0.0;
}

} // namespace

extern "C" int npsim_report(npsim_machine *m, const char *const *tags,
                            uint32_t n_tags, FILE *out, const char *json) {
  Engine &e = *m->eng;
  Summary s = summarize(*m);
  // Rows of the element table: acquisition, the instances in program
  // order, extraction; the runtime's own work (lanes, merges) last.
  std::vector<uint32_t> rows = {0};
  for (uint32_t i = 0; i < n_tags; ++i)
    rows.push_back(i + kFirstInstanceTag);
  rows.push_back(1);
  rows.push_back(2);
  auto cyclesOf = [&](uint32_t t) {
    return t < e.tagCycles.size() ? e.tagCycles[t] : Cycle(0);
  };
  Cycle total = 0;
  for (uint32_t t : rows)
    total += cyclesOf(t);
  uint64_t pkts = std::max<uint64_t>(m->inTarget.size(), 1);

  if (out) {
    fprintf(out,
            "npsim: %s, %u cores x %u contexts at %g MHz: %" PRIu64
            " cycles (%.1f us)\n",
            m->cfg.name.c_str(), m->cores, m->contexts, m->cfg.clockMhz,
            s.cycles, double(s.cycles) / m->cfg.clockMhz);
    fprintf(out,
            "  packets: %zu in, %" PRIu64 " out; %.4f bits/cycle (%.1f Mb/s), "
            "%.3f Mpps\n",
            m->inTarget.size(), m->packetsOut, s.bitsPerCycle,
            s.bitsPerCycle * m->cfg.clockMhz, s.mpps);
    if (!m->latencies.empty())
      fprintf(out,
              "  latency (cycles, wire to wire): min %" PRIu64
              ", median %" PRIu64 ", mean %.1f, p99 %" PRIu64 ", max %" PRIu64
              "\n",
              s.latMin, s.latMed, s.latMean, s.latP99, s.latMax);
    fprintf(out, "  cycles per element (all contexts):\n");
    fprintf(out, "    %-28s %14s %12s %7s\n", "element", "cycles", "per packet",
            "share");
    for (uint32_t t : rows) {
      Cycle c = cyclesOf(t);
      if (!c && t >= kFirstInstanceTag)
        continue;
      fprintf(out, "    %-28s %14" PRIu64 " %12.1f %6.2f%%\n",
              tagName(t, tags, n_tags).c_str(), c, double(c) / double(pkts),
              pct(c, total));
    }
    fprintf(out, "    %-28s %14" PRIu64 " %12.1f %6.2f%%\n", "Total", total,
            double(total) / double(pkts), total ? 100.0 : 0.0);
    Cycle busy = 0, stalled = 0, sw = 0, idle = 0;
    for (auto &c : e.cores) {
      busy += c->busy;
      stalled += c->stalled;
      sw += c->switching;
      idle += c->idle;
    }
    Cycle all = s.cycles * e.cores.size();
    fprintf(out,
            "  cores: computing %.1f%%, stalled %.1f%%, switching %.1f%%, "
            "waiting %.1f%%, idle %.1f%%\n",
            pct(busy, all), pct(stalled, all), pct(sw, all),
            pct(all - std::min(all, busy + stalled + sw + idle), all),
            pct(idle, all));
    fprintf(out, "  memories: accesses, conflict cycles (busiest bank)\n");
    for (const Memory &mem : e.memories) {
      uint64_t acc = 0;
      Cycle conf = 0, worst = 0;
      for (const MemCopy &cp : mem.copies)
        for (const BankStats &b : cp.stats) {
          acc += b.accesses;
          conf += b.conflict;
          worst = std::max(worst, b.conflict);
        }
      if (!acc)
        continue;
      fprintf(out, "    %-12s %12" PRIu64 " %14" PRIu64 " (%" PRIu64 ")\n",
              mem.cfg->name.c_str(), acc, conf, worst);
    }
    if (e.icAdmitted)
      fprintf(out,
              "  interconnect: %" PRIu64 " requests, %" PRIu64
              " conflict cycles\n",
              e.icAdmitted, e.icConflict);
    if (m->npus > 1)
      fprintf(out,
              "  switch matrix: %u NPUs, %" PRIu64 " frames switched, %" PRIu64
              " dropped (a header that names no NPU)\n",
              m->npus, m->matrixSwitched, m->matrixDropped);
    for (const Lock *l : e.locks)
      if (l->acquisitions && m->cfg.lock.kind != LockKind::None)
        fprintf(out,
                "  lock %s (%s): %" PRIu64 " acquisitions, %" PRIu64
                " contended, %" PRIu64 " cycles waited\n",
                l->name.c_str(),
                m->cfg.lock.kind == LockKind::Mutex ? "mutex" : "spinlock",
                l->acquisitions, l->contended, l->waitCycles);
    for (const Coproc &k : e.coprocs)
      if (k.requests)
        fprintf(out,
                "  coprocessor %s: %" PRIu64 " requests, %" PRIu64
                " cycles queued, %.1f%% busy\n",
                k.cfg->name.c_str(), k.requests, k.queued,
                pct(k.busy, s.cycles * k.unitFree.size()));
  }
  if (!json)
    return 0;
  FILE *f = fopen(json, "w");
  if (!f) {
    fprintf(m->err, "%s: error: %s: cannot write\n", m->prog.c_str(), json);
    return -1;
  }
  fprintf(f, "{\n  \"config\": %s,\n  \"file\": %s,\n",
          jsonStr(m->cfg.name).c_str(), jsonStr(m->cfg.file).c_str());
  fprintf(f,
          "  \"cores\": %u, \"contexts\": %u, \"clock_mhz\": %g,\n"
          "  \"cycles\": %" PRIu64 ", \"window\": %" PRIu64 ",\n",
          m->cores, m->contexts, m->cfg.clockMhz, s.cycles, s.window);
  fprintf(f,
          "  \"packets_in\": %zu, \"packets_out\": %" PRIu64
          ", \"bits_out\": %" PRIu64 ",\n"
          "  \"bits_per_cycle\": %.6f, \"mpps\": %.6f,\n",
          m->inTarget.size(), m->packetsOut, m->bitsOut, s.bitsPerCycle,
          s.mpps);
  fprintf(f,
          "  \"latency\": {\"min\": %" PRIu64 ", \"median\": %" PRIu64
          ", \"mean\": %.3f, \"p99\": %" PRIu64 ", \"max\": %" PRIu64 "},\n",
          s.latMin, s.latMed, s.latMean, s.latP99, s.latMax);
  fprintf(f, "  \"elements\": [");
  bool first = true;
  for (uint32_t t : rows) {
    bool seen = t < e.tagFirst.size() && e.tagFirst[t] != UINT64_MAX;
    fprintf(f,
            "%s\n    {\"name\": %s, \"cycles\": %" PRIu64
            ", \"first\": %" PRIu64 ", \"last\": %" PRIu64 "}",
            first ? "" : ",", jsonStr(tagName(t, tags, n_tags)).c_str(),
            cyclesOf(t), seen ? e.tagFirst[t] : 0, seen ? e.tagLast[t] : 0);
    first = false;
  }
  fprintf(f, "\n  ],\n  \"core_stats\": [");
  for (size_t i = 0; i < e.cores.size(); ++i) {
    const Core &c = *e.cores[i];
    fprintf(f,
            "%s\n    {\"busy\": %" PRIu64 ", \"stalled\": %" PRIu64
            ", \"switching\": %" PRIu64 ", \"idle\": %" PRIu64
            ", \"switches\": %" PRIu64 "}",
            i ? "," : "", c.busy, c.stalled, c.switching, c.idle, c.switches);
  }
  fprintf(f, "\n  ],\n  \"context_stats\": [");
  for (size_t i = 0; i < e.contexts.size(); ++i) {
    const Context &c = *e.contexts[i];
    fprintf(f,
            "%s\n    {\"core\": %u, \"context\": %u, \"run\": %" PRIu64
            ", \"waited\": %" PRIu64 ", \"lock_wait\": %" PRIu64
            ", \"queue_wait\": %" PRIu64 "}",
            i ? "," : "", c.core, c.slot, c.run, c.waited, c.lockWait,
            c.queueWait);
  }
  fprintf(f, "\n  ],\n  \"memories\": [");
  for (size_t i = 0; i < e.memories.size(); ++i) {
    const Memory &mem = e.memories[i];
    fprintf(f,
            "%s\n    {\"name\": %s, \"reads\": %" PRIu64
            ", \"writes\": %" PRIu64 ", \"bytes\": %" PRIu64 ", \"banks\": [",
            i ? "," : "", jsonStr(mem.cfg->name).c_str(), mem.reads, mem.writes,
            mem.bytes);
    bool fb = true;
    for (size_t c = 0; c < mem.copies.size(); ++c)
      for (size_t b = 0; b < mem.copies[c].stats.size(); ++b) {
        const BankStats &st = mem.copies[c].stats[b];
        fprintf(f,
                "%s{\"copy\": %zu, \"bank\": %zu, \"accesses\": %" PRIu64
                ", \"busy\": %" PRIu64 ", \"conflict\": %" PRIu64 "}",
                fb ? "" : ", ", c, b, st.accesses, st.busy, st.conflict);
        fb = false;
      }
    fprintf(f, "]}");
  }
  fprintf(
      f,
      "\n  ],\n  \"interconnect\": {\"requests\": %" PRIu64
      ", \"conflict\": %" PRIu64 "},\n  \"switch\": {\"npus\": %u, "
      "\"switched\": %" PRIu64 ", \"dropped\": %" PRIu64 "},\n  \"locks\": [",
      e.icAdmitted, e.icConflict, m->npus, m->matrixSwitched, m->matrixDropped);
  for (size_t i = 0; i < e.locks.size(); ++i) {
    const Lock &l = *e.locks[i];
    fprintf(f,
            "%s\n    {\"name\": %s, \"acquisitions\": %" PRIu64
            ", \"contended\": %" PRIu64 ", \"tries\": %" PRIu64
            ", \"wait\": %" PRIu64 "}",
            i ? "," : "", jsonStr(l.name).c_str(), l.acquisitions, l.contended,
            l.tries, l.waitCycles);
  }
  fprintf(f, "\n  ],\n  \"coprocessors\": [");
  first = true;
  for (const Coproc &k : e.coprocs) {
    if (!k.cfg->present)
      continue;
    fprintf(f,
            "%s\n    {\"name\": %s, \"requests\": %" PRIu64
            ", \"queued\": %" PRIu64 ", \"busy\": %" PRIu64 "}",
            first ? "" : ",", jsonStr(k.cfg->name).c_str(), k.requests,
            k.queued, k.busy);
    first = false;
  }
  fprintf(f, "\n  ],\n  \"events\": %" PRIu64 "\n}\n", e.events);
  if (fclose(f) != 0) {
    fprintf(m->err, "%s: error: %s: cannot write\n", m->prog.c_str(), json);
    return -1;
  }
  return 0;
}

extern "C" void npsim_trace_on(npsim_machine *m) { m->eng->tracing = true; }

extern "C" int npsim_write_trace(npsim_machine *m, const char *const *tags,
                                 uint32_t n_tags, const char *path) {
  Engine &e = *m->eng;
  FILE *f = fopen(path, "w");
  if (!f) {
    fprintf(m->err, "%s: error: %s: cannot write\n", m->prog.c_str(), path);
    return -1;
  }
  double us = 1.0 / m->cfg.clockMhz;
  fprintf(f, "{\"displayTimeUnit\": \"ns\", \"traceEvents\": [");
  bool first = true;
  for (size_t i = 0; i < e.cores.size(); ++i) {
    fprintf(f,
            "%s\n{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": %zu, "
            "\"args\": {\"name\": \"core %zu\"}}",
            first ? "" : ",", i, i);
    first = false;
  }
  for (const auto &c : e.contexts)
    fprintf(f,
            ",\n{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": %u, "
            "\"tid\": %u, \"args\": {\"name\": \"context %u\"}}",
            c->core, c->slot, c->slot);
  for (const Engine::Slice &s : e.slices) {
    const Context &c = *e.contexts[s.ctx];
    fprintf(f,
            ",\n{\"name\": %s, \"ph\": \"X\", \"pid\": %u, \"tid\": %u, "
            "\"ts\": %.4f, \"dur\": %.4f, \"args\": {\"cycle\": %" PRIu64
            ", \"cycles\": %" PRIu64 "}}",
            jsonStr(tagName(s.tag, tags, n_tags)).c_str(), c.core, c.slot,
            double(s.start) * us, double(s.end - s.start) * us, s.start,
            s.end - s.start);
  }
  fprintf(f, "\n]}\n");
  if (fclose(f) != 0) {
    fprintf(m->err, "%s: error: %s: cannot write\n", m->prog.c_str(), path);
    return -1;
  }
  return 0;
}
