//===- Bench.cpp - the paper's matching benchmark (section 5.1) -----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
#include "runtime/musim/Bench.h"

#include <chrono>
#include <cmath>
#include <cstdio>

namespace npcc::musim {

namespace {

constexpr unsigned HEADERS = 64;
constexpr unsigned LENGTHS[] = {10, 30, 100, 300};
// Portals options (docs/match-unit-isa.md): valid, respond to PUT and GET.
constexpr uint64_t OPT_VALID = 1, OPT_PUT = 2, OPT_GET = 4;
constexpr uint64_t OP_PUT = 1;

std::string jsonString(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    if ((unsigned char)c < 0x20) {
      char buf[8];
      snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
      continue;
    }
    out += c;
  }
  return out + "\"";
}

} // namespace

void paperCase(unsigned length, unsigned matchAt, std::vector<Item> &list,
               Item &header) {
  header = Item{};
  header[0] = 0x0123456789abcdefull;
  header[1] = 7 | uint64_t(3) << 32 | OP_PUT << 48; // NID 7, PID 3, PUT
  header[4] = 0;                                    // remote offset
  header[5] = 1024;                                 // length
  list.clear();
  for (unsigned i = 0; i < length; ++i) {
    Item it{};
    it[0] = i == matchAt ? header[0] : header[0] ^ (uint64_t(i + 1) << 8);
    it[1] = ~0ull;                                     // don't ignore any bit
    it[2] = 7 | uint64_t(3) << 32 | uint64_t(1) << 48; // threshold 1
    it[3] = OPT_VALID | OPT_PUT | OPT_GET;
    it[4] = 65536; // MD length
    it[7] = 0x1000ull * (i + 1);
    list.push_back(it);
  }
}

bool runPaperBench(const Program &prog, const RunConfig &config,
                   BenchResult &result, std::string &error) {
  using Clock = std::chrono::steady_clock;
  result = BenchResult();
  struct Point {
    std::vector<Item> list, headers;
  };
  std::vector<Point> points;
  for (unsigned length : LENGTHS) {
    for (unsigned percent = 0; percent <= 100; percent += 10) {
      unsigned at = (unsigned)std::lround(percent / 100.0 * (length - 1));
      Point pt;
      Item header;
      paperCase(length, at, pt.list, header);
      pt.headers.assign(HEADERS, header);
      points.push_back(pt);

      RunResult run;
      if (!runList(prog, pt.list, pt.headers, config, run)) {
        error = "list length " + std::to_string(length) + ", match at " +
                std::to_string(percent) + "%: " + run.error;
        return false;
      }
      uint64_t bound = 0;
      for (size_t h = 0; h < run.headers.size(); ++h) {
        const HeaderResult &r = run.headers[h];
        if (!r.complete || r.match != (int64_t)at) {
          error = "list length " + std::to_string(length) + ", header " +
                  std::to_string(h) + ": expected a match at item " +
                  std::to_string(at) + ", got " +
                  (!r.complete   ? std::string("an incomplete header")
                   : r.match < 0 ? std::string("no match")
                                 : "item " + std::to_string(r.match));
          return false;
        }
        bound += 8 + 8 * r.itemsPushed;
      }
      BenchRun b;
      b.listLength = length;
      b.matchPercent = percent;
      b.totalCycles = run.headers.back().endCycle -
                      run.headers.front().firstCycle + DRAIN_CYCLES;
      b.cyclesPerItem = double(b.totalCycles) / (HEADERS * (at + 1.0));
      b.hwBoundRatio = double(b.totalCycles) / bound;
      result.runs.push_back(b);
    }
  }
  // Simulator speed: rerun every point until half a second has passed.
  uint64_t cycles = 0;
  auto begin = Clock::now();
  double seconds = 0;
  do {
    for (const Point &pt : points) {
      RunResult run;
      runList(prog, pt.list, pt.headers, config, run);
      cycles += run.stats.cycles;
    }
    seconds = std::chrono::duration<double>(Clock::now() - begin).count();
  } while (seconds < 0.5);
  result.simCyclesPerSecond = cycles / seconds;
  return true;
}

void printBenchTable(std::ostream &os, const std::string &program,
                     const BenchResult &result) {
  os << "program " << program << '\n';
  os << "list  match%  total_cycles  cycles/item  hw_bound_ratio\n";
  char buf[128];
  for (const BenchRun &r : result.runs) {
    snprintf(buf, sizeof buf, "%4u  %6u  %12llu  %11.2f  %14.3f\n",
             r.listLength, r.matchPercent, (unsigned long long)r.totalCycles,
             r.cyclesPerItem, r.hwBoundRatio);
    os << buf;
  }
  snprintf(buf, sizeof buf, "simulated cycles per second: %.0f\n",
           result.simCyclesPerSecond);
  os << buf;
}

void printBenchJson(std::ostream &os, const std::string &program,
                    const BenchResult &result) {
  char buf[256];
  os << "{\"program\":" << jsonString(program) << ",\"runs\":[";
  for (size_t i = 0; i < result.runs.size(); ++i) {
    const BenchRun &r = result.runs[i];
    snprintf(buf, sizeof buf,
             "%s{\"list_length\":%u,\"match_percent\":%u,\"total_cycles\":%"
             "llu,\"cycles_per_item\":%.4f,\"hw_bound_ratio\":%.4f}",
             i ? "," : "", r.listLength, r.matchPercent,
             (unsigned long long)r.totalCycles, r.cyclesPerItem,
             r.hwBoundRatio);
    os << buf;
  }
  snprintf(buf, sizeof buf, "],\"sim_cycles_per_second\":%.0f}\n",
           result.simCyclesPerSecond);
  os << buf;
}

} // namespace npcc::musim
